package main

import (
	"bytes"
	"encoding/json"
	"loganalyze/internal/sharedtest"
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
		`combind`:             `--log-format: "combind" has no $variable and is not a known format name`,
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
