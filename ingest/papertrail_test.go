package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// papertrailTimeLayout is how Papertrail's log archive writes a time
// (https://help.papertrailapp.com/kb/how-it-works/permanent-log-archives/).
const papertrailTimeLayout = "2006-01-02 15:04:05 -0700"

// papertrailFields cuts a row of Papertrail's log archive into its ten
// fields, the message all after the ninth tab.
func papertrailFields(t *testing.T, row string) []string {
	t.Helper()
	f := strings.SplitN(row, "\t", 10)
	if len(f) != 10 {
		t.Fatalf("%q: %d fields, want 10", row, len(f))
	}
	return f
}

// TestPapertrailArchive: Papertrail's log archive, no header, a message
// a row of ten tab-separated fields, is read by its messages, nginx
// lines here: the first row is a record like the others, and a message
// that is no request line (nginx's error) is a bad line.
func TestPapertrailArchive(t *testing.T) {
	const path = "testdata/text/papertrail-archive.tsv"
	rows := fileLines(t, path)
	var want []row
	for _, l := range rows {
		if at, status, rt, ok := nginxTruth(papertrailFields(t, l)[9]); ok {
			want = append(want, row{timeNS: at.UnixNano(), status: status, rt: rt})
		}
	}
	checkUnwrappedNginx(t, path, ingest.EnvPapertrail, want, len(rows)-len(want))
}

// TestPapertrailArchiveTime: a JSON line of no time of its own takes
// its row's generated_at, with the zone Papertrail writes; one with its
// own keeps it; a tab within a message is kept.
func TestPapertrailArchiveTime(t *testing.T) {
	const path = "testdata/text/papertrail-archive-json.tsv"
	var want []row
	for _, l := range fileLines(t, path) {
		f := papertrailFields(t, l)
		var m struct {
			Time        string  `json:"time_iso8601"`
			Status      int64   `json:"status"`
			RequestTime float64 `json:"request_time"`
			Model       string  `json:"model"`
		}
		if err := json.Unmarshal([]byte(f[9]), &m); err != nil {
			t.Fatal(err)
		}
		at, err := time.Parse(papertrailTimeLayout, f[1])
		if err != nil {
			t.Fatal(err)
		}
		if m.Time != "" {
			if at, err = time.Parse(time.RFC3339, m.Time); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, row{timeNS: at.UnixNano(), status: m.Status, rt: m.RequestTime, model: m.Model})
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: shanghai})
	if f := res.Files[0]; f.Envelope != ingest.EnvPapertrail || f.Format != ingest.JSONL || len(got) != len(want) || res.BadLines() != 0 {
		t.Fatalf("read as %q %s: %d records, %d bad; want papertrail jsonl, %d, 0: %v", f.Envelope, f.Format, len(got), res.BadLines(), len(want), res.Problems)
	}
	sameRows(t, got, want, true)
}

// papertrailEvent is an event of Papertrail's search API
// (https://help.papertrailapp.com/kb/how-it-works/search-api/).
type papertrailEvent struct {
	ID                string `json:"id"`
	GeneratedAt       string `json:"generated_at"`
	ReceivedAt        string `json:"received_at"`
	DisplayReceivedAt string `json:"display_received_at"`
	SourceName        string `json:"source_name"`
	SourceID          int64  `json:"source_id"`
	SourceIP          string `json:"source_ip"`
	Facility          string `json:"facility"`
	Severity          string `json:"severity"`
	Program           string `json:"program"`
	Message           string `json:"message"`
}

// TestPapertrailSearch: Papertrail's search API's answer,
// {"events":[…],"min_id":…,"max_id":…}, is read by its events'
// messages, nginx lines here; a message that is no request line is a
// bad line.
func TestPapertrailSearch(t *testing.T) {
	const path = "testdata/jsondoc/papertrail-search.json"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Events []papertrailEvent }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var want []row
	for _, e := range doc.Events {
		if at, status, rt, ok := nginxTruth(e.Message); ok {
			want = append(want, row{timeNS: at.UnixNano(), status: status, rt: rt})
		}
	}
	checkUnwrappedNginx(t, path, ingest.EnvPapertrail, want, len(doc.Events)-len(want))
}

// papertrailOf returns Papertrail's event of line, the i-th, generated
// at at: its archive's row, and its search API's event.
func papertrailOf(line string, at time.Time, i int) (string, papertrailEvent) {
	row := fmt.Sprintf("%d\t%s\t%s\t42424\tgw-1\t208.122.34.202\tLocal7\tInfo\tnginx\t%s", 50342052+i,
		at.Format(papertrailTimeLayout), at.Add(time.Second).Format(papertrailTimeLayout), line)
	return row, papertrailEvent{ID: fmt.Sprint(7711582041804800 + i), GeneratedAt: at.Format(time.RFC3339Nano),
		ReceivedAt: at.Add(time.Second).Format(time.RFC3339Nano), DisplayReceivedAt: at.Format("Jan 02 15:04:05"),
		SourceName: "gw-1", SourceID: 42424, SourceIP: "208.122.34.202", Facility: "Local7", Severity: "Info", Program: "nginx", Message: line}
}

// TestPapertrailLines: the lines of several formats and sources in
// Papertrail's archive and in its search API's answer read as the lines
// alone do.
func TestPapertrailLines(t *testing.T) {
	dir := t.TempDir()
	pacific := time.FixedZone("PST", -8*3600)
	for _, src := range lineSamples {
		name := filepath.Base(src)
		var archive bytes.Buffer
		var events []papertrailEvent
		for i, l := range fileLines(t, src) {
			row, ev := papertrailOf(l, time.Date(2026, 12, 3, 18, 0, i%60, 0, pacific), i)
			archive.WriteString(row + "\n")
			events = append(events, ev)
		}
		checkAsLines(t, src, ingest.EnvPapertrail, map[string][]byte{
			filepath.Join(dir, name+".tsv"): archive.Bytes(),
			filepath.Join(dir, name+".json"): jsonOf(t, map[string]any{"events": events, "min_id": events[0].ID,
				"max_id": events[len(events)-1].ID, "reached_beginning": true}, "  "),
		})
	}
}

// TestPapertrailSearchTime: a JSON line of no time of its own takes its
// event's generated_at; one with its own keeps it.
func TestPapertrailSearchTime(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	var events []papertrailEvent
	for i, l := range timedLines {
		_, ev := papertrailOf(l, at.In(time.FixedZone("PST", -8*3600)), i)
		events = append(events, ev)
	}
	checkEnvelopeTime(t, jsonOf(t, map[string]any{"events": events}, ""), ingest.EnvPapertrail, at, time.UTC)
}
