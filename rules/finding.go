// Package rules turns aggregates into findings: each rule of SPEC §5 looks
// for one cause of slow calls and says, with numbers, what it found, what
// it costs and how to fix it.
package rules

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
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
func (fs Fields) MarshalJSON() ([]byte, error) { return fs.AppendJSON(nil) }

// AppendJSON appends fs as a JSON object in order, the bytes json.Marshal
// writes: each value as json.Marshal writes it. The values of the kinds a
// report is made of (text, numbers, booleans, lists of text, Fields and
// lists of them) are written here, one buffer for the whole report; any
// other goes through json.Marshal. Each nested Fields used to be a
// Marshal of its own, whose output every enclosing one copied and
// checked again: the JSON report took 32M instructions of a 200,000-line
// run's 2,080M, at its end, where nothing else runs.
func (fs Fields) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, '{')
	for i, f := range fs {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendJSONString(dst, f.Name); err != nil {
			return nil, err
		}
		dst = append(dst, ':')
		if dst, err = appendJSONValue(dst, f.Value); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// appendJSONValue appends v as json.Marshal writes it.
func appendJSONValue(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return appendJSONString(dst, v)
	case bool:
		return strconv.AppendBool(dst, v), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case float64:
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			return appendJSONFloat(dst, v), nil
		}
	case Fields:
		return v.AppendJSON(dst)
	case []Fields:
		return appendJSONList(dst, v, func(dst []byte, e Fields) ([]byte, error) { return e.AppendJSON(dst) })
	case []string:
		return appendJSONList(dst, v, appendJSONString)
	}
	b, err := json.Marshal(v)
	return append(dst, b...), err
}

// appendJSONList appends list as a JSON array, each element by add; a
// nil list is null, as json.Marshal writes it.
func appendJSONList[T any](dst []byte, list []T, add func([]byte, T) ([]byte, error)) ([]byte, error) {
	if list == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '[')
	for i, e := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = add(dst, e); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// appendJSONString appends s quoted: as it is when no byte of it needs
// an escape (json.Marshal escapes controls, quotes, backslashes, HTML's
// <, > and &, and looks at every byte past ASCII), else by json.Marshal.
func appendJSONString(dst []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, err := json.Marshal(s)
			return append(dst, b...), err
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"'), nil
}

// appendJSONFloat appends a finite f as json.Marshal writes a float64:
// the shortest decimal that reads back as f, in exponent form below
// 1e-6 and from 1e21 on, with an exponent of one digit written without
// its leading zero (encoding/json's floatEncoder).
func appendJSONFloat(dst []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
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
