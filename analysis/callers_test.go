package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/state"
)

// manyCallers writes a generated hour with every problem planted, its
// requests spread over n Zipf-distributed callers (an app id and an IP
// each), more than the rules' collectors keep per caller at --top top.
func manyCallers(t *testing.T, n int, seed uint64) string {
	t.Helper()
	reqs := gen.Generate(gen.Config{Seed: seed, N: 60_000, Plants: gen.All})
	r := rand.New(rand.NewPCG(seed, 9))
	z := rand.NewZipf(r, 1.1, 1, uint64(n-1))
	for i := range reqs {
		c := z.Uint64()
		reqs[i].AppID = fmt.Sprintf("caller-%05d", c)
		reqs[i].RemoteAddr = fmt.Sprintf("10.%d.%d.%d", c>>16&255, c>>8&255, c&255)
	}
	var b bytes.Buffer
	if _, err := gen.WriteJSONL(&b, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "callers.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestManyCallersIndependentOfWorkers: with more callers than --top,
// the whole JSON report — findings and their evidence too — is the same
// bytes with 1, 2 and 5 workers; at --top 1000 every caller is kept, and
// at --top 20 the rules that judge callers say they judged a sample.
func TestManyCallersIndependentOfWorkers(t *testing.T) {
	path := manyCallers(t, 1000, 4)
	for _, top := range []int{1000, 20} {
		var first []byte
		for _, w := range []int{1, 2, 5} {
			res, err := Run(context.Background(), Config{Paths: []string{path}, Top: top,
				Ingest: ingest.Options{Workers: w, Location: time.UTC}})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := res.Report.WriteJSON(&out); err != nil {
				t.Fatal(err)
			}
			if first != nil {
				if !bytes.Equal(out.Bytes(), first) {
					t.Errorf("--top %d --workers %d: the JSON report differs from --workers 1", top, w)
				}
				continue
			}
			first = out.Bytes()
			if len(res.Report.Findings) < 4 {
				t.Fatalf("--top %d: only %d findings", top, len(res.Report.Findings))
			}
			sampled := 0
			for _, ne := range res.Report.NotEvaluated {
				if strings.Contains(ne.Reason, "judged from a hash sample") {
					sampled++
				}
			}
			if want := map[int]int{1000: 0, 20: 4}[top]; sampled != want {
				t.Errorf("--top %d: %d rules say they judged a sample of callers, want %d: %v", top, sampled, want, res.Report.NotEvaluated)
			}
		}
	}
}

// TestStateRunSameWindow: with --state the window is the sum of its
// hours, and an hour dropped past MaxHours is added to it as it is
// dropped. On a log of 30 hours, some records without a time and some
// out of place, with many callers, the JSON report is the one a run
// without --state writes, but for what the state adds: the reason
// latency_regression has, and the note of the hours not kept.
func TestStateRunSameWindow(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 8, N: 40_000, Duration: 30 * time.Hour, Plants: gen.All})
	r := rand.New(rand.NewPCG(8, 8))
	z := rand.NewZipf(r, 1.1, 1, 2999)
	for i := range reqs {
		c := z.Uint64()
		reqs[i].AppID = fmt.Sprintf("caller-%05d", c)
		reqs[i].RemoteAddr = fmt.Sprintf("10.%d.%d.%d", c>>16&255, c>>8&255, c&255)
	}
	for range len(reqs) / 50 { // out of place, by up to a day
		i, j := r.IntN(len(reqs)), r.IntN(len(reqs))
		reqs[i], reqs[j] = reqs[j], reqs[i]
	}
	var b bytes.Buffer
	if _, err := gen.WriteJSONL(&b, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b.Bytes(), []byte("\n"))
	for i := 0; i < len(lines); i += 37 { // no time
		lines[i] = bytes.Replace(lines[i], []byte(`"time":`), []byte(`"when":`), 1)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "30h.jsonl")
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	report := func(state string, workers, top int) []byte {
		res, err := Run(context.Background(), Config{Paths: []string{path}, StateDir: state, Top: top,
			Ingest: ingest.Options{Workers: workers, Location: time.UTC}})
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Report
		if state != "" {
			if len(rep.Input.Problems) != 1 || !strings.Contains(rep.Input.Problems[0].Reason, "more than 25 hours") {
				t.Fatalf("problems %v, want the note of the hours not kept", rep.Input.Problems)
			}
			rep.Input.Problems = nil
			for i, ne := range rep.NotEvaluated {
				if ne.Rule == "latency_regression" {
					rep.NotEvaluated[i].Reason = "needs --state"
				}
			}
		}
		var out bytes.Buffer
		if err := rep.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	for _, top := range []int{1000, 20} {
		want := report("", 1, top)
		for _, w := range []int{1, 3} {
			if got := report(filepath.Join(dir, fmt.Sprint("state", top, w)), w, top); !bytes.Equal(got, want) {
				t.Errorf("--top %d --workers %d: the report with --state differs from the one without", top, w)
			}
		}
	}
}

// TestStateRegressionAcrossHours: latency_regression gathers its pairs
// from every record of the window while the hours gather the rest; its
// findings, over a window of two hours whose combinations the hours
// number alike, are those of a window accumulated whole, as it was
// before it was the sum of its hours.
func TestStateRegressionAcrossHours(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	prev := writeHour(t, dir, "h9.jsonl", genHour(3, 6000, hourStart))
	cur := writeHour(t, dir, "h10.jsonl", gen.Generate(gen.Config{Seed: 4, N: 12000, Start: hourStart.Add(90 * time.Minute),
		Slow: gen.Slow{Region: "ap-beijing", Factor: 4}}))
	if _, err := Run(context.Background(), Config{StateDir: st, Paths: []string{prev}}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 3} {
		cfg := Config{StateDir: st, Paths: []string{cur}, Ingest: ingest.Options{Workers: w, Location: time.UTC}}
		// The window accumulated whole, its hours apart, before the
		// run below writes them.
		rcfg, m, err := settings(cfg.Rules, &cfg.Top, &cfg.Accuracy)
		if err != nil {
			t.Fatal(err)
		}
		opts := aggregateOptions(cfg, m, rcfg)
		opts.Collectors = rcfg.SharedCollectors(m, cfg.Top, true)
		accs, _, err := ingest.Run(cfg.Paths, cfg.Ingest, func() *aggregate.Accumulator { return aggregate.New(opts) })
		if err != nil {
			t.Fatal(err)
		}
		whole := aggregate.MergeAll(accs)
		d, err := state.OpenShard(st, "")
		if err != nil {
			t.Fatal(err)
		}
		whole.History, _ = loadHistory(d, whole, nil, aggregate.Options{Mapping: m, Top: cfg.Top}, rcfg.CollectorNames())
		d.Close()
		want, _ := rules.Evaluate(whole, rcfg)

		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got, wantR []rules.Finding
		for _, f := range want {
			if f.Rule == rules.RuleRegression {
				wantR = append(wantR, f)
			}
		}
		for _, f := range res.Report.Findings {
			if f.Rule == rules.RuleRegression {
				got = append(got, f)
			}
		}
		if len(wantR) == 0 || !reflect.DeepEqual(got, wantR) {
			t.Errorf("--workers %d: latency_regression from the hours:\n%v\nfrom the whole window:\n%v", w, got, wantR)
		}
	}
}
