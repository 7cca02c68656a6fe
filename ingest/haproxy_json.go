package ingest

import (
	"regexp"
	"strings"
)

// HAProxy 3.0's encoded log-formats: "%{+json}o %(time_active)Ta
// %(status_code)ST …" writes each item as a member named by its
// %(name), a JSON object a line, the timers as numbers of ms. Such a
// log is read as JSON lines, and a --log-format that encodes so names
// which member is which: HAProxyJSONMaps turns it into the --map
// overrides that read them.

// hapNamed is an item with its name: %(name), then flags, then the
// alias.
var hapNamed = regexp.MustCompile(`%\(([^)]*)\)(?:\{[^}]*\})?([A-Za-z]+)`)

// HAProxyJSONMaps returns, for a log-format that encodes its line as
// JSON (%{+json}o), the --map overrides that read the members its named
// items write: canonical=name, with ms for a timer and s for %Ts. ok is
// false for any other format. Items without a name, and aliases of
// nothing loganalyze reads, give none; %Tt is the request time only
// where %Ta is not logged.
func HAProxyJSONMaps(format string) (maps []string, ok bool) {
	if !strings.Contains(format, "%{+json}o") && !strings.Contains(format, ",+json}o") && !strings.Contains(format, "{+json,") {
		return nil, false
	}
	hasTa := false
	for _, m := range hapNamed.FindAllStringSubmatch(format, -1) {
		hasTa = hasTa || m[2] == "Ta" && m[1] != ""
	}
	for _, m := range hapNamed.FindAllStringSubmatch(format, -1) {
		name, alias := m[1], m[2]
		a, known := haproxyAliases[alias]
		if name == "" || !known || a.spec.none || !a.spec.bound || a.spec.field == ignored || alias == "Tt" && hasTa {
			continue
		}
		unit := ""
		switch {
		case a.timer:
			unit = ":ms"
		case alias == "Ts":
			unit = ":s"
		}
		maps = append(maps, fields[a.spec.field].name+"="+name+unit)
	}
	return maps, true
}
