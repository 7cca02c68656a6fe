package aggregate

import (
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// Collector gathers, in the same pass as the accumulator, what one
// diagnosis needs beyond the sketches every report shows. The rules
// declare their collectors; aggregate knows nothing of what they hold.
// Each worker has its own, and they are merged at the end.
type Collector interface {
	// Add adds one record of the window; v holds its metric values.
	Add(r *ingest.Record, v *Values)
	// Merge adds another collector made by the same constructor.
	Merge(o Collector)
	// Finish bounds the state after the last merge.
	Finish()
	// AppendBinary appends the state before Finish, mergeable, for an
	// hour file: the same state gives the same bytes.
	AppendBinary(b []byte) []byte
	// UnmarshalBinary replaces the state of a collector fresh from its
	// constructor with what AppendBinary wrote. Damaged or crafted bytes
	// give an error, never a panic or an allocation beyond what their
	// size allows.
	UnmarshalBinary(b []byte) error
}

// Values are a record's metrics as Accumulator.Add computed them, so
// that collectors need not compute them again.
type Values struct {
	// Bins are the sketch bins of the metrics the record has (Has).
	Bins [NumMetrics]sketch.Bin
	Has  [NumMetrics]bool
	// RequestTime is request_time in seconds, when HasRequestTime.
	RequestTime    float64
	HasRequestTime bool
	// TokenCall is set when the record's uri is a token-endpoint call
	// (Options.TokenURI), told once for the breakdown and the rules.
	TokenCall bool
	phases    recordPhases
}
