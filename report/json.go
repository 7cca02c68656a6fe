package report

import (
	"bytes"
	"encoding/json"
	"io"
	"time"

	"loganalyze/ingest"
	"loganalyze/rules"
)

// obj is an ordered JSON object.
type obj = rules.Fields

type kv = rules.Field

func quantilesJSON(q Quantiles, withKey bool) obj {
	o := obj{}
	if withKey {
		o = append(o, kv{Name: "key", Value: q.Key})
	}
	o = append(o, kv{Name: "count", Value: q.Count})
	if q.Missing > 0 {
		// Stored hours merged, some of which folded the key into other:
		// count is a lower bound, count_max an upper one.
		o = append(o, kv{Name: "count_max", Value: q.Count + q.Missing})
	}
	return append(o,
		kv{Name: "p50_ms", Value: q.P50},
		kv{Name: "p95_ms", Value: q.P95},
		kv{Name: "p99_ms", Value: q.P99},
		kv{Name: "mean_ms", Value: q.Mean},
		kv{Name: "max_ms", Value: q.Max},
	)
}

// rfc3339 is t as the JSON report writes a time; "" for the zero time,
// an open end.
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

func (r *Report) timeString(ns int64) string {
	return time.Unix(0, ns).In(r.Location).Format(time.RFC3339Nano)
}

func (r *Report) findingJSON(f *rules.Finding) obj {
	o := obj{
		{Name: "rule", Value: f.Rule},
		{Name: "severity", Value: f.Severity.String()},
		{Name: "key", Value: nonNil(f.Key)},
		{Name: "title", Value: f.Title},
		{Name: "evidence", Value: nonNil(f.Evidence)},
		{Name: "impact", Value: obj{
			{Name: "ms_per_request", Value: round3(f.Impact.MsPerRequest)},
			{Name: "requests", Value: f.Impact.Requests},
			{Name: "seconds", Value: round3(f.Impact.Seconds)},
		}},
		{Name: "advice", Value: f.Advice},
	}
	if f.Window != nil {
		o = append(o, kv{Name: "window", Value: obj{
			{Name: "from", Value: r.timeString(f.Window.From)},
			{Name: "to", Value: r.timeString(f.Window.To)},
		}})
	}
	if len(f.Explains) > 0 {
		var ex []obj
		for _, e := range f.Explains {
			ex = append(ex, obj{{Name: "dimension", Value: e.Dimension}, {Name: "key", Value: e.Key}})
		}
		o = append(o, kv{Name: "explains", Value: ex})
	}
	return o
}

func nonNil(f rules.Fields) rules.Fields {
	if f == nil {
		return rules.Fields{}
	}
	return f
}

// JSONValue returns the report as an ordered JSON document (SPEC §6,
// schema_version 1).
func (r *Report) JSONValue() obj {
	// An end no record nor bound gives is "", never the zero time.
	var from, to time.Time
	if r.Window != nil {
		from, to = r.Window.From, r.Window.To
	}
	window := obj{{Name: "from", Value: rfc3339(from)}, {Name: "to", Value: rfc3339(to)}}
	findings := []obj{}
	for i := range r.Findings {
		findings = append(findings, r.findingJSON(&r.Findings[i]))
	}
	notEval := []obj{}
	for _, n := range r.NotEvaluated {
		notEval = append(notEval, obj{{Name: "rule", Value: n.Rule}, {Name: "reason", Value: n.Reason}})
	}
	latency := obj{}
	for _, ml := range r.Latency {
		by := obj{}
		folded := obj{}
		for _, dl := range ml.By {
			rows := []obj{}
			for _, q := range dl.Rows {
				rows = append(rows, quantilesJSON(q, true))
			}
			by = append(by, kv{Name: dl.Dim, Value: rows})
			if dl.Other != nil {
				fo := obj{{Name: "keys", Value: dl.FoldedKeys}}
				if dl.FoldedUpper {
					fo = append(fo, kv{Name: "keys_upper_bound", Value: true})
				}
				if dl.KeyShare < 1 {
					fo = append(fo, kv{Name: "key_share", Value: dl.KeyShare})
				}
				fo = append(fo, quantilesJSON(*dl.Other, false)...)
				folded = append(folded, kv{Name: dl.Dim, Value: fo})
			}
		}
		mo := obj{{Name: "all", Value: quantilesJSON(ml.All, false)}, {Name: "by", Value: by}}
		if len(folded) > 0 {
			mo = append(mo, kv{Name: "folded", Value: folded})
		}
		latency = append(latency, kv{Name: ml.Metric, Value: mo})
	}
	status := obj{}
	for _, s := range r.Status {
		status = append(status, kv{Name: statusKey(s.Status), Value: s.Count})
	}
	timeline := []obj{}
	for _, m := range r.Timeline {
		timeline = append(timeline, obj{
			{Name: "minute", Value: m.Time.Format(time.RFC3339)},
			{Name: "requests", Value: m.Requests},
			{Name: "status_429", Value: m.N429},
			{Name: "status_5xx", Value: m.N5xx},
			{Name: "p99_ms", Value: m.P99},
		})
	}
	doc := obj{
		{Name: "schema_version", Value: SchemaVersion},
		{Name: "window", Value: window},
		{Name: "input", Value: r.inputJSON()},
		{Name: "verdict", Value: r.VerdictName()},
	}
	if r.NoData != nil {
		doc = append(doc, kv{Name: "verdict_reason", Value: r.NoData.json()})
	}
	if r.Triage != nil {
		doc = append(doc, kv{Name: "triage", Value: r.Triage.json()})
	}
	doc = append(doc, obj{
		{Name: "findings", Value: findings},
		{Name: "not_evaluated", Value: notEval},
		{Name: "latency", Value: latency},
		{Name: "breakdown", Value: r.breakdownJSON()},
		{Name: "status", Value: status},
		{Name: "timeline_bucket_s", Value: int64(r.TimelineStep / time.Second)},
		{Name: "timeline", Value: timeline},
	}...)
	return append(doc, r.comparisonsJSON()...)
}

// inputJSON is the input object: files, problems and field coverage.
func (r *Report) inputJSON() obj {
	files := []obj{}
	for _, f := range r.Input.Files {
		fo := obj{
			{Name: "path", Value: f.Path},
			{Name: "format", Value: string(f.Format)},
			{Name: "source", Value: f.Source},
			{Name: "records", Value: f.Records},
			{Name: "bad_lines", Value: f.BadLines},
		}
		if f.Envelope != "" {
			fo = append(fo, kv{Name: "envelope", Value: string(f.Envelope)})
		}
		if f.Incomplete {
			fo = append(fo, kv{Name: "incomplete", Value: true}, kv{Name: "reason", Value: f.Reason})
		}
		if f.PassedOver > 0 {
			fo = append(fo, kv{Name: "passed_over", Value: f.PassedOver})
		}
		if f.Zone != "" {
			fo = append(fo, kv{Name: "zone", Value: f.Zone})
		}
		if len(f.Refused) > 0 {
			// Generic names of request_time not read in SPEC §3's unit:
			// the unit read in, or "" for a name left unread.
			units := obj{}
			for _, u := range f.Refused {
				in := ""
				if u.ReadIn != ingest.UnitNone {
					in = unitText[u.ReadIn]
				}
				units = append(units, kv{Name: u.Name, Value: in})
			}
			fo = append(fo, kv{Name: "units", Value: units})
		}
		if f.WithoutRequestTime > 0 {
			fo = append(fo, kv{Name: "without_request_time", Value: f.WithoutRequestTime})
		}
		if uv := unreadValues([]ingest.FileStats{f}); len(uv) > 0 {
			fo = append(fo, kv{Name: "unreadable_values", Value: countsJSON(uv)})
		}
		files = append(files, fo)
	}
	problems, valueProblems := problemsJSON(r.Input.Problems), problemsJSON(r.Input.ValueProblems)
	o := obj{
		{Name: "records", Value: r.Input.Records},
		{Name: "bad_lines", Value: r.Input.BadLines},
		{Name: "files", Value: files},
		{Name: "problems", Value: problems},
		{Name: "incomplete", Value: r.Input.Incomplete},
		{Name: "outside_window", Value: r.Input.OutsideWindow},
		{Name: "fields", Value: r.fieldsJSON()},
		{Name: "unread", Value: r.unreadJSON()},
		{Name: "mostly_unread", Value: r.mostlyUnreadJSON()},
		{Name: "unreadable_values", Value: countsJSON(r.Input.UnreadValues)},
		{Name: "value_problems", Value: valueProblems},
	}
	if len(r.Clocks) > 0 { // only then, as time_hints
		clocks := []obj{}
		for _, c := range r.Clocks {
			clocks = append(clocks, obj{{Name: "file", Value: c.File}, {Name: "field", Value: c.Name}})
		}
		o = append(o, kv{Name: "time_of_day_only", Value: clocks})
	}
	if len(r.TimeHints) > 0 { // only then: the reports of logs with times keep their shape
		hints := []obj{}
		for _, h := range r.TimeHints {
			hints = append(hints, obj{{Name: "flag", Value: h.Flag}, {Name: "why", Value: h.Why}})
		}
		o = append(o, kv{Name: "time_hints", Value: hints})
	}
	if len(r.StatusHints) > 0 { // only then, as time_hints
		hints := []obj{}
		for _, h := range r.StatusHints {
			hints = append(hints, obj{{Name: "flag", Value: h.Flag}, {Name: "why", Value: h.Why}})
		}
		o = append(o, kv{Name: "status_hints", Value: hints})
	}
	if len(r.UnitHints) > 0 { // only then, as time_hints
		hints := []obj{}
		for _, h := range r.UnitHints {
			hints = append(hints, obj{{Name: "flag", Value: h.Flag}, {Name: "why", Value: h.Why}})
		}
		o = append(o, kv{Name: "unit_hints", Value: hints})
	}
	return o
}

// problemsJSON is a list of problems: file, line and reason each.
func problemsJSON(ps []ingest.Problem) []obj {
	out := []obj{}
	for _, p := range ps {
		out = append(out, obj{
			{Name: "file", Value: p.File},
			{Name: "line", Value: p.Line},
			{Name: "reason", Value: p.Reason},
		})
	}
	return out
}

// WriteJSON writes the JSON report, indented, with a final newline.
func (r *Report) WriteJSON(w io.Writer) error {
	// The object's own bytes, without json.Marshal's pass over them to
	// check and compact what a Marshaler wrote: they are json.Marshal's
	// bytes already (rules.Fields.AppendJSON).
	b, err := r.JSONValue().AppendJSON(nil)
	if err != nil {
		return err
	}
	var out []byte
	out, err = indent(b)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

func indent(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
