package ingest_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// undertowCombinedD is the access log pattern "combined" of Undertow
// (WildFly) with %D appended, as Apache's syntax writes it.
const undertowCombinedD = `%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-Agent}i" %D`

// An Apache LogFormat's %D is read in µs, and what its first values were
// like is kept for the report: their median is the one of the fixture's
// last fields, computed here. A --map of request_time, or a known
// format read instead, keeps none.
func TestMicroDMagnitude(t *testing.T) {
	path := filepath.Join("testdata", "text", "undertow-combined-msD.log")
	var ds []float64
	for _, l := range fixtureLines(t, path) {
		f := strings.Fields(l)
		ds = append(ds, float64(atoi(t, f[len(f)-1])))
	}
	slices.Sort(ds)

	got, res := nginxCollect(t, []string{path}, ingest.Options{LogFormats: []string{undertowCombinedD}})
	m := res.Files[0].MicroD
	if len(got) != len(ds) || m.N != len(ds) || m.Median != ds[len(ds)/2] || !m.Whole {
		t.Fatalf("%d records, MicroD %+v; want %d and N %d, median %v, whole", len(got), m, len(ds), len(ds), ds[len(ds)/2])
	}
	for i, g := range got {
		if !g.hasRT {
			t.Fatalf("record %d: no request_time", i+1)
		}
	}

	s, err := ingest.NewSchema([]string{"request_time=request_time:ms"})
	if err != nil {
		t.Fatal(err)
	}
	_, res = nginxCollect(t, []string{path}, ingest.Options{LogFormats: []string{undertowCombinedD}, Schema: s})
	if m := res.Files[0].MicroD; m.N != 0 {
		t.Errorf("with --map request_time=request_time:ms: MicroD %+v, want none", m)
	}
	_, res = nginxCollect(t, []string{filepath.Join("testdata", "text", "quarkus-console.log")},
		ingest.Options{LogFormats: []string{`%h %l %u %t "%r" %s %b %D`}})
	if f := res.Files[0]; f.Source != "quarkus" || f.MicroD.N != 0 {
		t.Errorf("Quarkus's console log: source %q, MicroD %+v; want quarkus and none", f.Source, f.MicroD)
	}
}
