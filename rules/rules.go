package rules

import (
	"fmt"
	"sort"
	"strings"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// rule is one diagnosis of SPEC §5: its settings, what it gathers per
// record and how it judges. Each lives in a file of its own; registry
// lists them.
type rule interface {
	// id is the rule's ID, the key of its settings in the rules file.
	id() string
	// on reports whether the rule is enabled.
	on() bool
	// params are the rule's settings, bound to its fields, for the
	// rules file.
	params() []param
	// collector names what the rule gathers per record and returns its
	// constructor; nil when the rule reads only the shared aggregate.
	// Rules that name the same collector share one.
	collector() (string, func(collectEnv) aggregate.Collector)
	// needs returns why the rule cannot run (the fields it misses), or "".
	needs(acc *aggregate.Accumulator) string
	// evaluate returns the rule's findings over the merged aggregate
	// and its collector (nil when it has none), and what part of the
	// input it could not judge ("" for none).
	evaluate(acc *aggregate.Accumulator, col aggregate.Collector, c *Config) ([]Finding, string)
}

// registry makes the built-in rules with their default settings, in
// SPEC order: one line per rule.
var registry = []func() rule{
	newCrossRegion,
	newNonStreaming,
	newKeepalive,
	newStorm,
	newTokenCache,
	newBurst,
	newRegression,
	newTimeout,
}

// enabled is the on/off setting every rule has.
type enabled struct{ Enabled bool }

func (e *enabled) on() bool { return e.Enabled }

// Evaluate runs every enabled rule over the merged aggregate, which must
// have been made with cfg.Collectors. It returns the findings, largest
// estimated impact first, and the rules that could not run with the
// reason (the fields they miss).
func Evaluate(acc *aggregate.Accumulator, cfg *Config) ([]Finding, []NotEvaluated) {
	if cfg == nil {
		cfg = Default()
	}
	slot, _, makers, _ := cfg.slots()
	if len(acc.Collectors) != len(makers) {
		panic(fmt.Sprintf("BUG: the accumulator has %d collectors, the rules' settings make %d", len(acc.Collectors), len(makers)))
	}
	findings := []Finding{}
	var notEval []NotEvaluated
	for i, r := range cfg.rules {
		if !r.on() {
			continue
		}
		if why := r.needs(acc); why != "" {
			notEval = append(notEval, NotEvaluated{Rule: r.id(), Reason: why})
			continue
		}
		var col aggregate.Collector
		if slot[i] >= 0 {
			if col = acc.Collectors[slot[i]]; col == nil {
				notEval = append(notEval, NotEvaluated{Rule: r.id(), Reason: "its statistics were not gathered in this run"})
				continue
			}
		}
		fs, partly := r.evaluate(acc, col, cfg)
		findings = append(findings, fs...)
		if partly != "" {
			notEval = append(notEval, NotEvaluated{Rule: r.id(), Reason: partly})
		}
	}
	findings = mergeNonStreaming(findings)
	SortFindings(findings)
	return mergeSameCause(mergeCeilings(findings)), notEval
}

// absent returns a reason naming the fields no record carried, or "".
func absent(acc *aggregate.Accumulator, fields ...ingest.Field) string {
	var names []string
	for _, f := range fields {
		if acc.Present()[f] == 0 {
			names = append(names, f.String())
		}
	}
	return missing(names...)
}

func missing(names ...string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "field " + names[0] + " is absent from every record"
	}
	return "fields " + strings.Join(names, ", ") + " are absent from every record"
}

// impact is ms lost per affected request × requests.
func impact(msPer float64, requests int64) Impact {
	msPer = max(0, msPer)
	return Impact{MsPerRequest: msPer, Requests: requests, Seconds: msPer * float64(requests) / 1000}
}

// round rounds to d decimals, so evidence prints stably.
func round(v float64, d int) float64 {
	p := 1.0
	for range d {
		p *= 10
	}
	x := v * p
	if x < 0 {
		return -float64(int64(-x+0.5)) / p
	}
	return float64(int64(x+0.5)) / p
}

// topNames lists up to n names by count, largest first, as "name (count)".
func topNames(counts map[string]int64, n int) []string {
	type kc struct {
		k string
		c int64
	}
	var all []kc
	for k, c := range counts {
		all = append(all, kc{k, c})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].c != all[j].c {
			return all[i].c > all[j].c
		}
		return all[i].k < all[j].k
	})
	var out []string
	for i, x := range all {
		if i == n {
			out = append(out, fmt.Sprintf("%d more", len(all)-n))
			break
		}
		out = append(out, fmt.Sprintf("%s (%d)", x.k, x.c))
	}
	return out
}

// seconds formats a duration in seconds for advice text.
func seconds(s float64) string {
	if s >= 10 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}
