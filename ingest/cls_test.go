package ingest_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
