package ingest_test

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestTraefikTrimmedJSON reads a Traefik JSON log that keeps few fields
// (fields.defaultMode drop, Duration, the request's names, ClientHost and
// OriginStatus kept): it is Traefik's, its Duration nanoseconds, its
// status OriginStatus; with DownstreamStatus kept too, that is the
// status.
func TestTraefikTrimmedJSON(t *testing.T) {
	lines := []string{
		`{"ClientHost":"10.0.0.1","Duration":1436800000,"OriginStatus":200,"RequestHost":"api.example.com","RequestMethod":"POST","RequestPath":"/v1/chat/completions"}`,
		`{"ClientHost":"10.0.0.2","Duration":250000000,"OriginStatus":502,"RequestHost":"api.example.com","RequestMethod":"POST","RequestPath":"/v1/models"}`,
		`{"ClientHost":"10.0.0.3","Duration":9000000,"OriginStatus":0,"DownstreamStatus":499,"RequestHost":"api.example.com","RequestMethod":"POST","RequestPath":"/v1/models"}`,
	}
	got, res := collect(t, []string{writeTemp(t, "traefik.json", strings.Join(lines, "\n")+"\n")}, ingest.Options{Workers: 1, Location: time.UTC})
	if fs := res.Files[0]; fs.Source != "traefik" || len(got) != 3 || fs.BadLines != 0 {
		t.Fatalf("source %q, %d records, %d bad; want traefik, 3, 0", fs.Source, len(got), fs.BadLines)
	}
	// Without times, the records come in no order: by request_time.
	slices.SortFunc(got, func(a, b row) int { return cmp.Compare(a.rt, b.rt) })
	for i, w := range []struct {
		rt     float64
		status int64
		uri    string
	}{{0.009, 499, "/v1/models"}, {0.25, 502, "/v1/models"}, {1.4368, 200, "/v1/chat/completions"}} {
		g := got[i]
		if math.Abs(g.rt-w.rt) > 1e-9 || g.status != w.status || g.uri != w.uri {
			t.Errorf("row %d: %v s, status %d, %q; want %v s, %d, %q", i, g.rt, g.status, g.uri, w.rt, w.status, w.uri)
		}
	}
}
