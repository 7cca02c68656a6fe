package ingest_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestTSVDatabaseDump reads new-api's logs table as mysql -B and
// PostgreSQL's COPY write it: tab-separated, no field quoted, a JSON
// column's quotes as they are, NULL as \N. Every call is read, with its
// first response time from the JSON column, and a top-up passed over.
func TestTSVDatabaseDump(t *testing.T) {
	var b strings.Builder
	b.WriteString("id\tcreated_at\ttype\tmodel_name\ttoken_name\tuse_time\tis_stream\tother\tchannel_name\n")
	type want struct {
		rt, ttft float64 // s, ms (NaN: none)
		stream   bool
	}
	var wants []want
	for i := range 40 {
		typ, other, channel := 2, fmt.Sprintf(`{"model_ratio":2.5,"frt":%d}`, 100+i), "azure-east"
		w := want{rt: float64(1 + i%7), ttft: float64(100 + i), stream: i%2 == 0}
		if i%5 == 0 {
			other, w.ttft = `\N`, math.NaN()
		}
		if i%8 == 3 {
			channel = `\N`
		}
		if i == 17 {
			typ = 1 // a top-up
		} else {
			wants = append(wants, w)
		}
		stream := 0
		if w.stream {
			stream = 1
		}
		fmt.Fprintf(&b, "%d\t%d\t%d\tgpt-4o\tprod-key\t%d\t%d\t%s\t%s\n", i, 1795917600+i, typ, 1+i%7, stream, other, channel)
	}
	path := filepath.Join(t.TempDir(), "logs.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != len(wants) || res.BadLines() != 0 || res.Files[0].PassedOver != 1 || res.Files[0].Source != "new-api" {
		t.Fatalf("%d records, %d bad lines, %d passed over, source %q; want %d, 0, 1, new-api: %v",
			len(got), res.BadLines(), res.Files[0].PassedOver, res.Files[0].Source, len(wants), res.Problems)
	}
	for i, g := range got {
		w := wants[i]
		if g.rt != w.rt || math.IsNaN(g.ttft) != math.IsNaN(w.ttft) || !math.IsNaN(w.ttft) && g.ttft != w.ttft || g.stream != w.stream || !g.hasStream {
			t.Fatalf("record %d: %+v; want %+v", i, g, w)
		}
	}
}
