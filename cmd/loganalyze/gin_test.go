package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGinEscapedPaths: Gin's paths written with escapes (%#v quotes a
// path's quotes and backslashes) keep each its own request's uri,
// whatever lines are read after it before its batch is counted.
func TestGinEscapedPaths(t *testing.T) {
	paths := []string{`/v1/"a"`, `/v1/b\c`, `/v1/"long/route/name"`, `/v1/d"`, `/v1/e\\f`}
	want := map[string]int{}
	var b strings.Builder
	for i := range 400 {
		p := paths[i*3%len(paths)]
		want[p]++
		fmt.Fprintf(&b, "[GIN] 2026/12/04 - 10:%02d:%02d | 200 |    %d.5s |        10.1.1.%d | POST     %q\n", i/60, i%60, 1+i%7, i%9, p)
	}
	path := filepath.Join(t.TempDir(), "gin.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	checkURICounts(t, path, want)
}

// checkURICounts runs the command on path with one worker and with two
// and holds its requests by uri (JSON latency.request_time.by.uri) to
// want.
func checkURICounts(t *testing.T, path string, want map[string]int) {
	t.Helper()
	for _, workers := range []string{"1", "2"} {
		code, out, errs := runCLI(t, "--workers", workers, "--tz", "UTC", "--json", "-", path)
		if code != 0 {
			t.Fatalf("workers %s: exit %d: %s", workers, code, errs)
		}
		var rep struct {
			Latency map[string]struct {
				By map[string][]struct {
					Key   string `json:"key"`
					Count int    `json:"count"`
				} `json:"by"`
			} `json:"latency"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, row := range rep.Latency["request_time"].By["uri"] {
			got[row.Key] = row.Count
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("workers %s: requests by uri %v, want %v", workers, got, want)
		}
	}
}
