package ingest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
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

// UnitSeconds is the length of one unit u in seconds (1 for UnitNone,
// a canonical duration's second).
func UnitSeconds(u Unit) float64 { return seconds[u] }

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
	// MinusOne: the source writes -1 for a number it has no value of
	// (EdgeOne's integers): -1 is absent, not a negative duration or a
	// status. Such a binding takes the general setters' path.
	MinusOne bool
	// Outcome: the name holds a call's outcome where a status is, a
	// word or an error's message as well as a number (statusOfText).
	// Such a binding takes the general setters' path.
	Outcome bool
	// UUIDv7: the value is a UUIDv7, whose first 48 bits are the Unix
	// time in ms it was made at, read as the record's time
	// (uuidV7Time); another value gives no time, and leaves the line
	// good. Such a binding takes the general setters' path.
	UUIDv7 bool
}

// Stamp reports whether b reads a log service's time of the record
// beside the log's own fields (CLS's __TIMESTAMP__), which claims no
// field: it is held apart (Record.putStamp), and Finish makes it the
// time of a record that has no other, or whose own it refines
// (takeStamp). Told by its priority, which no other binding has, not by
// a flag of its own: a binding of six bytes is copied in one move less
// than one of seven, on every value every reader sets (a flag made
// reading Parquet a row at a time 11 % slower).
func (b Binding) Stamp() bool { return b.Prio == prioStamp }

// Part reports whether b reads one of a source's phases of a duration,
// which add up to it (sourceField's unitPhaseMs): the record's field is
// the sum of the phases it carries (Record.addPart). Told by its
// priority, which no other binding has, as Stamp is.
func (b Binding) Part() bool { return b.Prio == prioPart }

// general reports whether b's values are read only by the general
// setters (Record.Set): a source's -1, its outcome words, its ids, or
// its phases of a duration.
func (b Binding) general() bool { return b.MinusOne || b.Outcome || b.UUIDv7 || b.Part() }

// generic reports whether b is SPEC §3's canonical name of its field or
// one of its aliases: no source's name, nor a --map.
func (b Binding) generic() bool { return b.Prio >= prioCanonical && b.Prio < prioDerived }

// Bindings is the set of canonical fields one source column feeds (most
// feed one; none means the column is ignored).
type Bindings []Binding

// alias is one source name of a canonical field, in the spelling the
// programs that write it use. A name with a unit matches that spelling
// only: "Duration" (Traefik, ns) never borrows the unit of "duration"
// (Envoy, ms).
type alias struct {
	name string
	unit Unit
}

// aliases lists SPEC §3's "also read from" names, best first. The
// canonical name itself always comes before them. Names that mean
// different things to different programs (Traefik's Duration, LiteLLM's
// status) are not here but in the source table (sources.go).
var aliases = map[Field][]alias{
	FTime: {{stampName, UnitMilli}, {"time_local", 0}, {"time_iso8601", 0},
		{"msec", UnitSecond}, {"timestamp", 0}, {"@timestamp", 0}, {"start_time", 0},
		{"startTime", 0}, {"RequestTime", 0}, {"created_at", 0}, {"StartUTC", 0},
		// Azure Log Analytics' time of every row of every table.
		{"TimeGenerated", 0},
		// Go's zap (epoch s with a fraction, or ISO 8601), go-kit's and
		// Loki's logfmt: the time of a structured log's line.
		{"ts", 0},
		// Alibaba Cloud SLS's time of a log (epoch s), after the log's
		// own names.
		{"__time__", 0},
		// Fluent Bit's time of a record in its JSON outputs (file,
		// stdout, http, s3: json_date_key), epoch s with a fraction or
		// ISO 8601, when the record has no time of its own.
		{"date", 0}},
	FClient: {{"app_id", 0}, {"appid", 0}, {"api_key_id", 0}, {"ApiKeyId", 0},
		{"secret_id", 0}, {"uin", 0}, {"app_code", 0}, {"token_name", 0}, {"consumer", 0},
		{"remote_user", 0}},
	// The caller's address before the host a log service names as the
	// record's source (CLS's __SOURCE__, SLS's __source__: the machine
	// its agent read the log on).
	FRemoteAddr:   {{"client_ip", 0}, {"cip", 0}, {"__SOURCE__", 0}},
	FClientRegion: {{"__TAG__.client_region", 0}, {"caller_region", 0}},
	FRegion:       {{"__TAG__.region", 0}, {"server_region", 0}, {"endpoint_region", 0}},
	FModel: {{"model_id", 0}, {"ModelName", 0}, {"model_name", 0}, {"llm_model", 0},
		{"ai_log.model", 0}},
	FStream: {{"llm_stream", 0}, {"is_stream", 0}, {"response_type", 0}, {"request_type", 0}},
	FStatus: {{"response_code", 0}, {"rsp_st", 0}, {"DownstreamStatus", 0},
		// Node's res.statusCode, gin-logrus' statusCode.
		{"statusCode", 0}},

	FMethod:  {{"request_method", 0}}, // nginx's $request_method
	FURI:     {{"request_uri", 0}, {"path", 0}, {"RequestPath", 0}},
	FRequest: {{"req", 0}},
	FRequestTime: {{"req_t", 0}, {"reqtime", UnitSecond}, {"duration", UnitMilli}, {"request_duration", UnitMilli},
		{"request_duration_ms", UnitMilli}, {"llm_service_duration", UnitMilli},
		{"ai_log.llm_service_duration", UnitMilli},
		// Tengine's $request_time in ms and µs (its request_time_cache).
		{"request_time_msec", UnitMilli}, {"request_time_usec", UnitMicro}},
	FUpstreamResponseTime: {{"ups_rsp_t", 0}, {"upstream_service_time", UnitMilli}, {"apptime", UnitSecond}},
	FUpstreamConnectTime:  {{"ups_conn_t", 0}},
	FUpstreamHeaderTime:   {{"ups_head_t", 0}},
	FTTFT: {{"first_token_ms", 0}, {"ttft_ms", 0}, {"llm_first_token_duration", 0},
		{"ai_log.llm_first_token_duration", 0}, {"llm_time_to_first_token", 0},
		{"time_to_first_token", 0}},
	FTCPInfoRTT: {{"tcp_rtt", 0}},
	// Tengine's $ssl_handshake_time_msec, whole ms
	// (src/event/ngx_event_openssl.c ngx_ssl_get_handshake_time_msec).
	FSSLHandshakeTime: {{"ssl_handshake_time_msec", UnitMilli}},
	FRetryAfter:       {{"Retry-After", 0}, {"http_retry_after", 0}},
	FPromptTokens: {{"input_token", 0}, {"InputToken", 0}, {"llm_prompt_tokens", 0},
		{"ai_log.input_token", 0}},
	FCompletionTokens: {{"output_token", 0}, {"OutputToken", 0}, {"llm_completion_tokens", 0},
		{"ai_log.output_token", 0}},
	FDNSTime:        {{"dns_ms", 0}},
	FTCPConnectTime: {{"connect_ms", 0}},
	FTLSTime:        {{"tls_ms", 0}},
	FTTFB:           {{"first_byte_ms", 0}, {"time_to_first_byte", 0}},
	FHost:           {{"http_host", 0}, {"server_name", 0}},
}

// stampName is CLS's name of the time it gave a log, epoch ms
// (Binding.Stamp): first of the time's names in SPEC §3, read as the
// time of a record with no other.
const stampName = "__TIMESTAMP__"

// Priorities: lower wins when several names set one field of a record.
const (
	prioMapped    = 0   // --map
	prioSource    = 1   // the detected source's own names, best first
	prioPart      = 63  // a source's phases of a duration, after its own names (Binding.Part)
	prioCanonical = 64  // the canonical names
	prioAlias     = 65  // the generic aliases, best first
	prioStamp     = 253 // a log service's time beside the log's own (Binding.Stamp)
	prioDerived   = 255 // fields derived in Record.Finish
)

// entry is what one lower-cased name feeds.
type entry struct {
	plain Bindings // whatever the name's case
	// ignored: a source's name that feeds nothing, whatever its last
	// segment would feed as a nested object's own name.
	ignored bool
	// spelled are the bindings of names with a unit, which match only
	// their own spelling; each holds plain's bindings too.
	spelled []spelling
}

type spelling struct {
	name string
	b    Bindings
}

// mapping is one parsed --map override.
type mapping struct {
	field Field
	name  string // lower case
	unit  Unit
	// generic, when set, changes only what the name feeds field by one
	// of SPEC §3's aliases (Binding.generic), nothing else:
	// genericDrop leaves it unread, genericUnit reads it in unit
	// (Schema.without).
	generic uint8
}

// mapping.generic's changes.
const (
	genericDrop = 1 + iota
	genericUnit
)

// Schema maps source column names (case-insensitive) to canonical fields.
// It is built once and shared read-only by every parser. The schema of a
// source (ForSource) adds that program's names to the generic ones.
type Schema struct {
	byName map[string]*entry
	// prefixes holds the parents of dotted names ("ai_log" for
	// "ai_log.model"), so that nested objects are only walked when
	// useful: bit f for each field a name below binds.
	prefixes map[string]uint64
	maps     []mapping
	source   *source // nil for the generic schema
	client   string  // the one name client is read from; "" for any

	mu      sync.Mutex
	derived map[string]*Schema // by source and client name, on the generic schema
	root    *Schema
}

// NewSchema returns the built-in schema with the --map overrides applied.
// Each override is "canonical=source[:unit]".
func NewSchema(maps []string) (*Schema, error) {
	var ms []mapping
	for _, m := range maps {
		canon, source, ok := strings.Cut(m, "=")
		if !ok || canon == "" || source == "" {
			return nil, fmt.Errorf("%q is not canonical=source[:unit]", m)
		}
		f, ok := FieldByName(strings.ToLower(canon))
		if !ok || f == FRequest && canon != "request" {
			return nil, fmt.Errorf("%q is not a canonical field", canon)
		}
		var unit Unit
		if name, u, hasUnit := strings.Cut(source, ":"); hasUnit {
			if unit, ok = parseUnit(u); !ok {
				return nil, fmt.Errorf("unknown unit %q in %q (want s, ms, us or ns)", u, m)
			}
			if k := fields[f].kind; k != KindFloat && k != KindTime {
				return nil, fmt.Errorf("%s is not a number, it takes no unit", canon)
			}
			source = name
		}
		ms = append(ms, mapping{field: f, name: strings.ToLower(source), unit: unit})
	}
	s := build(ms, nil, "")
	s.root = s
	return s, nil
}

// build makes the schema of one source (nil: generic) whose client is
// read from the name client only ("": any client name).
func build(maps []mapping, src *source, client string) *Schema {
	s := &Schema{byName: map[string]*entry{}, prefixes: map[string]uint64{}, maps: maps, source: src, client: client}
	for f := Field(0); f < NumFields; f++ {
		if f == FKind {
			continue // a source's names only
		}
		s.add(fields[f].name, Binding{Field: f, Prio: prioCanonical}, false)
		for i, a := range aliases[f] {
			b := Binding{Field: f, Unit: a.unit, Prio: uint8(prioAlias + i)}
			if a.unit == UnitNone {
				s.add(a.name, b, false)
				continue
			}
			if fields[f].kind == KindTime {
				// An epoch is read in the unit its size tells (SPEC
				// §3), under any spelling: the alias's unit is what
				// its writers use most (__TIMESTAMP__ in ms, µs in
				// some exports), which the size tells alike in the
				// years a time is read in. One binding, so that a
				// value is read once.
				b.Unit = UnitNone
				if a.name == stampName {
					b.Prio = prioStamp
				}
				s.add(a.name, b, false)
				continue
			}
			s.add(a.name, b, true)
		}
	}
	if src != nil {
		// The source's names mean what the source says, whatever the
		// generic table says of them.
		for _, sf := range src.fields {
			delete(s.byName, strings.ToLower(sf.name))
		}
		for i, sf := range src.fields {
			if sf.field == ignored {
				s.byName[strings.ToLower(sf.name)] = &entry{ignored: true}
				continue
			}
			b := Binding{Field: sf.field, Unit: sf.unit, Prio: uint8(prioSource + i), MinusOne: src.minusOne}
			switch sf.unit {
			case unitUUIDv7:
				b.Unit, b.UUIDv7 = UnitNone, true
			case unitOutcome:
				b.Unit, b.Outcome = UnitNone, true
			case unitPhaseMs:
				b.Unit, b.Prio = UnitMilli, prioPart
			}
			s.add(sf.name, b, false)
		}
	}
	if client != "" {
		s.keepClient(client)
	}
	for _, m := range maps {
		if m.generic != 0 {
			if e := s.byName[m.name]; e != nil {
				e.plain = m.changeGeneric(e.plain)
				for i := range e.spelled {
					e.spelled[i].b = m.changeGeneric(e.spelled[i].b)
				}
			}
			continue
		}
		// The mapping replaces what the name fed into this field before,
		// and the time and request_time it fed unmapped: a value of the
		// field mapped that is no time, or no duration, would make each
		// record bad there (--map request_time=time, for a log whose
		// "time" is the request's). Whatever else it feeds stays.
		e := s.byName[m.name]
		if e == nil {
			e = &entry{}
			s.byName[m.name] = e
		}
		replaced := func(b Binding) bool {
			return b.Field == m.field || b.Prio != prioMapped && (b.Field == FTime || b.Field == FRequestTime)
		}
		e.plain = without(e.plain, replaced)
		for i := range e.spelled {
			e.spelled[i].b = without(e.spelled[i].b, replaced)
		}
		s.add(m.name, Binding{Field: m.field, Unit: m.unit, Prio: prioMapped}, false)
	}
	return s
}

// changeGeneric returns bs, in an array of its own, with m's change made
// to its generic binding of m.field.
func (m mapping) changeGeneric(bs Bindings) Bindings {
	generic := func(b Binding) bool { return b.Field == m.field && b.generic() }
	if m.generic == genericDrop {
		return without(bs, generic)
	}
	bs = slices.Clone(bs)
	for i := range bs {
		if generic(bs[i]) {
			bs[i].Unit = m.unit
		}
	}
	return bs
}

// without is bs without the bindings drop reports, in an array of its
// own.
func without(bs Bindings, drop func(Binding) bool) Bindings {
	return slices.DeleteFunc(slices.Clone(bs), drop)
}

// keepClient drops every client binding but the one of name, so that one
// file never mixes two sources of client (SPEC §3).
func (s *Schema) keepClient(name string) {
	name = strings.ToLower(name)
	isClient := func(b Binding) bool { return b.Field == FClient }
	for n, e := range s.byName {
		if n == name || strings.HasPrefix(n, name+".") {
			continue
		}
		e.plain = without(e.plain, isClient)
		for i := range e.spelled {
			e.spelled[i].b = without(e.spelled[i].b, isClient)
		}
	}
}

// add binds name. A spelled binding matches name's exact spelling only;
// a plain one matches it in any case, under every spelling too.
func (s *Schema) add(name string, b Binding, spelled bool) {
	lower := strings.ToLower(name)
	e := s.byName[lower]
	if e == nil {
		e = &entry{}
		s.byName[lower] = e
	}
	if spelled {
		i := 0
		for i < len(e.spelled) && e.spelled[i].name != name {
			i++
		}
		if i == len(e.spelled) {
			e.spelled = append(e.spelled, spelling{name: name, b: append(Bindings(nil), e.plain...)})
		}
		e.spelled[i].b = append(e.spelled[i].b, b)
	} else {
		e.plain = append(e.plain, b)
		for i := range e.spelled {
			e.spelled[i].b = append(e.spelled[i].b, b)
		}
	}
	for i := strings.LastIndexByte(lower, '.'); i > 0; i = strings.LastIndexByte(lower[:i], '.') {
		s.prefixes[lower[:i]] |= 1 << b.Field
	}
}

// Lookup returns the bindings of a source column name. It does not
// allocate for ASCII names up to 64 bytes.
func (s *Schema) Lookup(name []byte) Bindings {
	var buf [64]byte
	return s.byName[string(lowerName(&buf, name))].bindings(name)
}

// bindings are what name, spelled so, feeds: nothing for a nil entry.
func (e *entry) bindings(name []byte) Bindings {
	if e == nil {
		return nil
	}
	for i := range e.spelled {
		if e.spelled[i].name == string(name) {
			return e.spelled[i].b
		}
	}
	return e.plain
}

// lowerName returns name lower-cased as strings.ToLower does, as the
// schema's names are stored: in buf when name is ASCII and fits, else in
// a new slice (a non-ASCII letter has a lower case too).
func lowerName(buf *[64]byte, name []byte) []byte {
	if len(name) > len(buf) {
		return []byte(strings.ToLower(string(name)))
	}
	lower := buf[:len(name)]
	for i, c := range name {
		if c >= utf8.RuneSelf {
			return []byte(strings.ToLower(string(name)))
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return lower
}

// lookupPath is Lookup for a nested value's dotted path; ignored reports
// that the source names the path to feed nothing.
func (s *Schema) lookupPath(path []byte) (b Bindings, ignored bool) {
	var buf [64]byte
	e := s.byName[string(lowerName(&buf, path))]
	return e.bindings(path), e != nil && e.ignored
}

// LookupString is Lookup for a string name.
func (s *Schema) LookupString(name string) Bindings {
	return s.Lookup([]byte(name))
}

// IsPrefix reports whether name is the parent of some dotted source name,
// so a nested object under it is worth walking.
func (s *Schema) IsPrefix(name []byte) bool {
	var buf [64]byte
	_, ok := s.prefixes[string(lowerName(&buf, name))]
	return ok
}

// prefixFields returns, of a dotted names' parent, a bit for each field
// a name below it binds.
func (s *Schema) prefixFields(name []byte) uint64 {
	var buf [64]byte
	return s.prefixes[string(lowerName(&buf, name))]
}

// Source returns the name of the source the schema is for, "" for the
// generic one.
func (s *Schema) Source() string {
	if s.source == nil {
		return ""
	}
	return s.source.name
}

// derive returns the schema of src (nil: generic) reading client from
// the name client only, built once per pair and shared.
func (s *Schema) derive(src *source, client string) *Schema {
	root := s.root
	if root == nil {
		root = s
	}
	if src == nil && client == "" {
		return root
	}
	key := client
	if src != nil {
		key = src.name + "\x00" + client
	}
	return s.cached(key, func(root *Schema) *Schema { return build(root.maps, src, client) })
}

// without returns s with the names refused left unread as request_time
// by SPEC §3's generic names, or read in the unit their values are
// written in (implausibleDurations); s itself for none.
func (s *Schema) without(refused []Refused) *Schema {
	for _, r := range refused {
		m := mapping{field: FRequestTime, name: strings.ToLower(r.Name), generic: genericDrop}
		if r.ReadIn != UnitNone {
			m.generic, m.unit = genericUnit, r.ReadIn
		}
		s = s.withMapped(m)
	}
	return s
}

// cached returns the schema derived from s that key names, made by mk
// (given the root) the first time: every schema derived from one root
// is built once and shared, under the root's lock.
func (s *Schema) cached(key string, mk func(root *Schema) *Schema) *Schema {
	root := s.root
	if root == nil {
		root = s
	}
	root.mu.Lock()
	defer root.mu.Unlock()
	if d := root.derived[key]; d != nil {
		return d
	}
	d := mk(root)
	d.root = root
	if root.derived == nil {
		root.derived = map[string]*Schema{}
	}
	root.derived[key] = d
	return d
}
