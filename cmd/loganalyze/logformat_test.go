package main

import (
	"bytes"
	"encoding/json"
	"loganalyze/internal/sharedtest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// repoShared returns the shared sample folder beside the repository root.
func repoShared(t *testing.T) string { return sharedtest.Dir(t) }

// A --log-format that cannot be compiled is bad usage, named before any
// input is read.
func TestBadLogFormatIsUsage(t *testing.T) {
	for format, msg := range map[string]string{
		`$remote_addr$status`: "--log-format: $remote_addr and $status are not separated",
		`combind`:             `--log-format: "combind" has no $variable, HAProxy alias, Envoy operator or Apache directive and is not a known format name`,
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"--log-format", format, "does-not-exist.log"}, nil, &stdout, &stderr, time.Now)
		if code != exitUsage || !strings.Contains(stderr.String(), msg) {
			t.Errorf("--log-format %q: exit %d, stderr %q; want %d and %q", format, code, stderr.String(), exitUsage, msg)
		}
	}
}

// A known format's name is accepted and used.
func TestNamedLogFormat(t *testing.T) {
	path := filepath.Join(repoShared(t), "real", "ingress-nginx-upstreaminfo.log")
	var stdout, stderr bytes.Buffer
	code := run([]string{"--log-format", "upstreaminfo", "--json", "-", path}, nil, &stdout, &stderr, time.Now)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		Input struct {
			Records  int64 `json:"records"`
			BadLines int64 `json:"bad_lines"`
		} `json:"input"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Input.Records != 29 || rep.Input.BadLines != 0 {
		t.Errorf("%d records, %d bad lines; want 29 and 0", rep.Input.Records, rep.Input.BadLines)
	}
}

// --log-format is repeatable: every value is checked before any input is
// read, and each file is read with the format its lines follow.
func TestRepeatedLogFormat(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"--log-format", "combined", "--log-format", "$a$b", "does-not-exist.log"}, nil, &stdout, &stderr, time.Now)
	if code != exitUsage || !strings.Contains(stderr.String(), "--log-format: $a and $b are not separated") {
		t.Errorf("exit %d, stderr %q; want %d naming the second format", code, stderr.String(), exitUsage)
	}

	dir := t.TempDir()
	a := filepath.Join(dir, "a.log")
	b := filepath.Join(dir, "b.log")
	if err := os.WriteFile(a, []byte("rt=0.500 st=200\nrt=0.250 st=429\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("200|1.5\n504|60\n503|0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"--log-format", "rt=$request_time st=$status", "--log-format", "$status|$request_time", "--json", "-", a, b},
		nil, &stdout, &stderr, time.Now)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		Input struct {
			Records  int64 `json:"records"`
			BadLines int64 `json:"bad_lines"`
		} `json:"input"`
		Status map[string]int64 `json:"status"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Input.Records != 5 || rep.Input.BadLines != 0 || rep.Status["504"] != 1 || rep.Status["429"] != 1 {
		t.Errorf("%d records, %d bad lines, status %v; want 5, 0, one 504 and one 429", rep.Input.Records, rep.Input.BadLines, rep.Status)
	}
}

// LTSV is read by --input-format ltsv whatever the file is called.
func TestInputFormatLTSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "access.log")
	if err := os.WriteFile(path, []byte("status:200\treqtime:0.100\nstatus:500\treqtime:0.200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--input-format", "ltsv", "--json", "-", path}, nil, &stdout, &stderr, time.Now); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		Input struct {
			Files []struct {
				Format  string `json:"format"`
				Records int64  `json:"records"`
			} `json:"files"`
		} `json:"input"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if f := rep.Input.Files; len(f) != 1 || f[0].Format != "ltsv" || f[0].Records != 2 {
		t.Errorf("files %+v, want one ltsv file of 2 records", f)
	}
}
