package ingest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// writeFiles writes each file of files (a path below dir, its text),
// making its directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// jsonLines returns n JSON-lines records of request_time 0.5 s, status
// 200, their times a second apart from second from.
func jsonLines(n, from int) string {
	var b strings.Builder
	for i := range n {
		rec, _ := json.Marshal(map[string]any{"time": 1796349600 + from + i, "request_time": 0.5, "status": 200, "model": "m"})
		b.Write(rec)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestJobOutputDirectories: a directory a Spark or Databricks job
// wrote, or Athena's results, read as those tools read it: the data
// files alone, not the job's markers (_SUCCESS, which Hadoop's S3A
// committer writes as a JSON summary of the job; Databricks' _started_
// and _committed_), an attempt's parts under _temporary, Athena's
// binary X.metadata beside X, nor, in a Databricks directory, the parts
// of a transaction that was not committed. A glob takes what it
// matches but names that begin with "_" or ".", as Hadoop's readers.
func TestJobOutputDirectories(t *testing.T) {
	dir := t.TempDir()
	const tid, aborted = "1445363681616962640", "4856957380441106266"
	part := func(i, tx string) string {
		return "part-0000" + i + "-tid-" + tx + "-1818e811-892f-902b-d23f-0824128b2f33-10" + i + "-1-c000.json"
	}
	committed, _ := json.Marshal(map[string][]string{"added": {part("0", tid), part("1", tid)}, "removed": {}})
	writeFiles(t, dir, map[string]string{
		"spark/part-00000-6513270e-c000.json":      jsonLines(30, 0),
		"spark/part-00001-6513270e-c000.json":      jsonLines(20, 30),
		"spark/.part-00000-6513270e-c000.json.crc": "crc",
		"spark/_SUCCESS": `{"name":"org.apache.hadoop.fs.s3a.commit.files.SuccessData/1","timestamp":1796353200123,` +
			`"date":"Fri Dec 04 03:00:00 UTC 2026","hostname":"h","committer":"magic","description":"","filenames":["/part-00000-6513270e-c000.json"]}`,
		"spark/_temporary/0/_temporary/attempt_202612040300_0001_m_000000_1/part-00000-6513270e-c000.json": jsonLines(10, 0),
		"databricks/" + part("0", tid):      jsonLines(40, 0),
		"databricks/" + part("1", tid):      jsonLines(40, 40),
		"databricks/" + part("0", aborted):  jsonLines(33, 0),
		"databricks/_started_" + tid:        "",
		"databricks/_committed_" + tid:      string(committed),
		"databricks/_started_" + aborted:    "",
		"databricks/_SUCCESS":               "",
		"athena/4462ebfc-5f91.csv":          "time,request_time,status\n2026-12-04T02:00:00Z,0.5,200\n2026-12-04T02:00:01Z,1.5,429\n",
		"athena/4462ebfc-5f91.csv.metadata": "\x0a\x08\x00\x01binary",
	})
	for _, c := range []struct {
		path    string
		records int64
		files   int
	}{
		{"spark", 50, 2},
		{"databricks", 80, 2},
		{"athena", 2, 1},
		{"spark/*", 50, 2},
		{"databricks/*", 113, 3}, // a glob's "*": every data file, committed or not, as Databricks reads path/*
		{"spark/_SUCCESS", 1, 1}, // named itself: read
	} {
		_, res := collect(t, []string{filepath.Join(dir, filepath.FromSlash(c.path))}, ingest.Options{Workers: 2})
		if res.Records() != c.records || len(res.Files) != c.files || res.BadLines() != 0 {
			var names []string
			for _, f := range res.Files {
				names = append(names, filepath.Base(f.Path))
			}
			t.Errorf("%s: %d records in %d files %v, %d bad lines; want %d in %d, none", c.path, res.Records(), len(res.Files), names, res.BadLines(), c.records, c.files)
		}
	}
}
