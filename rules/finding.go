// Package rules turns aggregates into findings: each rule of SPEC §5 looks
// for one cause of slow calls and says, with numbers, what it found, what
// it costs and how to fix it.
package rules

import (
	"bytes"
	"encoding/json"
	"sort"
)

// Severity of a finding. The zero value is no finding.
type Severity int

// Severities, in increasing order.
const (
	OK Severity = iota
	Warn
	Crit
)

func (s Severity) String() string {
	switch s {
	case Warn:
		return "warn"
	case Crit:
		return "crit"
	}
	return "ok"
}

// MarshalJSON writes the severity's name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// ParseSeverity reads "warn", "crit" or "never" (which is above every
// severity, so nothing reaches it).
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "warn":
		return Warn, true
	case "crit":
		return Crit, true
	case "never":
		return Crit + 1, true
	}
	return 0, false
}

// Field is one named value of a finding's key, evidence or impact.
type Field struct {
	Name  string
	Value any // string, bool, int64, float64, []string or Fields
}

// Fields is an ordered set of named values; it is written as a JSON object
// in its own order, so reports are stable.
type Fields []Field

// Get returns the value of name, or nil.
func (fs Fields) Get(name string) any {
	for _, f := range fs {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// MarshalJSON writes fs as an object in order.
func (fs Fields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Window is a time range [From, To) in Unix nanoseconds.
type Window struct {
	From, To int64
}

// Impact is the estimated time a finding costs.
type Impact struct {
	// MsPerRequest is the time lost per affected request.
	MsPerRequest float64
	// Requests is how many requests are affected.
	Requests int64
	// Seconds is the time lost in the whole window.
	Seconds float64
}

// Finding is one diagnosed problem.
type Finding struct {
	Rule     string
	Severity Severity
	Key      Fields
	Title    string
	Evidence Fields
	Impact   Impact
	Advice   string
	Window   *Window // for time-bound rules
	// Explains lists the keys whose change this finding's cause
	// explains (SPEC §5 "One cause, one finding"): they are not
	// reported on their own.
	Explains []Explained
}

// Explained is a key one finding's cause explains: a dimension and its
// key ("all" for the whole input), or dimension "rule" and a finding of
// another rule.
type Explained struct {
	Dimension string
	Key       string
}

// NotEvaluated is a rule that could not run, and why.
type NotEvaluated struct {
	Rule   string
	Reason string
}

// SortFindings orders findings by estimated impact, largest first, then
// by severity, rule and key, so that the order is stable.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := &fs[i], &fs[j]
		if a.Impact.Seconds != b.Impact.Seconds {
			return a.Impact.Seconds > b.Impact.Seconds
		}
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		ka, _ := a.Key.MarshalJSON()
		kb, _ := b.Key.MarshalJSON()
		return string(ka) < string(kb)
	})
}

// Verdict returns the worst severity among fs.
func Verdict(fs []Finding) Severity {
	v := OK
	for _, f := range fs {
		v = max(v, f.Severity)
	}
	return v
}
