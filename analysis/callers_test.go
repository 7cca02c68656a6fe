package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
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
