package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// hourStart is the first generated hour; its state file is named in UTC.
var hourStart = time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)

// writeHour writes generated requests as JSON lines and returns the path.
func writeHour(t *testing.T, dir, name string, reqs []gen.Request) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteJSONL(f, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// genHour is one hour of background traffic from start.
func genHour(seed uint64, n int, start time.Time) []gen.Request {
	return gen.Generate(gen.Config{Seed: seed, N: n, Start: start})
}

type jsonQ struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50_ms"`
	P95   float64 `json:"p95_ms"`
	P99   float64 `json:"p99_ms"`
}

type jsonRow struct {
	Key      string  `json:"key"`
	Before   jsonQ   `json:"before"`
	After    jsonQ   `json:"after"`
	P50Ratio float64 `json:"p50_ratio"`
	P95Ratio float64 `json:"p95_ratio"`
	P99Ratio float64 `json:"p99_ratio"`
}

type stateReport struct {
	Input struct {
		Records  int64 `json:"records"`
		Problems []struct {
			File   string `json:"file"`
			Reason string `json:"reason"`
		} `json:"problems"`
	} `json:"input"`
	Findings []struct {
		Rule     string            `json:"rule"`
		Severity string            `json:"severity"`
		Key      map[string]string `json:"key"`
	} `json:"findings"`
	NotEvaluated []struct{ Rule, Reason string } `json:"not_evaluated"`
	Comparison   struct {
		Against     string `json:"against"`
		RequestTime struct {
			All    jsonRow   `json:"all"`
			Region []jsonRow `json:"region"`
		} `json:"request_time"`
	} `json:"comparison"`
	DayBefore *struct {
		Against string `json:"against"`
	} `json:"comparison_day_before"`
}

// runJSON runs cfg (times in UTC) and decodes its JSON report into rep;
// a file left unread is an error, as it is exit 1 for the command.
func runJSON(t *testing.T, cfg Config, rep any) error {
	t.Helper()
	cfg.Ingest.Location = time.UTC
	res, err := Run(context.Background(), cfg)
	if err != nil {
		return err
	}
	if len(res.Unread) > 0 {
		return fmt.Errorf("unread: %v", res.Unread)
	}
	var b bytes.Buffer
	if err := res.Report.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), rep); err != nil {
		t.Fatal(err)
	}
	return nil
}

// stateRun runs cfg and returns its report as stateReport.
func stateRun(t *testing.T, cfg Config) (stateReport, error) {
	t.Helper()
	var rep stateReport
	err := runJSON(t, cfg, &rep)
	return rep, err
}

func regressionReason(rep stateReport) string {
	for _, n := range rep.NotEvaluated {
		if n.Rule == "latency_regression" {
			return n.Reason
		}
	}
	return ""
}

// TestStateRegression runs an hour, then the next hour with one region
// made four times slower: latency_regression fires crit for that region
// and for no other, and the report compares with the previous hour.
func TestStateRegression(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	prev := genHour(7, 8000, hourStart)
	cur := make([]gen.Request, len(prev))
	const slow = "ap-beijing"
	for i, r := range prev {
		r.Time = r.Time.Add(time.Hour)
		if r.Region == slow {
			r.RequestTime *= 4
		}
		cur[i] = r
	}
	p1 := writeHour(t, dir, "h1.jsonl", prev)
	p2 := writeHour(t, dir, "h2.jsonl", cur)

	rep, err := stateRun(t, Config{StateDir: st, Paths: []string{p1}})
	if err != nil {
		t.Fatalf("first hour: %v", err)
	}
	if want := "no previous hour in the state directory (2026-11-29T08:00Z)"; regressionReason(rep) != want {
		t.Errorf("first hour: not evaluated %q, want %q", regressionReason(rep), want)
	}
	if _, err := os.Stat(filepath.Join(st, "2026-11-29T09.sketch")); err != nil {
		t.Fatalf("no state file for the first hour: %v", err)
	}

	rep, err = stateRun(t, Config{StateDir: st, Paths: []string{p2}})
	if err != nil {
		t.Fatalf("second hour: %v", err)
	}
	if r := regressionReason(rep); r != "" {
		t.Errorf("second hour: not evaluated: %s", r)
	}
	fired := 0
	for _, f := range rep.Findings {
		if f.Rule != "latency_regression" || f.Key["dimension"] != "region" || f.Key["metric"] != "request_time" {
			continue
		}
		fired++
		if f.Key["key"] != slow || f.Severity != "crit" {
			t.Errorf("finding %v %s; want only %s, crit", f.Key, f.Severity, slow)
		}
	}
	if fired != 1 {
		t.Errorf("%d request_time region findings, want 1", fired)
	}
	if rep.Comparison.Against != "previous_hour" {
		t.Fatalf("comparison against %q", rep.Comparison.Against)
	}
	for _, row := range rep.Comparison.RequestTime.Region {
		if row.Before.Count != row.After.Count {
			t.Errorf("%s: %d requests before, %d after; the hours hold the same requests", row.Key, row.Before.Count, row.After.Count)
		}
		want := 1.0
		if row.Key == slow {
			want = 4
		}
		if math.Abs(row.P99Ratio-want) > 0.021*want {
			t.Errorf("%s: p99 ratio %v, want %v", row.Key, row.P99Ratio, want)
		}
	}
	if rep.DayBefore != nil {
		t.Error("a day-before comparison without that hour's file")
	}

	// A report of the second hour from the state directory alone finds
	// the same: the previous hour is in the directory too.
	since, until := hourStart.Add(time.Hour), hourStart.Add(2*time.Hour)
	res, err := Stored(context.Background(), StoredConfig{StateDirs: []string{st}, Since: &since, Until: &until, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.Report.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var stored stateReport
	if err := json.Unmarshal(b.Bytes(), &stored); err != nil {
		t.Fatal(err)
	}
	if r := regressionReason(stored); r != "" {
		t.Errorf("stored: not evaluated: %s", r)
	}
	if !reflect.DeepEqual(stored.Findings, rep.Findings) {
		t.Errorf("stored: findings %v, the run's %v", stored.Findings, rep.Findings)
	}
	if stored.Comparison.Against != "previous_hour" || !reflect.DeepEqual(stored.Comparison.RequestTime, rep.Comparison.RequestTime) {
		t.Errorf("stored: comparison against %q %+v, the run's %+v", stored.Comparison.Against, stored.Comparison.RequestTime, rep.Comparison.RequestTime)
	}
}

// TestStateRewriteIsIdempotent runs the same hour twice: one file, the
// same bytes.
func TestStateRewriteIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	p := writeHour(t, dir, "h.jsonl", genHour(3, 2000, hourStart))
	var files [][]byte
	for range 2 {
		if _, err := stateRun(t, Config{StateDir: st, Paths: []string{p}}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(st, "2026-11-29T09.sketch"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if string(files[0]) != string(files[1]) {
		t.Error("the second run wrote a different file")
	}
	entries, _ := os.ReadDir(st)
	if len(entries) != 2 {
		t.Errorf("%d entries in the state directory, want the hour and the lock", len(entries))
	}
}

func TestDamagedStateFileIsReported(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	if err := os.MkdirAll(st, 0o755); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(st, "2026-11-29T08.sketch")
	if err := os.WriteFile(damaged, []byte("LGASTATE\x01 not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := writeHour(t, dir, "h.jsonl", genHour(3, 500, hourStart))
	rep, err := stateRun(t, Config{StateDir: st, Paths: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Input.Records == 0 {
		t.Error("no records read")
	}
	found := false
	for _, pr := range rep.Input.Problems {
		if pr.File == damaged && strings.Contains(pr.Reason, "damaged state file") {
			found = true
		}
	}
	if !found {
		t.Errorf("damaged file not among the problems: %+v", rep.Input.Problems)
	}
	if r := regressionReason(rep); !strings.Contains(r, "damaged") {
		t.Errorf("not evaluated reason %q", r)
	}
	if _, err := os.Stat(filepath.Join(st, "2026-11-29T09.sketch")); err != nil {
		t.Errorf("the run's own hour was not written: %v", err)
	}
}

// TestBaselineRatios compares two generated hours: every ratio is within
// the sketches' accuracy of the ratio of the exact quantiles.
func TestBaselineRatios(t *testing.T) {
	dir := t.TempDir()
	base := genHour(1, 6000, hourStart)
	win := genHour(2, 6000, hourStart.Add(24*time.Hour))
	for i := range win {
		if win[i].Region == "ap-shanghai" {
			win[i].RequestTime *= 1.5
		}
	}
	pb := writeHour(t, dir, "base.jsonl", base)
	pw := writeHour(t, dir, "win.jsonl", win)
	rep, err := stateRun(t, Config{Baseline: []string{pb}, Paths: []string{pw}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Comparison.Against != "baseline" {
		t.Fatalf("comparison against %q", rep.Comparison.Against)
	}
	exact := func(reqs []gen.Request, region string) [3]float64 {
		var v []float64
		for _, r := range reqs {
			if region == "" || r.Region == region {
				v = append(v, r.RequestTime*1000)
			}
		}
		sort.Float64s(v)
		var q [3]float64
		for i, p := range []float64{0.5, 0.95, 0.99} {
			q[i] = v[int(p*float64(len(v)-1))]
		}
		return q
	}
	check := func(row jsonRow, region string) {
		b, a := exact(base, region), exact(win, region)
		for i, got := range []float64{row.P50Ratio, row.P95Ratio, row.P99Ratio} {
			want := a[i] / b[i]
			// Each quantile is within 1 %, so the ratio is within ~2 %.
			if math.Abs(got-want) > 0.0205*want+0.001 {
				t.Errorf("%q quantile %d: ratio %v, exact %v", row.Key, i, got, want)
			}
		}
	}
	check(rep.Comparison.RequestTime.All, "")
	if len(rep.Comparison.RequestTime.Region) < 3 {
		t.Fatalf("%d region rows", len(rep.Comparison.RequestTime.Region))
	}
	for _, row := range rep.Comparison.RequestTime.Region {
		check(row, row.Key)
	}
}

// TestBaselinePeakSplit compares eight hours with eight hours whose
// request counts differ per hour: peak compares the two busiest hours of
// each side, off_peak the two quietest, each against the exact quantiles
// of those hours' requests. The window's busy hours are made slower.
func TestBaselinePeakSplit(t *testing.T) {
	dir := t.TempDir()
	var base, win []gen.Request
	var basePeak, baseOff, winPeak, winOff []float64
	for h := range 8 {
		// Baseline hour h has 400·(h+1) requests: peak hours 6, 7; quiet 0, 1.
		reqs := genHour(uint64(10+h), 400*(h+1), hourStart.Add(time.Duration(h)*time.Hour))
		for _, r := range reqs {
			switch {
			case h >= 6:
				basePeak = append(basePeak, r.RequestTime*1000)
			case h <= 1:
				baseOff = append(baseOff, r.RequestTime*1000)
			}
		}
		base = append(base, reqs...)
		// Window hour h has 400·(8−h) requests: peak hours 0, 1; quiet 6, 7.
		reqs = genHour(uint64(30+h), 400*(8-h), hourStart.Add(time.Duration(24+h)*time.Hour))
		for i := range reqs {
			if h <= 1 {
				reqs[i].RequestTime *= 2
				winPeak = append(winPeak, reqs[i].RequestTime*1000)
			} else if h >= 6 {
				winOff = append(winOff, reqs[i].RequestTime*1000)
			}
		}
		win = append(win, reqs...)
	}
	pb := writeHour(t, dir, "base.jsonl", base)
	pw := writeHour(t, dir, "win.jsonl", win)
	var rep struct {
		Comparison struct {
			Peak struct {
				RequestTime struct {
					All jsonRow `json:"all"`
				} `json:"request_time"`
			} `json:"peak"`
			OffPeak struct {
				RequestTime struct {
					All jsonRow `json:"all"`
				} `json:"request_time"`
			} `json:"off_peak"`
		} `json:"comparison"`
	}
	if err := runJSON(t, Config{Baseline: []string{pb}, Paths: []string{pw}}, &rep); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		row           jsonRow
		before, after []float64
	}{
		{"peak", rep.Comparison.Peak.RequestTime.All, basePeak, winPeak},
		{"off_peak", rep.Comparison.OffPeak.RequestTime.All, baseOff, winOff},
	} {
		if c.row.Before.Count != int64(len(c.before)) || c.row.After.Count != int64(len(c.after)) {
			t.Errorf("%s: counts %d, %d; want %d, %d", c.name, c.row.Before.Count, c.row.After.Count, len(c.before), len(c.after))
		}
		sort.Float64s(c.before)
		sort.Float64s(c.after)
		for i, q := range []float64{0.5, 0.95, 0.99} {
			want := c.after[int(q*float64(len(c.after)-1))] / c.before[int(q*float64(len(c.before)-1))]
			got := []float64{c.row.P50Ratio, c.row.P95Ratio, c.row.P99Ratio}[i]
			if math.Abs(got-want) > 0.0205*want+0.001 {
				t.Errorf("%s q%v: ratio %v, exact %v", c.name, q, got, want)
			}
		}
	}
}

// TestStateDayBefore: the same hour a day before is compared too, under
// comparison_day_before when the previous hour takes comparison.
func TestStateDayBefore(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	day := writeHour(t, dir, "day.jsonl", genHour(1, 1000, hourStart.Add(-24*time.Hour)))
	prevReqs, curReqs := genHour(2, 1000, hourStart.Add(-time.Hour)), genHour(3, 1000, hourStart)
	prev := writeHour(t, dir, "prev.jsonl", prevReqs)
	cur := writeHour(t, dir, "cur.jsonl", curReqs)
	for _, p := range []string{day, cur} {
		if _, err := stateRun(t, Config{StateDir: st, Paths: []string{p}}); err != nil {
			t.Fatal(err)
		}
	}
	rep, _ := stateRun(t, Config{StateDir: st, Paths: []string{cur}})
	if rep.Comparison.Against != "day_before" || rep.DayBefore != nil {
		t.Errorf("with only the day before: comparison against %q", rep.Comparison.Against)
	}
	if _, err := stateRun(t, Config{StateDir: st, Paths: []string{prev}}); err != nil {
		t.Fatal(err)
	}
	rep, _ = stateRun(t, Config{StateDir: st, Paths: []string{cur}})
	if rep.Comparison.Against != "previous_hour" || rep.DayBefore == nil || rep.DayBefore.Against != "day_before" {
		t.Errorf("with both: comparison against %q, day before %+v", rep.Comparison.Against, rep.DayBefore)
	}
	if all := rep.Comparison.RequestTime.All; all.Before.Count != int64(len(prevReqs)) || all.After.Count != int64(len(curReqs)) {
		t.Errorf("counts %+v", rep.Comparison.RequestTime.All)
	}
}

// TestStateFileIndependentOfWorkers writes the same hour, read in many
// blocks, with 1, 2 and 5 workers: the hour files must be the same
// bytes, as the reports are.
func TestStateFileIndependentOfWorkers(t *testing.T) {
	dir := t.TempDir()
	p := writeHour(t, dir, "h.jsonl", genHour(4, 30000, hourStart))
	var want []byte
	for _, w := range []int{1, 2, 5} {
		st := filepath.Join(dir, fmt.Sprint("state", w))
		if _, err := stateRun(t, Config{StateDir: st, Paths: []string{p}, Ingest: ingest.Options{Workers: w}}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(st, "2026-11-29T09.sketch"))
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b
		} else if !bytes.Equal(b, want) {
			t.Errorf("with %d workers the hour file differs from one worker's (%d bytes, %d)", w, len(b), len(want))
		}
	}
}
