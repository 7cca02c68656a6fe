package ingest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

// TestTritonPairerBounded: with room for two open traces, a trace whose
// objects come after two others' is closed before its end, a bad line,
// and its end is then a trace of no start, another; the traces written
// together are read whole.
func TestTritonPairerBounded(t *testing.T) {
	objs := []string{
		`{"id":1,"timestamps":[{"name":"HTTP_RECV_START","ns":1000}]}`,
		`{"id":2,"model_name":"a","model_version":1}`,
		`{"id":2,"timestamps":[{"name":"REQUEST_START","ns":5000}]}`,
		`{"id":2,"timestamps":[{"name":"REQUEST_END","ns":9000}]}`,
		`{"id":3,"timestamps":[{"name":"REQUEST_START","ns":6000},{"name":"REQUEST_END","ns":6500}]}`,
		`{"id":1,"timestamps":[{"name":"HTTP_SEND_END","ns":4000}]}`,
	}
	p := newTritonPairer(2)
	var recs []string
	var bads []string
	done := func(tr *tritonTrace) {
		rec, passed, bad := p.record(tr)
		switch {
		case passed:
			t.Errorf("trace %d passed over", tr.id)
		case bad != "":
			bads = append(bads, strconv.FormatUint(tr.id, 10))
		default:
			recs = append(recs, string(rec))
		}
	}
	for i, o := range objs {
		if bad := p.add([]byte(o), int64(i+1), done); bad != "" {
			t.Fatalf("object %d: %s", i+1, bad)
		}
	}
	p.drain(done)
	// Trace 1 is closed by trace 3's opening, its start alone; then
	// trace 2 and 3 whole, and trace 1's end alone at the end.
	wantRecs := []string{
		`{"triton_trace":2,"model_name":"a","triton_request_ns":4000}`,
		`{"triton_trace":3,"triton_request_ns":500}`,
	}
	if len(bads) != 2 || bads[0] != "1" || bads[1] != "1" || len(recs) != 2 || recs[0] != wantRecs[0] || recs[1] != wantRecs[1] {
		t.Fatalf("records %q, bad traces %v; want %q, [1 1]", recs, bads, wantRecs)
	}
	for _, r := range recs {
		if !json.Valid([]byte(r)) {
			t.Errorf("record %s is no JSON", r)
		}
	}
}

// FuzzTritonPairer: no object, however malformed, panics the pairer,
// and every record it makes is JSON of its two names.
func FuzzTritonPairer(f *testing.F) {
	f.Add([]byte(`{"id":1,"model_name":"m\"x","model_version":1,"parent_id":0}` + "\n" + `{"id":1,"timestamps":[{"name":"HTTP_RECV_START","ns":1},{"name":"HTTP_SEND_END","ns":9}]}`))
	f.Add([]byte(`{"id":2,"timestamps":[{"name":"REQUEST_END","ns":1},{"name":"REQUEST_START","ns":9}]}` + "\n" + `{"id":3,"activity":"TENSOR_QUEUE_INPUT","tensor":{}}`))
	f.Add([]byte(`{"id":18446744073709551616,"timestamps":[]}` + "\n" + `{"id":4,"model_name":"e","model_version":1,"parent_id":2}` + "\n" + `{"id":5,"timestamps":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := newTritonPairer(3)
		done := func(tr *tritonTrace) {
			rec, passed, bad := p.record(tr)
			if rec == nil {
				if !passed && bad == "" {
					t.Fatalf("trace %d: no record, no reason", tr.id)
				}
				return
			}
			var v map[string]any
			if err := json.Unmarshal(rec, &v); err != nil {
				t.Fatalf("record %q: %v", rec, err)
			}
			if ns, ok := v[tritonNsName].(float64); !ok || ns < 0 {
				t.Fatalf("record %q: no request time", rec)
			}
		}
		for i, line := range bytes.Split(data, []byte{'\n'}) {
			_ = tritonObject(line)
			_ = p.add(line, int64(i+1), done)
		}
		p.drain(done)
		if p.n != 0 || len(p.open) != 0 {
			t.Fatalf("%d traces open after the end", p.n)
		}
	})
}
