package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestFieldCoverage checks input.fields against counts made while
// writing records that carry each field at random.
func TestFieldCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	// source name → canonical field
	optional := []struct{ source, field string }{
		{"request_time", "request_time"}, {"upstream_response_time", "upstream_response_time"},
		{"ttft_ms", "ttft"}, {"model", "model"}, {"status", "status"}, {"region", "region"}, {"stream", "stream"},
	}
	want := map[string]int64{}
	var b bytes.Buffer
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	const n = 500
	for i := range n {
		rec := map[string]any{"time": start.Add(time.Duration(i) * time.Second).Format(time.RFC3339)}
		want["time"]++
		for _, o := range optional {
			if rng.IntN(3) == 0 {
				continue
			}
			switch o.field {
			case "model", "region":
				rec[o.source] = "x"
			case "stream":
				rec[o.source] = true
			case "status":
				rec[o.source] = 200
			default:
				rec[o.source] = 0.1 + rng.Float64()
			}
			want[o.field]++
		}
		line, _ := json.Marshal(rec)
		b.Write(line)
		b.WriteByte('\n')
	}
	r := buildFrom(t, b.Bytes(), nil, 3, 1000, nil)

	var order []string
	for f := ingest.Field(0); f < ingest.NumFields; f++ {
		if want[f.String()] > 0 {
			order = append(order, f.String())
		}
	}
	var got []string
	for _, fc := range r.Input.Fields {
		got = append(got, fc.Field)
		if fc.Count != want[fc.Field] {
			t.Errorf("%s: %d records, want %d", fc.Field, fc.Count, want[fc.Field])
		}
	}
	if strings.Join(got, " ") != strings.Join(order, " ") {
		t.Errorf("fields %v, want %v in canonical order", got, order)
	}
	// The JSON keeps that order and those counts.
	js := render(t, r, "json")
	dec := json.NewDecoder(bytes.NewReader(js))
	var doc struct {
		Input struct {
			Fields json.RawMessage `json:"fields"`
		} `json:"input"`
	}
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var counts map[string]int64
	if err := json.Unmarshal(doc.Input.Fields, &counts); err != nil {
		t.Fatal(err)
	}
	for _, f := range order {
		if counts[f] != want[f] {
			t.Errorf("JSON fields.%s = %d, want %d", f, counts[f], want[f])
		}
	}
	if len(counts) != len(order) {
		t.Errorf("JSON fields %v, want only %v", counts, order)
	}
}

func TestCoverageNoteBesideTheNumbers(t *testing.T) {
	r := buildFrom(t, fewLatencies(true), nil, 1, 1000, nil)
	const note = "request_time: from 1 of 14 records"
	if r.NoData != nil {
		t.Fatalf("no_data with a record carrying request_time")
	}
	md := string(render(t, r, "md"))
	if !strings.Contains(md, "### request_time\n\n*`request_time`: from 1 of 14 records; the others do not carry it.*\n") {
		t.Errorf("Markdown lacks %q under its heading:\n%s", note, md)
	}
	page := string(render(t, r, "html"))
	if !strings.Contains(page, "· max 60000 · "+note+"</span></summary>") || !strings.Contains(page, "<span>coverage</span><b>"+note+"</b>") {
		t.Errorf("HTML lacks %q next to the numbers", note)
	}
	// The verdict, judged on the one, says so where it is given.
	if !strings.Contains(md, "; 14 requests, 1 of them with a request_time, ") {
		t.Errorf("Markdown's verdict line does not say how many requests it judged:\n%s", md)
	}
	if !strings.Contains(page, "1 of 14 requests with a request_time") {
		t.Errorf("HTML's headline does not say how many requests it judged")
	}
	// All records carry it: no note.
	r = buildFrom(t, fewLatencies(false), nil, 1, 1000, nil)
	if md := string(render(t, r, "md")); strings.Contains(md, "the others do not carry it") || strings.Contains(md, "with a request_time") {
		t.Errorf("a note with every record carrying request_time")
	}
}
