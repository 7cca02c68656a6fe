package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "loganalyze", Version: "v0.0.0-20261201193610-aba82e1c0ffe+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "-trimpath", Value: "true"},
			{Key: "vcs.modified", Value: "true"},
			{Key: "CGO_ENABLED", Value: "0"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "aba82e1c0ffee"},
			{Key: "vcs.time", Value: "2026-12-01T19:36:10Z"},
		},
	}
	want := "prog v0.0.0-20261201193610-aba82e1c0ffe+dirty go1.26.8\n" +
		"vcs.revision=aba82e1c0ffee\nvcs.time=2026-12-01T19:36:10Z\nvcs.modified=true\n"
	if got := format("prog", bi); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	bare := &debug.BuildInfo{GoVersion: "go1.26.8"}
	if got, want := format("prog", bare), "prog (devel) go1.26.8\n"; got != want {
		t.Errorf("no module version: got %q, want %q", got, want)
	}
}

// TestStringOfThisBinary checks String against the test binary's own
// build information, read here field by field.
func TestStringOfThisBinary(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("a test binary has build information")
	}
	lines := strings.Split(strings.TrimSuffix(String("prog"), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "prog ") || !strings.HasSuffix(lines[0], " "+bi.GoVersion) {
		t.Errorf("first line %q lacks the program or %s", lines[0], bi.GoVersion)
	}
	n := 0
	for _, s := range bi.Settings {
		if strings.HasPrefix(s.Key, "vcs.") {
			n++
		}
	}
	if len(lines)-1 != n {
		t.Errorf("%d VCS lines, the build recorded %d: %q", len(lines)-1, n, lines)
	}
}
