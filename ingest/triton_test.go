package ingest_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// tritonWant reads a Triton trace file with encoding/json and returns
// each client's request in it (model, request time in s, by time), the
// number of traces that never complete and those of composing models,
// by trace.md's schema: the frontend's time, HTTP_RECV_START to
// HTTP_SEND_END or GRPC_WAITREAD_END to GRPC_SEND_END, else the core's.
func tritonWant(t *testing.T, doc []byte) (reqs []row, open, children int) {
	t.Helper()
	var objs []struct {
		ID         uint64 `json:"id"`
		Model      string `json:"model_name"`
		Parent     uint64 `json:"parent_id"`
		Timestamps []struct {
			Name string `json:"name"`
			NS   int64  `json:"ns"`
		} `json:"timestamps"`
	}
	if err := json.Unmarshal(doc, &objs); err != nil {
		t.Fatal(err)
	}
	type trace struct {
		model  string
		parent uint64
		ns     map[string]int64
	}
	traces := map[uint64]*trace{}
	var ids []uint64
	for _, o := range objs {
		tr := traces[o.ID]
		if tr == nil {
			tr = &trace{ns: map[string]int64{}}
			traces[o.ID] = tr
			ids = append(ids, o.ID)
		}
		if o.Model != "" {
			tr.model, tr.parent = o.Model, o.Parent
		}
		for _, s := range o.Timestamps {
			tr.ns[s.Name] = s.NS
		}
	}
	for _, id := range ids {
		tr := traces[id]
		span := func(a, b string) (float64, bool) {
			s, ok1 := tr.ns[a]
			e, ok2 := tr.ns[b]
			return float64(e-s) / 1e9, ok1 && ok2
		}
		switch rt, http := span("HTTP_RECV_START", "HTTP_SEND_END"); {
		case tr.parent != 0:
			children++
		case http:
			reqs = append(reqs, row{model: tr.model, rt: rt})
		default:
			if rt, ok := span("GRPC_WAITREAD_END", "GRPC_SEND_END"); ok {
				reqs = append(reqs, row{model: tr.model, rt: rt})
			} else if _, recv := tr.ns["HTTP_RECV_START"]; recv {
				open++
			} else if rt, ok := span("REQUEST_START", "REQUEST_END"); ok {
				reqs = append(reqs, row{model: tr.model, rt: rt})
			} else {
				open++
			}
		}
	}
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].rt < reqs[j].rt })
	return reqs, open, children
}

// TestTritonTrace reads Triton's trace file as the server writes it (a
// compact array on one line), pretty-printed, and with its objects in
// the reverse order: each traced request is one record of its model and
// its time, with no wall time; a composing model's trace is passed over
// and a request received and never answered is a bad line.
func TestTritonTrace(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("testdata", "sources", "triton-trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, open, children := tritonWant(t, doc)
	if len(want) != 6 || open != 1 || children != 1 {
		t.Fatalf("the fixture holds %d requests, %d open, %d children; want 6, 1, 1", len(want), open, children)
	}
	// Trace 1 is trace.md's example: 2356425057712991 − 2356425054587444 ns.
	if i := slices.IndexFunc(want, func(r row) bool { return r.model == "simple" && r.rt < 0.01 }); i < 0 || math.Abs(want[i].rt-0.003125547) > 1e-12 {
		t.Fatalf("the oracle misses trace.md's example: %v", want)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(doc, &raw); err != nil {
		t.Fatal(err)
	}
	pretty, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(raw)
	reversed, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"compact": string(doc), "pretty": string(pretty), "reversed": string(reversed)} {
		t.Run(name, func(t *testing.T) {
			got, res := collect(t, []string{writeTemp(t, "trace.json", text)}, ingest.Options{Workers: 2, Location: time.UTC})
			fs := res.Files[0]
			if fs.Source != "triton" || len(got) != len(want) || fs.BadLines != int64(open) || fs.PassedOver != int64(children) {
				t.Fatalf("source %q, %d records, %d bad, %d passed over %v; want triton, %d, %d, %d",
					fs.Source, len(got), fs.BadLines, fs.PassedOver, res.Problems, len(want), open, children)
			}
			if !strings.Contains(res.Problems[0].Reason, "trace 8 never completes") {
				t.Errorf("problem %q; want trace 8's", res.Problems[0].Reason)
			}
			for i, w := range want {
				g := got[i]
				if g.hasTime || g.model != w.model || math.Abs(g.rt-w.rt) > 1e-9 {
					t.Errorf("request %d: model %q, request_time %v s, time %v; want %q, %v s, none", i, g.model, g.rt, g.hasTime, w.model, w.rt)
				}
			}
		})
	}
}
