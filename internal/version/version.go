// Package version says which build of a program is running, from the
// build information the Go toolchain writes into every binary (as
// Prometheus's common/version does for its programs).
package version

import (
	"cmp"
	"runtime/debug"
	"strings"
)

// String is the version text of program: its main module's version
// ("(devel)" when the build recorded none) and Go version on the first
// line, then one line per VCS setting the build recorded (vcs.revision,
// vcs.time, vcs.modified), as key=value.
func String(program string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return program + " (no build info)\n"
	}
	return format(program, bi)
}

// format is String of given build information.
func format(program string, bi *debug.BuildInfo) string {
	var b strings.Builder
	b.WriteString(program + " " + cmp.Or(bi.Main.Version, "(devel)") + " " + bi.GoVersion + "\n")
	for _, key := range []string{"vcs.revision", "vcs.time", "vcs.modified"} {
		for _, s := range bi.Settings {
			if s.Key == key {
				b.WriteString(key + "=" + s.Value + "\n")
			}
		}
	}
	return b.String()
}
