package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// lokiAnswer returns lines as Loki's query_range API answers them
// ({"status":"success","data":{"resultType":"streams","result":[…]}}),
// in streams of per lines each, the i-th line's time at+i ms.
func lokiAnswer(t *testing.T, lines []string, per int, at time.Time) []byte {
	t.Helper()
	type stream struct {
		Stream map[string]string `json:"stream"`
		Values [][2]string       `json:"values"`
	}
	var result []stream
	for i, l := range lines {
		if i%per == 0 {
			result = append(result, stream{Stream: map[string]string{"app": "gw", "pod": fmt.Sprintf("gw-%d", i/per)}})
		}
		s := &result[len(result)-1]
		s.Values = append(s.Values, [2]string{fmt.Sprint(at.Add(time.Duration(i) * time.Millisecond).UnixNano()), l})
	}
	return jsonOf(t, map[string]any{"status": "success",
		"data": map[string]any{"resultType": "streams", "result": result, "stats": map[string]any{"summary": map[string]int{"totalLinesProcessed": len(lines)}}}}, "")
}

// TestLokiQueryAPI: the answer of Loki's query and query_range API (as
// curl or Grafana's inspector saves it) gives the records of the lines
// in its streams' values, as the lines alone do; pretty-printed too.
func TestLokiQueryAPI(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		name := filepath.Base(src)
		doc := lokiAnswer(t, fileLines(t, src), 7, time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC))
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, doc, "", "  "); err != nil {
			t.Fatal(err)
		}
		checkAsLines(t, src, ingest.EnvLoki, map[string][]byte{
			filepath.Join(dir, "compact-"+name+".json"): doc,
			filepath.Join(dir, "pretty-"+name+".json"):  pretty.Bytes(),
		})
	}
}

// TestLokiQueryTime: a JSON line of no time of its own takes its
// value's time (epoch ns), whatever --tz says; one with its own keeps
// it.
func TestLokiQueryTime(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	checkEnvelopeTime(t, lokiAnswer(t, timedLines, 5, at), ingest.EnvLoki, at, time.FixedZone("", 8*3600))
}
