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

// cloudLoggingEntry returns Cloud Logging's LogEntry of line, a line a
// GKE container wrote on stdout at at, as the LogEntry reference
// (https://cloud.google.com/logging/docs/reference/v2/rest/v2/LogEntry)
// and the structured logging page
// (https://cloud.google.com/logging/docs/structured-logging) describe
// it: a JSON line parsed into jsonPayload, any other in textPayload,
// which GKE writes with the line's end when withEnd.
func cloudLoggingEntry(line string, at time.Time, withEnd bool) map[string]any {
	e := map[string]any{
		"insertId": fmt.Sprintf("%x", at.UnixNano()),
		"labels":   map[string]string{"compute.googleapis.com/resource_name": "gke-node-1", "k8s-pod/app": "gw"},
		"logName":  "projects/p/logs/stdout",
		"resource": map[string]any{"type": "k8s_container", "labels": map[string]string{
			"cluster_name": "prod", "container_name": "gw", "location": "asia-east1",
			"namespace_name": "gw", "pod_name": "gw-7d9f-abcde", "project_id": "p"}},
		"severity":         "INFO",
		"timestamp":        at.Format(time.RFC3339Nano),
		"receiveTimestamp": at.Add(2 * time.Second).Format(time.RFC3339Nano),
	}
	switch {
	case strings.HasPrefix(line, "{"):
		e["jsonPayload"] = json.RawMessage(line)
	case withEnd:
		e["textPayload"] = line + "\n"
	default:
		e["textPayload"] = line
	}
	return e
}

// TestCloudLoggingEntries: Cloud Logging's entries of a container's
// lines, as gcloud logging read --format=json prints them (an indented
// array, newest first, or oldest with --order=asc) and as a sink to Cloud Storage writes them (one
// a line), give the records of the lines in their textPayload and
// jsonPayload, as the lines alone do.
func TestCloudLoggingEntries(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		name := filepath.Base(src)
		lines := fileLines(t, src)
		var entries []map[string]any
		var sink bytes.Buffer
		for i, l := range lines {
			e := cloudLoggingEntry(l, time.Date(2026, 12, 4, 2, 0, i%60, 0, time.UTC), i%2 == 0)
			entries = append(entries, e)
			writeJSONLine(t, &sink, e)
		}
		checkAsLines(t, src, ingest.EnvCloudLogging, map[string][]byte{
			filepath.Join(dir, "gcloud-"+name+".json"): jsonOf(t, entries, "  "),
			filepath.Join(dir, "sink-"+name+".json"):   sink.Bytes(),
		})
		// gcloud's order, newest first, reads as the lines in that
		// order (the first record tells a file's client).
		var newest []map[string]any
		var rev strings.Builder
		for i := len(entries) - 1; i >= 0; i-- {
			newest = append(newest, entries[i])
			rev.WriteString(lines[i] + "\n")
		}
		revDir := filepath.Join(dir, "newest")
		if err := os.MkdirAll(revDir, 0o755); err != nil {
			t.Fatal(err)
		}
		revSrc := filepath.Join(revDir, name)
		if err := os.WriteFile(revSrc, []byte(rev.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		checkAsLines(t, revSrc, ingest.EnvCloudLogging, map[string][]byte{
			filepath.Join(dir, "gcloud-newest-"+name+".json"): jsonOf(t, newest, "  "),
		})
	}
}

// TestCloudLoggingTime: a JSON line of no time of its own takes its
// entry's timestamp, in a document and in lines; one with its own
// keeps it.
func TestCloudLoggingTime(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	var entries []map[string]any
	var sink bytes.Buffer
	for _, l := range timedLines {
		e := cloudLoggingEntry(l, at, false)
		entries = append(entries, e)
		writeJSONLine(t, &sink, e)
	}
	checkEnvelopeTime(t, jsonOf(t, entries, "  "), ingest.EnvCloudLogging, at, time.UTC)
	checkEnvelopeTime(t, sink.Bytes(), ingest.EnvCloudLogging, at, time.UTC)
}

// TestCloudLoggingRequests: entries with an httpRequest (a load
// balancer's, Cloud Run's) are the gcp source's records, in lines and
// as gcloud's array, not lines within an envelope.
func TestCloudLoggingRequests(t *testing.T) {
	path := filepath.Join("testdata", "sources", "gcp.json")
	docs := readRawDocs(t, path)
	var arr bytes.Buffer
	arr.WriteString("[\n")
	for i, d := range docs {
		if i > 0 {
			arr.WriteString(",\n")
		}
		arr.Write(jsonOf(t, d, "  "))
	}
	arr.WriteString("\n]\n")
	for _, p := range []string{path, writeTemp(t, "gcloud.json", arr.String())} {
		got, res := collect(t, []string{p}, ingest.Options{Workers: 1})
		if f := res.Files[0]; f.Envelope != ingest.NoEnvelope || f.Source != "gcp" || len(got) != len(docs) || f.BadLines != 0 {
			t.Errorf("%s: envelope %q, source %q, %d records, %d bad lines; want none, gcp, %d, 0", p, f.Envelope, f.Source, len(got), f.BadLines, len(docs))
		}
	}
}
