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

// BatchCollector is a collector that adds a batch of records itself:
// AddRecords(rs, idx, vs) adds rs[i] with values vs[i] for each i of
// idx, in order, as Add adds each. AddBatch gives it a step's records
// at once, where a call through the interface per record was most of
// what a collector that passes over most records did for them. A
// ComboCollector's records are given it one by one still (those not
// Fed).
type BatchCollector interface {
	Collector
	AddRecords(rs []ingest.Record, idx []int32, vs []Values)
}

// Values are a record's metrics as Accumulator.Add computed them, so
// that collectors need not compute them again. Accumulator.values
// clears them field by field for each record: a field added here is
// cleared there.
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
	// Combo identifies the record's combination of dimension keys
	// (region, model, status, client, client_region, route, stream and
	// uri path, each when present) in the accumulator it is being
	// added to: a small integer from 0, the same for every record of
	// that combination in that accumulator and never given to another,
	// or −1 when there is none. A collector whose keys are made of those
	// fields may keep, per Combo, what it looked up for the first
	// record, and skip the lookup for the rest.
	Combo int
	// Fed says the record reaches the accumulator's combination
	// collectors (ComboCollector) through its combination, when the
	// accumulator's set is expanded: their Add has nothing to count.
	Fed     bool
	uriPath []byte // the uri without its query (Path), when it has a uri
	phases  recordPhases
}

// ComboCollector is a collector whose state is a function of the
// records' dimension keys and metric values alone (a projection of the
// combination, such as model × stream, with the metrics' sketches). It
// is given each combination of its accumulator's set with its entry when
// the set is expanded (AddCombo), and counts in Add only the records
// that are not Fed: those past the set's bound of combinations. A
// window's own collector (one the hours do not have) is given the
// combinations of every hour's set as well as the window's.
type ComboCollector interface {
	Collector
	AddCombo(keys sketch.ComboKeys, e *sketch.Entry)
}

// ComboRTT is tcpinfo_rtt (ms) as a metric of the set's combinations
// alone (sketch.Set.ComboOnly), after the set's metrics: no dimension
// reports it, but a collector of it per projection of the keys takes it
// from the combinations (RTTCollector).
const ComboRTT = NumMetrics

// RTTCollector is a ComboCollector that also takes the combinations'
// tcpinfo_rtt: the entry AddCombo is given holds it as metric ComboRTT,
// so that Add has nothing to count for a Fed record.
type RTTCollector interface {
	ComboCollector
	TakesComboRTT()
}
