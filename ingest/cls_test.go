package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// TestCLSRecords reads TokenHub's records as Tencent Cloud CLS hands them
// out of a search (the SearchLog API's answer, its Results alone, and
// its results one a line: each record the JSON object in a LogJson
// string, its time Time in ms) and as CLS keeps a log collected as full
// text (the line in __CONTENT__, or in a search result's LogJson as
// {"__CONTENT__":"LINE"}): the same records as the JSON lines and the
// nginx text they hold.
func TestCLSRecords(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var plain, lines, text, content, ftLines strings.Builder
	var results, ftResults []map[string]any
	for i := range 20 {
		ms := int64(1795917600000 + i*1500)
		rec := map[string]any{"app_id": fmt.Sprintf("app-%d", i%3), "model": "hunyuan-lite", "status": "200",
			"request_time": fmt.Sprintf("%.3f", 0.2+float64(i)/7), "__TAG__": map[string]string{"region": "ap-shanghai"}}
		inner, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		rec["__TIMESTAMP__"] = fmt.Sprint(ms)
		b, _ := json.Marshal(rec)
		plain.Write(append(b, '\n'))
		res := map[string]any{"Time": ms, "TopicId": "a1b2", "TopicName": "tokenhub-access", "Source": "10.0.0.1",
			"PkgId": "D65F", "PkgLogId": "65536", "HighLights": []string{}, "LogJson": string(inner), "HostName": "gw-7", "RawLog": ""}
		results = append(results, res)
		b, _ = json.Marshal(res)
		lines.Write(append(b, '\n'))
		at := time.UnixMilli(ms).In(time.FixedZone("", 8*3600)).Format("02/Jan/2006:15:04:05 -0700")
		line := fmt.Sprintf(`10.0.0.%d - - [%s] "POST /v1/chat/completions HTTP/1.1" 200 12 "-" "curl/8" %.3f 0.100`, i, at, 0.2+float64(i)/7)
		text.WriteString(line + "\n")
		b, _ = json.Marshal(map[string]string{"__CONTENT__": line, "__SOURCE__": "10.0.0.1", "__FILENAME__": "/var/log/gw/access.log",
			"__TIMESTAMP__": fmt.Sprint(ms), "__TAG__.pod_name": "gw-6"})
		content.Write(append(b, '\n'))
		// A full-text topic's search result: its LogJson holds the line
		// under __CONTENT__, its source and file the result's own.
		inner, _ = json.Marshal(map[string]string{"__CONTENT__": line})
		ft := map[string]any{"Time": ms, "TopicId": "c3d4", "TopicName": "gw-access", "Source": "10.0.0.1",
			"FileName": "/var/log/gw/access.log", "PkgId": "D660", "PkgLogId": "65537", "HighLights": []string{}, "LogJson": string(inner)}
		ftResults = append(ftResults, ft)
		b, _ = json.Marshal(ft)
		ftLines.Write(append(b, '\n'))
	}
	response, _ := json.MarshalIndent(map[string]any{"Response": map[string]any{"Context": "x", "ListOver": true, "Analysis": false,
		"ColNames": []string{}, "Results": results, "RequestId": "r-1"}}, "", "  ")
	array, _ := json.MarshalIndent(results, "", " ")
	opts := ingest.Options{Workers: 2, Location: time.UTC}
	want, wres := collect(t, []string{write("plain.jsonl", plain.String())}, opts)
	if len(want) != 20 || wres.BadLines() != 0 {
		t.Fatalf("plain: %d records, %v", len(want), wres.Problems)
	}
	for name, doc := range map[string]string{"response.json": string(response), "results.json": string(array), "results.jsonl": lines.String()} {
		got, res := collect(t, []string{write(name, doc)}, opts)
		if res.BadLines() != 0 || res.Files[0].Source != "tokenhub" || res.Files[0].Envelope != ingest.EnvCLS ||
			fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
			t.Errorf("%s: source %q, envelope %q, %d records, %v; want the plain file's %+v, got %+v",
				name, res.Files[0].Source, res.Files[0].Envelope, len(got), res.Problems, want[0], got)
		}
	}
	wantText, tres := collect(t, []string{write("plain.log", text.String())}, opts)
	if len(wantText) != 20 || tres.BadLines() != 0 {
		t.Fatalf("plain text: %d records, %v", len(wantText), tres.Problems)
	}
	ftResponse, _ := json.MarshalIndent(map[string]any{"Response": map[string]any{"Context": "y", "ListOver": true,
		"Results": ftResults, "RequestId": "r-2"}}, "", "  ")
	for name, doc := range map[string]string{"content.jsonl": content.String(), "fulltext-response.json": string(ftResponse),
		"fulltext-results.jsonl": ftLines.String()} {
		got, res := collect(t, []string{write(name, doc)}, opts)
		if res.BadLines() != 0 || res.Files[0].Envelope != ingest.EnvCLS || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", wantText) {
			t.Errorf("%s: envelope %q, %d records, %v; want the text's %d", name, res.Files[0].Envelope, len(got), res.Problems, len(wantText))
		}
	}
}

// stampedRecord is a record of testdata/cls/stamped.jsonl as encoding/json
// reads it: CLS's __TIMESTAMP__ (epoch ms) beside the log's own time,
// one of them or both, and which of the two the record's time is.
type stampedRecord struct {
	stamp, own         time.Time // zero when absent
	ownName, ownText   string
	rt                 float64
	expect, stampText  string
	request, status    string
	timestamp, started string
}

// stampedRecords reads a fixture of testdata/cls with encoding/json and
// time.Parse, an own time written without its zone in zone, and the
// time each record's should be: the one its expect names.
func stampedRecords(t *testing.T, name string, zone *time.Location) ([]stampedRecord, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "cls", name))
	if err != nil {
		t.Fatal(err)
	}
	layouts := map[string][]string{"time_local": {"02/Jan/2006:15:04:05 -0700"}, "timestamp": {time.RFC3339Nano, time.DateTime},
		"start_time": {"2006-01-02 15:04:05Z07:00"}}
	var out []stampedRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		// A typed export's numbers as their text.
		var typed map[string]any
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&typed); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for k, v := range typed {
			m[k] = fmt.Sprint(v)
		}
		var s stampedRecord
		if v, ok := m["__TIMESTAMP__"]; ok {
			ms, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			s.stamp, s.stampText = time.UnixMilli(ms), v
		}
		for name, ls := range layouts {
			v, ok := m[name]
			if !ok {
				continue
			}
			for _, layout := range ls {
				if s.own, err = time.ParseInLocation(layout, v, zone); err == nil {
					break
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			s.ownName, s.ownText = name, v
		}
		if s.rt, err = strconv.ParseFloat(m["request_time"], 64); err != nil {
			t.Fatal(err)
		}
		s.expect, s.request, s.status = m["expect"], m["request"], m["status"]
		out = append(out, s)
	}
	return out, data
}

// want returns the time the record's should be, in Unix ns.
func (s stampedRecord) want(t *testing.T) int64 {
	switch {
	case s.expect == "stamp" && !s.stamp.IsZero():
		return s.stamp.UnixNano()
	case s.expect == "own" && !s.own.IsZero():
		return s.own.UnixNano()
	}
	t.Fatalf("fixture: record of request_time %v expects %q", s.rt, s.expect)
	return 0
}

// checkStamped asserts that rows, read from the fixture's records, have
// the times their records expect.
func checkStamped(t *testing.T, name string, recs []stampedRecord, rows []row, res *ingest.Result) {
	t.Helper()
	if res.BadLines() != 0 || len(rows) != len(recs) {
		t.Fatalf("%s: %d records of %d, %d bad: %v", name, len(rows), len(recs), res.BadLines(), res.Problems)
	}
	byRT := map[float64]row{}
	for _, r := range rows {
		byRT[r.rt] = r
	}
	for _, s := range recs {
		r, ok := byRT[s.rt]
		if want := s.want(t); !ok || !r.hasTime || r.timeNS != want {
			t.Errorf("%s: record of %s %q and __TIMESTAMP__ %q: time %v, want the %s's %v",
				name, s.ownName, s.ownText, s.stampText, time.Unix(0, r.timeNS).UTC(), s.expect, time.Unix(0, want).UTC())
		}
	}
}

// TestCLSStampTime reads CLS's time of a log (__TIMESTAMP__) beside the
// log's own: the own time to the second with CLS's within that second
// (CLB's logs shipped to CLS) takes CLS's milliseconds; CLS's time
// seconds to minutes after it, its agent's time of collection, or
// before it, or any CLS time beside an own time to the ms, leaves the
// own; a record with one of them has it. As JSON lines, CSV and
// Parquet, CLS's time an integer or a timestamp column.
func TestCLSStampTime(t *testing.T) {
	recs, jsonl := stampedRecords(t, "stamped.jsonl", time.UTC)
	dir := t.TempDir()
	opts := ingest.Options{Workers: 2, Location: time.UTC}
	path := filepath.Join(dir, "stamped.jsonl")
	if err := os.WriteFile(path, jsonl, 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, opts)
	checkStamped(t, "JSON lines", recs, rows, res)

	// A time --map names is the time, CLS's beside it or not.
	mapped, err := ingest.NewSchema([]string{"time=time_local"})
	if err != nil {
		t.Fatal(err)
	}
	rows, res = collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC, Schema: mapped})
	byRT := map[float64]row{}
	for _, r := range rows {
		byRT[r.rt] = r
	}
	for _, s := range recs {
		if r := byRT[s.rt]; s.ownName == "time_local" && (!r.hasTime || r.timeNS != s.own.UnixNano()) {
			t.Errorf("--map time=time_local: record of time_local %q and __TIMESTAMP__ %q: time %v, want %v",
				s.ownText, s.stampText, time.Unix(0, r.timeNS).UTC(), s.own.UTC())
		}
	}

	// CLS's CSV export: the same columns in every row, an absent value
	// empty.
	var csv strings.Builder
	csv.WriteString("__TIMESTAMP__,time_local,timestamp,start_time,request,status,request_time\n")
	for _, s := range recs {
		own := map[string]string{s.ownName: s.ownText}
		fmt.Fprintf(&csv, "%s,%s,%s,%s,%s,%s,%v\n", s.stampText, own["time_local"], own["timestamp"], own["start_time"], s.request, s.status, s.rt)
	}
	path = filepath.Join(dir, "stamped.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res = collect(t, []string{path}, opts)
	checkStamped(t, "CSV", recs, rows, res)

	type pqRecord struct {
		Stamp       *int64  `parquet:"__TIMESTAMP__,optional"`
		TimeLocal   *string `parquet:"time_local,optional"`
		Timestamp   *string `parquet:"timestamp,optional"`
		StartTime   *string `parquet:"start_time,optional"`
		Request     string  `parquet:"request"`
		Status      int64   `parquet:"status"`
		RequestTime float64 `parquet:"request_time"`
	}
	type pqInstant struct {
		Stamp       *int64  `parquet:"__TIMESTAMP__,optional,timestamp(millisecond)"`
		TimeLocal   *string `parquet:"time_local,optional"`
		Timestamp   *string `parquet:"timestamp,optional"`
		StartTime   *string `parquet:"start_time,optional"`
		Request     string  `parquet:"request"`
		Status      int64   `parquet:"status"`
		RequestTime float64 `parquet:"request_time"`
	}
	var pq []pqRecord
	for _, s := range recs {
		r := pqRecord{Request: s.request, RequestTime: s.rt}
		r.Status, _ = strconv.ParseInt(s.status, 10, 64)
		if !s.stamp.IsZero() {
			ms := s.stamp.UnixMilli()
			r.Stamp = &ms
		}
		text := s.ownText
		switch s.ownName {
		case "time_local":
			r.TimeLocal = &text
		case "timestamp":
			r.Timestamp = &text
		case "start_time":
			r.StartTime = &text
		}
		pq = append(pq, r)
	}
	for _, c := range []struct {
		name, file string
		write      func(*bytes.Buffer) error
	}{
		{"Parquet, __TIMESTAMP__ INT64", "stamped-int.parquet", func(b *bytes.Buffer) error {
			w := parquet.NewGenericWriter[pqRecord](b)
			if _, err := w.Write(pq); err != nil {
				return err
			}
			return w.Close()
		}},
		{"Parquet, __TIMESTAMP__ TIMESTAMP", "stamped-instant.parquet", func(b *bytes.Buffer) error {
			w := parquet.NewGenericWriter[pqInstant](b)
			for _, r := range pq {
				if _, err := w.Write([]pqInstant{pqInstant(r)}); err != nil {
					return err
				}
			}
			return w.Close()
		}},
	} {
		var b bytes.Buffer
		if err := c.write(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, c.file)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		rows, res := collect(t, []string{path}, opts)
		checkStamped(t, c.name, recs, rows, res)
	}
}

// TestCLSStampZone reads a log's own times written without their zone
// beside CLS's time of each, seconds to a minute after it (its agent's
// time of collection) or within its second: the own times are read in
// the zone CLS's tell, +08:00 (epochZone), not in --tz's UTC.
func TestCLSStampZone(t *testing.T) {
	recs, _ := stampedRecords(t, "stamped-zoneless.jsonl", time.FixedZone("CST", 8*3600))
	rows, res := collect(t, []string{filepath.Join("testdata", "cls", "stamped-zoneless.jsonl")}, ingest.Options{Workers: 1, Location: time.UTC})
	checkStamped(t, "zoneless", recs, rows, res)
	if res.Files[0].Zone != "UTC+08:00" {
		t.Errorf("zone %q, want UTC+08:00", res.Files[0].Zone)
	}
}
