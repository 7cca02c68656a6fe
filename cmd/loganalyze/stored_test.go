package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
)

// sixHours is six generated hours with every problem planted, from
// hourStart.
func sixHours() []gen.Request {
	return gen.Generate(gen.Config{Seed: 11, N: 24000, Start: hourStart, Duration: 6 * time.Hour, Plants: gen.All})
}

// jsonReport is the part of the JSON report the roll-up tests compare.
type jsonReport struct {
	Input struct {
		Records int64 `json:"records"`
		Files   []struct {
			Path   string `json:"path"`
			Reason string `json:"reason"`
		} `json:"files"`
		Problems []struct {
			File   string `json:"file"`
			Reason string `json:"reason"`
		} `json:"problems"`
	} `json:"input"`
	Verdict  string            `json:"verdict"`
	Status   map[string]int64  `json:"status"`
	Findings []json.RawMessage `json:"findings"`
	// Breakdown is kept as exact sums: the same from stored shards.
	Breakdown json.RawMessage `json:"breakdown"`
	Latency   map[string]struct {
		All row `json:"all"`
		By  map[string][]row
	} `json:"latency"`
}

type row struct {
	Key   string  `json:"key"`
	Count int64   `json:"count"`
	P50   float64 `json:"p50_ms"`
	P95   float64 `json:"p95_ms"`
	P99   float64 `json:"p99_ms"`
}

func readReport(t *testing.T, path string) jsonReport {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r jsonReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// shard writes every other request (from the first or the second) into
// state directory st, one run per shard, as two gateway hosts would.
func shard(t *testing.T, dir, st string, reqs []gen.Request, which int, extra ...string) {
	t.Helper()
	var mine []gen.Request
	for i, r := range reqs {
		if i%2 == which {
			mine = append(mine, r)
		}
	}
	log := writeHour(t, dir, filepath.Base(st)+".jsonl", mine)
	args := append([]string{"--tz", "UTC", "--state", st, "--json", os.DevNull}, extra...)
	if code, _, errs := runCLI(t, append(args, log)...); code != 0 && code != 3 {
		t.Fatalf("shard %s: exit %d: %s", st, code, errs)
	}
}

// Six hours split between two shards: the report from their stored hours
// is the report of one run over all the logs — records, statuses and
// findings exact, every quantile of a key with ≥ 200 requests within 2 %.
func TestReportMergesShards(t *testing.T) {
	dir := t.TempDir()
	reqs := sixHours()
	a, b := filepath.Join(dir, "A"), filepath.Join(dir, "B")
	shard(t, dir, a, reqs, 0)
	shard(t, dir, b, reqs, 1)
	if n := len(storedHours(t, a)) + len(storedHours(t, b)); n != 12 {
		t.Fatalf("%d hour files, want 6 per shard", n)
	}
	all := writeHour(t, dir, "all.jsonl", reqs)
	one, rolled := filepath.Join(dir, "one.json"), filepath.Join(dir, "rolled.json")
	if code, _, errs := runCLI(t, "--tz", "UTC", "--json", one, all); code != 0 {
		t.Fatalf("one run: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "report", "--tz", "UTC", "--state", a, "--state", b, "--json", rolled); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	want, got := readReport(t, one), readReport(t, rolled)
	if got.Input.Records != int64(len(reqs)) || want.Input.Records != int64(len(reqs)) {
		t.Fatalf("records: report %d, one run %d, generated %d", got.Input.Records, want.Input.Records, len(reqs))
	}
	statuses := map[string]int64{}
	for _, r := range reqs {
		statuses[itoa(r.Status)]++
	}
	if !reflect.DeepEqual(got.Status, statuses) || !reflect.DeepEqual(want.Status, statuses) {
		t.Errorf("statuses: report %v, one run %v, generated %v", got.Status, want.Status, statuses)
	}
	if len(want.Findings) < 5 || !reflect.DeepEqual(got.Findings, want.Findings) {
		t.Errorf("findings differ:\nreport  %s\none run %s", got.Findings, want.Findings)
	}
	if len(want.Breakdown) < 100 || string(got.Breakdown) != string(want.Breakdown) {
		t.Errorf("breakdown differs:\nreport  %s\none run %s", got.Breakdown, want.Breakdown)
	}
	checked := 0
	for metric, w := range want.Latency {
		g := got.Latency[metric]
		checked += compareRows(t, metric+" all", []row{w.All}, []row{g.All})
		for dim, rows := range w.By {
			checked += compareRows(t, metric+" "+dim, rows, g.By[dim])
		}
	}
	if checked < 50 {
		t.Errorf("only %d keys with ≥ 200 requests compared", checked)
	}

	// A smaller --top than the hours were written with: the report keeps
	// the keys the one run keeps, with their whole counts, folded after
	// the hours are merged, not each hour by itself.
	one5, rolled5 := filepath.Join(dir, "one5.json"), filepath.Join(dir, "rolled5.json")
	if code, _, errs := runCLI(t, "--tz", "UTC", "--top", "3", "--json", one5, all); code != 0 {
		t.Fatalf("one run --top 3: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "report", "--tz", "UTC", "--top", "3", "--state", a, "--state", b, "--json", rolled5); code != 0 {
		t.Fatalf("report --top 3: exit %d: %s", code, errs)
	}
	want, got = readReport(t, one5), readReport(t, rolled5)
	for metric, w := range want.Latency {
		for dim, rows := range w.By {
			g := got.Latency[metric].By[dim]
			if len(g) != len(rows) {
				t.Errorf("--top 3: %s %s: %d keys, want %d", metric, dim, len(g), len(rows))
				continue
			}
			for i := range rows {
				if g[i].Key != rows[i].Key || g[i].Count != rows[i].Count {
					t.Errorf("--top 3: %s %s #%d: %q %d, want %q %d", metric, dim, i, g[i].Key, g[i].Count, rows[i].Key, rows[i].Count)
				}
			}
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// compareRows checks every key of want with ≥ 200 requests against got:
// the same count, quantiles within 2 %.
func compareRows(t *testing.T, what string, want, got []row) (n int) {
	t.Helper()
	byKey := map[string]row{}
	for _, r := range got {
		byKey[r.Key] = r
	}
	for _, w := range want {
		if w.Count < 200 {
			continue
		}
		g, ok := byKey[w.Key]
		if !ok || g.Count != w.Count {
			t.Errorf("%s %q: count %d, want %d", what, w.Key, g.Count, w.Count)
			continue
		}
		for _, q := range [][2]float64{{g.P50, w.P50}, {g.P95, w.P95}, {g.P99, w.P99}} {
			if math.Abs(q[0]-q[1]) > 0.02*math.Abs(q[1]) {
				t.Errorf("%s %q: %v, want %v within 2 %%", what, w.Key, q[0], q[1])
			}
		}
		n++
	}
	return n
}

// --since/--until keep exactly the hours asked for; --keep 3h leaves the
// newest three of six; several shards may share one directory.
func TestReportWindowKeepAndSharedDirectory(t *testing.T) {
	dir := t.TempDir()
	reqs := sixHours()
	st := filepath.Join(dir, "shared")
	shard(t, dir, st, reqs, 0, "--shard", "gw-a")
	shard(t, dir, st, reqs, 1, "--shard", "gw-b")
	if n := len(storedHours(t, st)); n != 12 {
		t.Fatalf("%d hour files in the shared directory, want 6 per shard: %v", n, storedHours(t, st))
	}
	from, to := hourStart.Add(2*time.Hour), hourStart.Add(4*time.Hour)
	var inWindow int64
	for _, r := range reqs {
		if !r.Time.Before(from) && r.Time.Before(to) {
			inWindow++
		}
	}
	out := filepath.Join(dir, "window.json")
	code, _, errs := runCLI(t, "report", "--tz", "UTC", "--state", st, "--since", from.Format(time.RFC3339), "--until", to.Format(time.RFC3339), "--json", out)
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if r := readReport(t, out); r.Input.Records != inWindow || len(r.Input.Files) != 4 {
		t.Errorf("window: %d records from %d files, want %d from 4", r.Input.Records, len(r.Input.Files), inWindow)
	}
	// The clock is an hour past the stored hours: --keep measures from
	// the newest, which is never taken after now.
	var errb strings.Builder
	code = run([]string{"report", "--tz", "UTC", "--state", st, "--keep", "3h", "--json", os.DevNull}, strings.NewReader(""), io.Discard, &errb,
		func() time.Time { return hourStart.Add(7 * time.Hour) })
	if errs = errb.String(); code != 0 && code != 3 {
		t.Fatalf("--keep: exit %d: %s", code, errs)
	}
	left := storedHours(t, st)
	if len(left) != 6 || !strings.HasPrefix(left[0], hourStart.Add(3*time.Hour).Format("2006-01-02T15")) {
		t.Errorf("--keep 3h left %v, want the newest three hours of both shards", left)
	}
}

// A damaged, truncated or foreign file in a state directory is named
// and skipped, and the report of the rest is written: exit 1, since
// input went unread; so is a file of a version this build does not
// know.
func TestReportSkipsDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	reqs := sixHours()
	st := filepath.Join(dir, "A")
	shard(t, dir, st, reqs, 0)
	names := storedHours(t, st)
	damage := func(name string, f func([]byte) []byte) {
		p := filepath.Join(st, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	damage(names[0], func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b })
	damage(names[1], func(b []byte) []byte { return b[:len(b)/3] })
	damage(names[2], func([]byte) []byte { return []byte("not a state file\n") })
	damage(names[3], func(b []byte) []byte { b[8] = 9; return b }) // a version this build does not know
	out := filepath.Join(dir, "r.json")
	code, _, errs := runCLI(t, "report", "--tz", "UTC", "--state", st, "--json", out)
	if code != 1 {
		t.Errorf("exit %d, want 1 for unread input: %s", code, errs)
	}
	for _, n := range names[:4] {
		if !strings.Contains(errs, n) {
			t.Errorf("stderr does not name %s: %s", n, errs)
		}
	}
	r := readReport(t, out)
	var kept int64
	for i, q := range reqs {
		h := q.Time.UTC().Truncate(time.Hour)
		if i%2 == 0 && !h.Before(hourStart.Add(4*time.Hour)) {
			kept++
		}
	}
	if r.Input.Records != kept {
		t.Errorf("%d records from the undamaged hours, want %d", r.Input.Records, kept)
	}
	// The files in the order of their hours, the skipped among them.
	var paths []string
	for _, f := range r.Input.Files {
		paths = append(paths, filepath.Base(f.Path))
	}
	if !slices.Equal(paths, names) {
		t.Errorf("files %v, want %v", paths, names)
	}
}

// report takes no logs, and needs its directories.
func TestReportUsage(t *testing.T) {
	for _, args := range [][]string{
		{"report"},
		{"report", "--state", "x", "some.log"},
		{"report", "--state", "x", "--baseline", "b.log"},
		{"report", "--state", "x", "--shard", "a"},
		{"--state", "a", "--state", "b", "x.log"},
	} {
		if code, _, errs := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2: %s", args, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "report", "--state", filepath.Join(t.TempDir(), "none")); code != 1 {
		t.Errorf("a missing state directory: exit %d, want 1: %s", code, errs)
	}
}

// smallShard stores every other request of two generated hours in st
// and returns how many it stored.
func smallShard(t *testing.T, dir, st string) int64 {
	t.Helper()
	reqs := append(genHour(5, 300, hourStart), genHour(6, 300, hourStart.Add(time.Hour))...)
	shard(t, dir, st, reqs, 0)
	return int64((len(reqs) + 1) / 2)
}

// One directory given again — with a slash, through a symbolic link — is
// read once, and the repeat is named on stderr.
func TestReportReadsADirectoryOnce(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "A")
	want := smallShard(t, dir, st)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(st, link); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	code, _, errs := runCLI(t, "report", "--tz", "UTC", "--state", st, "--state", st+"/", "--state", link, "--json", out)
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if r := readReport(t, out); r.Input.Records != want || len(r.Input.Files) != 2 {
		t.Errorf("%d records from %d files, want %d from 2", r.Input.Records, len(r.Input.Files), want)
	}
	for _, again := range []string{st + "/", link} {
		line := fmt.Sprintf("loganalyze: warning: state directory %q is %q again: read once\n", again, st)
		if !strings.Contains(errs, line) {
			t.Errorf("stderr lacks %q: %s", line, errs)
		}
	}
}

// A directory without hour files (a log directory given by mistake) is
// named: exit 1 when no directory given holds one, a warning and a
// problem of the report beside one that does. A window that selects
// none of the stored hours is still no_data, exit 0.
func TestReportDirectoryWithoutHours(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	writeHour(t, logs, "access.jsonl", genHour(3, 50, hourStart))
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runCLI(t, "report", "--state", logs)
	if want := fmt.Sprintf("loganalyze: state directory %q holds no hour files\n", logs); code != 1 || errs != want || stdout != "" {
		t.Errorf("a log directory: exit %d, stderr %q, stdout %d bytes; want 1, %q, none", code, errs, len(stdout), want)
	}
	code, _, errs = runCLI(t, "report", "--state", logs, "--state", empty)
	if code != 1 || !strings.Contains(errs, strconv.Quote(logs)) || !strings.Contains(errs, strconv.Quote(empty)) {
		t.Errorf("two directories without hours: exit %d, stderr %q; want 1 naming both", code, errs)
	}

	st := filepath.Join(dir, "A")
	want := smallShard(t, dir, st)
	out := filepath.Join(dir, "r.json")
	code, _, errs = runCLI(t, "report", "--tz", "UTC", "--state", st, "--state", logs, "--json", out)
	if line := fmt.Sprintf("loganalyze: warning: state directory %q holds no hour files\n", logs); (code != 0 && code != 3) || !strings.Contains(errs, line) {
		t.Errorf("beside a state directory: exit %d, stderr %q; want 0 or 3 and %q", code, errs, line)
	}
	var r struct {
		Input struct {
			Records  int64 `json:"records"`
			Problems []struct {
				File   string `json:"file"`
				Reason string `json:"reason"`
			} `json:"problems"`
		} `json:"input"`
		Verdict string `json:"verdict"`
	}
	b, err := os.ReadFile(out)
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.Input.Records != want || len(r.Input.Problems) != 1 || r.Input.Problems[0].File != logs {
		t.Errorf("%d records, problems %+v; want %d and %q named", r.Input.Records, r.Input.Problems, want, logs)
	}

	late := hourStart.Add(48 * time.Hour).Format(time.RFC3339)
	code, _, errs = runCLI(t, "report", "--state", st, "--since", late, "--json", out)
	if b, err = os.ReadFile(out); err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || errs != "" || r.Verdict != "no_data" || r.Input.Records != 0 {
		t.Errorf("a window of no stored hour: exit %d, stderr %q, verdict %s, %d records; want 0, none, no_data, 0", code, errs, r.Verdict, r.Input.Records)
	}
}

// TestReportBoundsKeysHoursFolded: each stored hour keeps its --top
// keys, so a key some hours folded into other has, in a report of the
// hours, the records the others kept: its count is given as a range
// (count, count_max) that holds its true count, and a key every hour
// kept has its exact count. The folded keys, summed over hours, are
// flagged an upper bound.
func TestReportBoundsKeysHoursFolded(t *testing.T) {
	dir := t.TempDir()
	reqs := sixHours()
	st := filepath.Join(dir, "st")
	shard(t, dir, st, reqs, 0, "--top", "3")
	truth := map[string]int64{}
	for i, r := range reqs {
		if i%2 == 0 {
			truth[r.AppID]++
		}
	}
	out := filepath.Join(dir, "rolled.json")
	if code, _, errs := runCLI(t, "report", "--tz", "UTC", "--top", "3", "--state", st, "--json", out); code != 0 && code != 3 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Latency map[string]struct {
			By map[string][]struct {
				Key      string `json:"key"`
				Count    int64  `json:"count"`
				CountMax *int64 `json:"count_max"`
			} `json:"by"`
			Folded map[string]struct {
				Keys       int64 `json:"keys"`
				UpperBound bool  `json:"keys_upper_bound"`
			} `json:"folded"`
		} `json:"latency"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	rt := rep.Latency["request_time"]
	rows := rt.By["client"]
	if len(rows) != 3 || len(truth) <= 3 {
		t.Fatalf("%d client rows of %d clients, want 3 of more", len(rows), len(truth))
	}
	exact, ranged, under := 0, 0, 0
	for _, r := range rows {
		want := truth[r.Key]
		if r.Count < want {
			under++
		}
		switch {
		case r.CountMax == nil && r.Count != want:
			t.Errorf("client %s: count %d without a range, it has %d", r.Key, r.Count, want)
		case r.CountMax == nil:
			exact++
		case r.Count > want || *r.CountMax < want || *r.CountMax <= r.Count:
			t.Errorf("client %s: count %d–%d, it has %d", r.Key, r.Count, *r.CountMax, want)
		default:
			ranged++
		}
	}
	if f := rt.Folded["client"]; !f.UpperBound || f.Keys < int64(len(truth)-3) {
		t.Errorf("folded clients %+v, want an upper bound of at least %d", f, len(truth)-3)
	}
	if under == 0 {
		t.Errorf("no client undercounted: the hours were made to fold some of the kept ones (%d exact, %d ranged)", exact, ranged)
	}
}

// TestCronWindowsAddUp: hourly cron runs of --since -1h start seconds
// late, and not the same seconds each hour: a run's window ends inside
// the next hour, and the next run's window starts before or after that
// end. The hour files add up to what one run over the windows' union
// reads: each record once, none of an hour's first seconds lost, none
// of a few seconds two runs both read counted twice. A run over a window
// again changes nothing.
func TestCronWindowsAddUp(t *testing.T) {
	dir := t.TempDir()
	reqs := gen.Generate(gen.Config{Seed: 5, N: 9000, Start: hourStart, Duration: 3 * time.Hour})
	log := writeHour(t, dir, "access.jsonl", reqs)
	st := filepath.Join(dir, "state")
	at := func(h, s int) string {
		return hourStart.Add(time.Duration(h)*time.Hour + time.Duration(s)*time.Second).Format(time.RFC3339)
	}
	// Starts 20 s, 15 s (its window reads 5 s the run before read), 40 s
	// (a gap of none: it starts where the run before ended) late.
	windows := [][2]string{{at(0, 20), at(1, 20)}, {at(1, 15), at(2, 15)}, {at(2, 15), at(3, 40)}, {at(1, 15), at(2, 15)}}
	for _, w := range windows {
		if code, _, errs := runCLI(t, "--tz", "UTC", "--since", w[0], "--until", w[1], "--state", st, "--json", os.DevNull, log); code != 0 && code != 3 {
			t.Fatalf("run %v: exit %d: %s", w, code, errs)
		}
	}
	from, to := hourStart.Add(20*time.Second), hourStart.Add(3*time.Hour+40*time.Second)
	var want int64
	statuses := map[string]int64{}
	for _, r := range reqs {
		if !r.Time.Before(from) && r.Time.Before(to) {
			want++
			statuses[itoa(r.Status)]++
		}
	}
	rolled := filepath.Join(dir, "rolled.json")
	if code, _, errs := runCLI(t, "report", "--tz", "UTC", "--state", st, "--json", rolled); code != 0 && code != 3 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	got := readReport(t, rolled)
	if got.Input.Records != want || !reflect.DeepEqual(got.Status, statuses) {
		t.Errorf("report: %d records, statuses %v; the windows' union holds %d, %v", got.Input.Records, got.Status, want, statuses)
	}
}

// TestReportKeepsWhatWasNotRead: a report of stored hours says what the
// runs that wrote them could not read, as their own reports did: the
// bad lines and their samples, and a file not read to its end.
func TestReportKeepsWhatWasNotRead(t *testing.T) {
	dir := t.TempDir()
	reqs := gen.Generate(gen.Config{Seed: 8, N: 3000, Start: hourStart, Duration: 2 * time.Hour})
	var buf bytes.Buffer
	bad, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{BadEvery: 100})
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(log, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(buf.Bytes())
	zw.Close()
	cut := filepath.Join(dir, "cut.jsonl.gz")
	if err := os.WriteFile(cut, gz.Bytes()[:gz.Len()*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		log        string
		incomplete bool
	}{{"bad lines", log, false}, {"a file cut short", cut, true}} {
		t.Run(c.name, func(t *testing.T) {
			st := filepath.Join(t.TempDir(), "state")
			one, rolled := filepath.Join(dir, "one.json"), filepath.Join(dir, "rolled.json")
			if code, _, errs := runCLI(t, "--tz", "UTC", "--state", st, "--json", one, c.log); code != 0 && code != 3 {
				t.Fatalf("run: exit %d: %s", code, errs)
			}
			if code, _, errs := runCLI(t, "report", "--tz", "UTC", "--state", st, "--json", rolled); code != 0 && code != 3 {
				t.Fatalf("report: exit %d: %s", code, errs)
			}
			type input struct {
				Records    int64             `json:"records"`
				BadLines   int64             `json:"bad_lines"`
				Problems   []json.RawMessage `json:"problems"`
				Incomplete bool              `json:"incomplete"`
			}
			var a, b struct {
				Input input `json:"input"`
			}
			for p, v := range map[string]any{one: &a, rolled: &b} {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(data, v); err != nil {
					t.Fatal(err)
				}
			}
			if a.Input.BadLines == 0 || a.Input.Incomplete != c.incomplete || !c.incomplete && a.Input.BadLines != int64(bad) {
				t.Fatalf("the run: %+v; want %d bad lines, incomplete %v", a.Input, bad, c.incomplete)
			}
			if b.Input.Records != a.Input.Records || b.Input.BadLines != a.Input.BadLines ||
				len(b.Input.Problems) != len(a.Input.Problems) || b.Input.Incomplete != c.incomplete {
				t.Errorf("report: %d records, %d bad lines, %d problems, incomplete %v; the run: %d, %d, %d, %v",
					b.Input.Records, b.Input.BadLines, len(b.Input.Problems), b.Input.Incomplete,
					a.Input.Records, a.Input.BadLines, len(a.Input.Problems), a.Input.Incomplete)
			}
		})
	}
}
