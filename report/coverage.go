package report

import (
	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// FieldCount is how many records in the window carry one canonical field.
type FieldCount struct {
	Field string
	Count int64
}

// fieldCoverage lists the canonical fields the window's records carry,
// in canonical order, each with its record count; a field no record
// carries is left out. The request line is not listed: it is read as
// method and uri; nor is a record's kind, which only says that it is a
// request.
func fieldCoverage(acc *aggregate.Accumulator) []FieldCount {
	var out []FieldCount
	for f := ingest.Field(0); f < ingest.NumFields; f++ {
		if n := acc.Present()[f]; n > 0 && f != ingest.FRequest && f != ingest.FKind {
			out = append(out, FieldCount{Field: f.String(), Count: n})
		}
	}
	return out
}

// unreadValues sums the files' unreadable values per field, in canonical
// order.
func unreadValues(files []ingest.FileStats) []FieldCount {
	var out []FieldCount
	for f := ingest.Field(0); f < ingest.NumFields; f++ {
		var n int64
		for _, fs := range files {
			n += fs.UnreadValues[f]
		}
		if n > 0 {
			out = append(out, FieldCount{Field: f.String(), Count: n})
		}
	}
	return out
}

// countsJSON is a list of field counts as a JSON object, in its order.
func countsJSON(fcs []FieldCount) obj {
	o := obj{}
	for _, fc := range fcs {
		o = append(o, kv{Name: fc.Field, Value: fc.Count})
	}
	return o
}

// InWindow is the number of records inside the window.
func (in Input) InWindow() int64 { return in.Records - in.OutsideWindow }

// coverageNote says, next to a metric's numbers, that they come from a
// minority of the records ("request_time: from 1 of 14 records"); ""
// when at least half of the records carry the metric. code marks the
// metric's name.
func (r *Report) coverageNote(m printer, ml MetricLatency, code func(string) string) string {
	n, of := ml.All.Count, r.Input.InWindow()
	if n == 0 || 2*n >= of {
		return ""
	}
	return m.f("coverage", code(ml.Metric), n, of)
}

// fieldsJSON is input.fields: records carrying each canonical field, in
// canonical order.
func (r *Report) fieldsJSON() obj { return countsJSON(r.Input.Fields) }
