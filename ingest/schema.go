package ingest

import (
	"fmt"
	"strings"
)

// Unit is the unit a source writes a number in.
type Unit uint8

// Units. For time fields UnitSecond, UnitMilli, … mean an epoch in that unit.
const (
	UnitNone Unit = iota
	UnitSecond
	UnitMilli
	UnitMicro
	UnitNano
)

// seconds is the length of one unit in seconds.
var seconds = [...]float64{UnitNone: 1, UnitSecond: 1, UnitMilli: 1e-3, UnitMicro: 1e-6, UnitNano: 1e-9}

func parseUnit(s string) (Unit, bool) {
	switch s {
	case "s", "sec":
		return UnitSecond, true
	case "ms":
		return UnitMilli, true
	case "us", "µs":
		return UnitMicro, true
	case "ns":
		return UnitNano, true
	}
	return 0, false
}

// Binding says which canonical field a source column feeds and how.
type Binding struct {
	Field Field
	Unit  Unit  // the source's unit; UnitNone means the canonical unit
	Prio  uint8 // lower wins when several sources set one field
}

// Bindings is the set of canonical fields one source column feeds (most
// feed one; none means the column is ignored).
type Bindings []Binding

// alias is one source name of a canonical field.
type alias struct {
	name string
	unit Unit
}

// aliases lists SPEC §3's "also read from" names, best first. The
// canonical name itself always comes before them.
var aliases = map[Field][]alias{
	FTime: {{"__timestamp__", UnitMilli}, {"time_local", 0}, {"time_iso8601", 0},
		{"msec", UnitSecond}, {"timestamp", 0}, {"@timestamp", 0}, {"start_time", 0},
		{"starttime", 0}, {"requesttime", 0}},
	FClient: {{"app_id", 0}, {"appid", 0}, {"api_key_id", 0}, {"apikeyid", 0},
		{"secret_id", 0}, {"uin", 0}, {"remote_user", 0}},
	FRemoteAddr:   {{"__source__", 0}, {"client_ip", 0}, {"cip", 0}},
	FClientRegion: {{"__tag__.client_region", 0}, {"caller_region", 0}},
	FRegion:       {{"__tag__.region", 0}, {"server_region", 0}, {"endpoint_region", 0}},
	FModel:        {{"model_id", 0}, {"modelname", 0}, {"llm_model", 0}, {"ai_log.model", 0}},
	FStream:       {{"llm_stream", 0}, {"response_type", 0}, {"request_type", 0}},
	FStatus:       {{"response_code", 0}, {"rsp_st", 0}},
	FRequestTime: {{"req_t", 0}, {"duration", UnitMilli}, {"request_duration_ms", UnitMilli},
		{"llm_service_duration", UnitMilli}},
	FUpstreamResponseTime: {{"ups_rsp_t", 0}},
	FUpstreamConnectTime:  {{"ups_conn_t", 0}},
	FUpstreamHeaderTime:   {{"ups_head_t", 0}},
	FTTFT: {{"first_token_ms", 0}, {"ttft_ms", 0}, {"llm_first_token_duration", 0},
		{"llm_time_to_first_token", 0}, {"time_to_first_token", 0}},
	FTCPInfoRTT:       {{"tcp_rtt", 0}},
	FRetryAfter:       {{"retry-after", 0}, {"http_retry_after", 0}},
	FPromptTokens:     {{"input_token", 0}, {"inputtoken", 0}},
	FCompletionTokens: {{"output_token", 0}, {"outputtoken", 0}},
	FHost:             {{"http_host", 0}, {"server_name", 0}},
}

// Schema maps source column names (case-insensitive) to canonical fields.
// It is built once and shared read-only by every parser.
type Schema struct {
	byName map[string]Bindings
	// prefixes holds the parents of dotted names ("ai_log" for
	// "ai_log.model"), so that nested objects are only walked when useful.
	prefixes map[string]bool
}

// prioMapped is the priority of a --map source: it beats every built-in name.
const (
	prioMapped    = 0
	prioCanonical = 1
	prioAlias     = 2
)

// NewSchema returns the built-in schema with the --map overrides applied.
// Each override is "canonical=source[:unit]".
func NewSchema(maps []string) (*Schema, error) {
	s := &Schema{byName: map[string]Bindings{}, prefixes: map[string]bool{}}
	for f := Field(0); f < NumFields; f++ {
		s.add(fields[f].name, Binding{Field: f, Prio: prioCanonical})
		for i, a := range aliases[f] {
			s.add(a.name, Binding{Field: f, Unit: a.unit, Prio: uint8(prioAlias + i)})
		}
	}
	for _, m := range maps {
		canon, source, ok := strings.Cut(m, "=")
		if !ok || canon == "" || source == "" {
			return nil, fmt.Errorf("--map: %q is not canonical=source[:unit]", m)
		}
		f, ok := FieldByName(strings.ToLower(canon))
		if !ok || f == FRequest && canon != "request" {
			return nil, fmt.Errorf("--map: %q is not a canonical field", canon)
		}
		var unit Unit
		if name, u, hasUnit := strings.Cut(source, ":"); hasUnit {
			if unit, ok = parseUnit(u); !ok {
				return nil, fmt.Errorf("--map: unknown unit %q in %q (want s, ms, us or ns)", u, m)
			}
			if k := fields[f].kind; k != KindFloat && k != KindTime {
				return nil, fmt.Errorf("--map: %s is not a number, it takes no unit", canon)
			}
			source = name
		}
		name := strings.ToLower(source)
		// The mapping replaces what the name fed into this field before;
		// whatever else it feeds stays.
		kept := s.byName[name][:0:0]
		for _, b := range s.byName[name] {
			if b.Field != f {
				kept = append(kept, b)
			}
		}
		s.byName[name] = kept
		s.add(name, Binding{Field: f, Unit: unit, Prio: prioMapped})
	}
	return s, nil
}

func (s *Schema) add(name string, b Binding) {
	s.byName[name] = append(s.byName[name], b)
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		s.prefixes[name[:i]] = true
	}
}

// Lookup returns the bindings of a source column name. It does not
// allocate for names up to 64 bytes.
func (s *Schema) Lookup(name []byte) Bindings {
	var buf [64]byte
	if len(name) > len(buf) {
		return s.byName[strings.ToLower(string(name))]
	}
	lower := buf[:len(name)]
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return s.byName[string(lower)]
}

// LookupString is Lookup for a string name.
func (s *Schema) LookupString(name string) Bindings {
	return s.byName[strings.ToLower(name)]
}

// IsPrefix reports whether name is the parent of some dotted source name,
// so a nested object under it is worth walking.
func (s *Schema) IsPrefix(name []byte) bool {
	var buf [64]byte
	if len(name) > len(buf) {
		return false
	}
	lower := buf[:len(name)]
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return s.prefixes[string(lower)]
}
