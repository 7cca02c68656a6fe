package ingest

// HAProxy's custom log formats (the log-format directive, its
// configuration manual's 8.2.6): aliases after a percent sign (%ci, %tr,
// %Ta, %ST, %{+Q}r), sample expressions between brackets
// (%[capture.req.hdr(0)]), literal text around them. Given with
// --log-format, they compile to the same segments as an nginx
// log_format, and the lines are read as the HTTP log's reader reads its
// own (haproxy.go): the timers are milliseconds, "-1" (a step never
// reached) and "+…" (option logasap) absent; %Ta request_time, or %Tt
// when there is no %Ta; %Tc upstream_connect_time, %Tr
// upstream_header_time; upstream_response_time is Ta − TR − Tw (or
// Tt − Tq − Tw, the same); %b/%s is upstream_addr, "<NOSRV>" absent;
// "<BADREQ>" no request. A syslog header before the line is skipped.
//
// As HAProxy writes a line, the spaces of its format are separators: a
// run of them is one space, none at the start; an item that writes
// nothing (%hr and %hs without captures, %HQ without a query) takes no
// separator after it either.

import (
	"bytes"
	"fmt"
	"strings"
)

// The timers Ta − TR − Tw is derived from (nginxVar.slot), and their
// older spelling Tt − Tq − Tw.
const (
	slotNone = iota
	slotTa
	slotTR
	slotTw
	slotTt
	slotTq
	numSlots
)

// hapAlias is how one of HAProxy's aliases is read.
type hapAlias struct {
	name   string // the column's name: the report's fields seen, --map
	spec   varSpec
	quoted bool // +Q writes it between quotes
	zoned  bool // a date with its zone after a space ("06/Feb/2009:12:14:14 +0000")
	timer  bool // milliseconds; --map does not rename it (TR and Tr are two timers)
	hex    bool // +X writes it in hexadecimal
}

// hapNone is an alias read as a text column: it feeds nothing.
var hapNone = varSpec{none: true}

// timer is a timer alias: ms, "-1" and "+…" absent.
func timer(name string, f Field, prio, slot uint8) hapAlias {
	s := varSpec{none: true, slot: slot}
	if f != ignored {
		s = varSpec{field: f, unit: UnitMilli, bound: true, prio: prio, how: howHAPNumber, slot: slot}
	}
	return hapAlias{name: name, spec: s, timer: true}
}

// haproxyAliases are the aliases of HAProxy's manual (8.2.6), and the ten
// spellings HAProxy 2.5 dropped (Ci, Cp, …), read alike. The field
// names are the manual's, as the HTTP log's reader names its columns.
var haproxyAliases = map[string]hapAlias{
	"ci": {name: "client_ip", quoted: true, hex: true, spec: varSpec{field: FRemoteAddr, bound: true}},
	"cp": {name: "client_port", hex: true, spec: hapNone},
	"fi": {name: "frontend_ip", quoted: true, hex: true, spec: hapNone},
	"fp": {name: "frontend_port", hex: true, spec: hapNone},
	"bi": {name: "backend_source_ip", quoted: true, hex: true, spec: hapNone},
	"bp": {name: "backend_source_port", hex: true, spec: hapNone},
	"si": {name: "server_ip", quoted: true, hex: true, spec: varSpec{field: FUpstreamAddr, bound: true, prio: 2}},
	"sp": {name: "server_port", hex: true, spec: hapNone},
	// The request's date is the record's time; the accept date (earlier
	// by the idle time of a kept-alive connection) when it is all there
	// is. %t and %tr have no zone: --tz applies.
	"tr":   {name: "request_date", spec: varSpec{field: FTime, bound: true}},
	"trg":  {name: "request_date_utc", zoned: true, spec: varSpec{field: FTime, bound: true, prio: 1}},
	"trl":  {name: "request_date_local", zoned: true, spec: varSpec{field: FTime, bound: true, prio: 1}},
	"t":    {name: "accept_date", spec: varSpec{field: FTime, bound: true, prio: 2}},
	"T":    {name: "accept_date_utc", zoned: true, spec: varSpec{field: FTime, bound: true, prio: 3}},
	"Tl":   {name: "accept_date_local", zoned: true, spec: varSpec{field: FTime, bound: true, prio: 3}},
	"Ts":   {name: "accept_timestamp", hex: true, spec: varSpec{field: FTime, unit: UnitSecond, bound: true, prio: 4}},
	"ms":   {name: "accept_date_ms", hex: true, spec: hapNone},
	"Ta":   timer("Ta", FRequestTime, 0, slotTa),
	"Tt":   timer("Tt", FRequestTime, 1, slotTt),
	"TR":   timer("TR", ignored, 0, slotTR),
	"Tq":   timer("Tq", ignored, 0, slotTq),
	"Tw":   timer("Tw", ignored, 0, slotTw),
	"Tc":   timer("Tc", FUpstreamConnectTime, 0, slotNone),
	"Tr":   timer("Tr", FUpstreamHeaderTime, 0, slotNone),
	"Th":   timer("Th", ignored, 0, slotNone),
	"Ti":   timer("Ti", ignored, 0, slotNone),
	"Td":   timer("Td", ignored, 0, slotNone),
	"Tu":   timer("Tu", ignored, 0, slotNone),
	"ST":   {name: "status_code", spec: varSpec{field: FStatus, bound: true, how: howHAPNumber}},
	"B":    {name: "bytes_read", spec: hapNone},
	"U":    {name: "bytes_uploaded", spec: hapNone},
	"CC":   {name: "captured_request_cookie", quoted: true, spec: hapNone},
	"CS":   {name: "captured_response_cookie", quoted: true, spec: hapNone},
	"hr":   {name: "captured_request_headers", spec: varSpec{none: true, lead: '{'}},
	"hs":   {name: "captured_response_headers", spec: varSpec{none: true, lead: '{'}},
	"hrl":  {name: "captured_request_headers_list", spec: hapNone},
	"hsl":  {name: "captured_response_headers_list", spec: hapNone},
	"r":    {name: "http_request", quoted: true, spec: varSpec{field: FRequest, bound: true, how: howHAPRequest}},
	"HM":   {name: "http_method", quoted: true, spec: varSpec{field: FMethod, bound: true, how: howHAPRequest}},
	"HU":   {name: "http_uri", quoted: true, spec: varSpec{field: FURI, bound: true, how: howHAPRequest}},
	"HP":   {name: "http_path", quoted: true, spec: varSpec{field: FURI, bound: true, prio: 1, how: howHAPRequest}},
	"HPO":  {name: "http_path_only", quoted: true, spec: varSpec{field: FURI, bound: true, prio: 2, how: howHAPRequest}},
	"HQ":   {name: "http_query", quoted: true, spec: varSpec{none: true, lead: '?'}},
	"HV":   {name: "http_version", quoted: true, spec: hapNone},
	"ID":   {name: "unique_id", quoted: true, spec: hapNone},
	"H":    {name: "hostname", quoted: true, spec: hapNone},
	"f":    {name: "frontend_name", quoted: true, spec: hapNone},
	"ft":   {name: "frontend_name_transport", quoted: true, spec: hapNone},
	"b":    {name: "backend_name", quoted: true, spec: hapNone},
	"s":    {name: "server_name", quoted: true, spec: varSpec{field: FUpstreamAddr, bound: true, prio: 1, how: howHAPServer}},
	"ts":   {name: "termination_state", spec: hapNone},
	"tsc":  {name: "termination_state_cookie", spec: hapNone},
	"ac":   {name: "actconn", spec: hapNone},
	"fc":   {name: "feconn", spec: hapNone},
	"bc":   {name: "beconn", spec: hapNone},
	"sc":   {name: "srv_conn", spec: hapNone},
	"rc":   {name: "retries", spec: hapNone},
	"sq":   {name: "srv_queue", spec: hapNone},
	"bq":   {name: "backend_queue", spec: hapNone},
	"rt":   {name: "request_counter", hex: true, spec: hapNone},
	"lc":   {name: "frontend_log_counter", spec: hapNone},
	"pid":  {name: "pid", hex: true, spec: hapNone},
	"OG":   {name: "log_origin", quoted: true, spec: hapNone},
	"sslc": {name: "ssl_ciphers", quoted: true, spec: hapNone},
	"sslv": {name: "ssl_version", quoted: true, spec: hapNone},
}

func init() {
	for old, now := range map[string]string{"Ci": "ci", "Cp": "cp", "Fi": "fi", "Fp": "fp", "Bi": "bi",
		"Bp": "bp", "Si": "si", "Sp": "sp", "cc": "CC", "cs": "CS", "st": "ST"} {
		haproxyAliases[old] = haproxyAliases[now]
	}
}

// The merged items: "%ci:%cp" is the client's address and port, as the
// HTTP log's reader reads them (an IPv6 address is written without
// brackets: "2001:db8::7:40000"), and "%si:%sp" the server's; "%b/%s"
// the backend and server (upstream_addr); "%HP%HQ" the path and its
// query, one uri; "%Ts.%ms" the accept date to the millisecond.
var (
	hapClientPort    = hapAlias{name: "client_ip", spec: varSpec{field: FRemoteAddr, bound: true, how: howHostPort}}
	hapServerPort    = hapAlias{name: "server_ip", spec: varSpec{field: FUpstreamAddr, bound: true, prio: 2, how: howHostPort}}
	hapBackendServer = hapAlias{name: "server_name", spec: varSpec{field: FUpstreamAddr, bound: true, how: howHAPServer}}
	hapPathQuery     = hapAlias{name: "http_path_query", spec: varSpec{field: FURI, bound: true, prio: 1, how: howHAPRequest}}
	hapTimestampMS   = hapAlias{name: "accept_timestamp", spec: varSpec{field: FTime, unit: UnitSecond, bound: true, prio: 4}}
)

// hasHAProxyAlias reports whether s holds what only HAProxy's formats
// have: an alias of two letters or more ("%ci", "%Ta", "%ST"; not %Ts,
// which an Apache LogFormat may write for %T and an "s"), a sample
// expression ("%[…]"), an item's name ("%(name)") or a flag ("%{+Q}").
// Strings whose items are all one letter (%t %s %b %B %T) are Apache's;
// Envoy's operators ("%DURATION%ms") are passed over.
func hasHAProxyAlias(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if op, n := envoyOperator(s[i:]); n > 0 {
			if _, ok := haproxyAliases[op]; !ok {
				i += n - 1
				continue
			}
		}
		i++
		if i < len(s) && s[i] == '%' {
			continue
		}
		if i < len(s) && s[i] == '(' {
			return true
		}
		if i < len(s) && s[i] == '{' {
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return false
			}
			for _, a := range strings.Split(s[i+1:i+j], ",") {
				if a != "" && (a[0] == '+' || a[0] == '-') {
					return true
				}
			}
			i += j + 1
		}
		if i < len(s) && s[i] == '[' {
			return true
		}
		j := i
		for j < len(s) && isAlnum(s[j]) {
			j++
		}
		if name := s[i:j]; len(name) >= 2 && name != "Ts" {
			if _, ok := haproxyAliases[name]; ok {
				return true
			}
		}
		i = j - 1
	}
	return false
}

func isAlnum(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }

// hapFlags are the flags of an item: %o's for every item after it, then
// the item's own.
type hapFlags struct{ quote, hex bool }

// hapItem is an item of an HAProxy format while it is split.
type hapItem struct {
	tok    formatToken
	alias  string // as written, "" for a sample expression
	quoted bool
}

// haproxyTokens splits an HAProxy log-format string into literals and
// items as HAProxy's configuration parser does (lf_expr_compile): "%%" is
// a percent sign; an item is "%", an optional name "(…)", optional
// flags "{+Q,-X}", then an alias (letters and digits) or a sample
// expression "[…]"; a "%" followed by anything else is dropped. A
// backslash before a space, a quote or a backslash is what the
// configuration file escapes them with ("%ci\ [%tr]"). The +Q flag
// writes the strings between quotes: they become literal quotes around
// the item. An item's name is its column's; a sample expression's is its
// text, and the schema reads it by the header or variable it fetches
// ("req.hdr(User-Agent)" as user_agent).
func haproxyTokens(s string) ([]formatToken, error) {
	var items []hapItem
	var lit []byte
	var global hapFlags
	space := true // HAProxy writes no separator at the start
	flush := func() {
		if len(lit) > 0 {
			items = append(items, hapItem{tok: formatToken{lit: string(lit)}})
			lit = lit[:0]
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			if !space {
				lit = append(lit, ' ')
				space = true
			}
			i++
			continue
		case c == '\\' && i+1 < len(s) && strings.IndexByte(` "'\#`, s[i+1]) >= 0:
			if s[i+1] == ' ' {
				i++
				continue // the space, as any other
			}
			lit = append(lit, s[i+1])
			space = false
			i += 2
			continue
		case c != '%':
			lit = append(lit, c)
			space = false
			i++
			continue
		}
		start := i
		i++
		if i < len(s) && s[i] == '%' {
			lit = append(lit, '%')
			space = false
			i++
			continue
		}
		if i < len(s) && s[i] == '(' {
			j := strings.IndexByte(s[i:], ')')
			if j < 0 {
				return nil, fmt.Errorf("%q: the name of the item at column %d is not closed by )", s, start+1)
			}
			i += j + 1
		}
		flags, hasFlags := global, false
		if i < len(s) && s[i] == '{' {
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return nil, fmt.Errorf("%q: the flags of the item at column %d are not closed by }", s, start+1)
			}
			var err error
			if flags, err = hapParseFlags(s, s[i+1:i+j], start, flags); err != nil {
				return nil, err
			}
			i += j + 1
			hasFlags = true
		}
		var it hapItem
		switch {
		case i < len(s) && s[i] == '[':
			end, err := sampleEnd(s, i, start)
			if err != nil {
				return nil, err
			}
			expr := s[i+1 : end]
			it = hapItem{tok: formatToken{name: expr, lookup: sampleLookup(expr), own: true, col: start + 1}, quoted: true}
			i = end + 1
		case i < len(s) && isLetter(s[i]) || hasFlags && i < len(s) && isAlnum(s[i]):
			j := i
			for j < len(s) && isAlnum(s[j]) {
				j++
			}
			name := s[i:j]
			i = j
			if name == "o" {
				global = flags // %o: the flags of every item after it
				continue
			}
			a, ok := haproxyAliases[name]
			if !ok {
				return nil, fmt.Errorf("%q: %%%s at column %d is not an alias of HAProxy's log-format (%%%% writes a percent sign)", s, name, start+1)
			}
			// An address or number in hexadecimal is not quoted.
			it = hapItem{tok: hapToken(a, flags, start), alias: name, quoted: a.quoted && !(a.hex && flags.hex)}
		case hasFlags:
			return nil, fmt.Errorf("%q: the flags at column %d are followed by no alias", s, start+1)
		case i >= len(s) || s[i] == ' ' || s[i] == '\t' || s[i] >= '0' && s[i] <= '9':
			return nil, fmt.Errorf("%q: the %% at column %d starts no alias (%%%% writes a percent sign)", s, start+1)
		default:
			continue // HAProxy drops a "%" before any other byte
		}
		it.quoted = it.quoted && flags.quote
		if it.quoted {
			lit = append(lit, '"')
		}
		flush()
		var err error
		if items, err = hapAppend(items, it, s); err != nil {
			return nil, err
		}
		if it.quoted {
			lit = append(lit, '"')
		}
		space = false
	}
	flush()
	toks := make([]formatToken, len(items))
	for i, it := range items {
		toks[i] = it.tok
	}
	return toks, nil
}

// hapToken is the token of alias a read with flags.
func hapToken(a hapAlias, flags hapFlags, start int) formatToken {
	t := formatToken{name: a.name, lookup: a.name, own: true, zoned: a.zoned, spec: a.spec, col: start + 1}
	if a.timer {
		t.lookup = "" // --map does not rename it
	}
	if a.hex && flags.hex {
		t.spec = hapNone // hexadecimal: no number or address this reads
	}
	return t
}

// hapParseFlags applies the flags of args ("+Q,-X") to flags. The
// encodings of a whole line are refused as text formats: JSON lines are
// read as such, the format's named items as --map overrides
// (HAProxyJSONMaps), CBOR not at all.
func hapParseFlags(s, args string, start int, flags hapFlags) (hapFlags, error) {
	for _, a := range strings.Split(args, ",") {
		if len(a) < 2 || a[0] != '+' && a[0] != '-' {
			continue // HAProxy ignores what is not a flag
		}
		on := a[0] == '+'
		switch a[1:] {
		case "Q":
			flags.quote = on
		case "X":
			flags.hex = on
		case "json":
			if on {
				return flags, fmt.Errorf("%q: the +json flag at column %d writes JSON, which is read as JSON lines by its items' names (HAProxyJSONMaps), not as text", s, start+1)
			}
		case "cbor":
			if on {
				return flags, fmt.Errorf("%q: the +cbor flag at column %d writes CBOR, which is not read", s, start+1)
			}
		}
	}
	return flags, nil
}

// hapAppend appends item it to items: "%ci:%cp", "%si:%sp", "%b/%s",
// "%HP%HQ" and "%Ts.%ms" become one item; two other items without text
// between them are refused, as their values cannot be told apart.
func hapAppend(items []hapItem, it hapItem, s string) ([]hapItem, error) {
	n := len(items)
	if n >= 2 && it.plain() && items[n-2].plain() {
		prev, sep := items[n-2], items[n-1].tok.lit
		merged := hapAlias{}
		switch {
		case prev.alias == "ci" && it.alias == "cp" && sep == ":":
			merged = hapClientPort
		case prev.alias == "si" && it.alias == "sp" && sep == ":":
			merged = hapServerPort
		case prev.alias == "b" && it.alias == "s" && sep == "/":
			merged = hapBackendServer
		case prev.alias == "Ts" && it.alias == "ms" && sep == ".":
			merged = hapTimestampMS
		}
		if merged.name != "" {
			items[n-2].tok = hapToken(merged, hapFlags{}, items[n-2].tok.col-1)
			items[n-2].alias = prev.alias + sep + "%" + it.alias
			return items[:n-1], nil
		}
	}
	if n >= 1 && items[n-1].tok.name != "" {
		prev := items[n-1]
		if prev.alias == "HP" && it.alias == "HQ" && prev.plain() && it.plain() {
			items[n-1].tok = hapToken(hapPathQuery, hapFlags{}, prev.tok.col-1)
			items[n-1].alias = "HP%HQ"
			return items, nil
		}
		return nil, fmt.Errorf("%q: %s and %s are not separated by any text, so their values cannot be told apart",
			s, prev.written(), it.written())
	}
	return append(items, it), nil
}

// plain reports whether it is an alias read as it is, neither quoted nor
// in hexadecimal, nor merged already.
func (it hapItem) plain() bool {
	a, ok := haproxyAliases[it.alias]
	return ok && !it.quoted && it.tok.spec == a.spec
}

// written is the item as its format writes it.
func (it hapItem) written() string {
	if it.alias == "" {
		return "%[" + it.tok.name + "]"
	}
	return "%" + it.alias
}

// sampleEnd returns the index of the "]" that closes the sample
// expression opening at s[open]: the first one outside the parentheses
// and quotes of its fetch's and converters' arguments.
func sampleEnd(s string, open, start int) (int, error) {
	depth := 0
	var quote byte
	for j := open + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == '\\' {
				j++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			if depth > 0 {
				quote = c
			}
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case c == ']' && depth == 0:
			if j == open+1 {
				return 0, fmt.Errorf("%q: the sample expression at column %d is empty", s, start+1)
			}
			return j, nil
		}
	}
	return 0, fmt.Errorf("%q: the sample expression at column %d is not closed by ]", s, start+1)
}

// sampleLookup is the name the schema knows a sample expression by: a
// header's name in snake case for the header fetches
// ("req.hdr(X-Model)" is x_model, as a --map or the schema's names read
// it), a variable's name for var() ("var(txn.model)" is model), else the
// expression without its converters.
func sampleLookup(expr string) string {
	fetch := expr
	depth := 0
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				fetch = expr[:i]
				i = len(expr)
			}
		}
	}
	name, arg, hasArg := strings.Cut(fetch, "(")
	arg, _, _ = strings.Cut(strings.TrimSuffix(arg, ")"), ",")
	arg = strings.Trim(arg, `'" `)
	if hasArg && arg != "" {
		switch name {
		case "req.hdr", "req.fhdr", "hdr", "fhdr", "res.hdr", "res.fhdr", "shdr", "sfhdr":
			return strings.ReplaceAll(strings.ToLower(arg), "-", "_")
		case "var":
			if _, v, ok := strings.Cut(arg, "."); ok {
				return v
			}
		}
	}
	return fetch
}

// hapHeader returns how long the syslog header before an HAProxy line
// is, 0 when there is none, and the header's time when it has a whole
// one: RFC 5424's and RFC 3164's (syslogHeader), HAProxy's own "log …
// format" headers ("<134>" of short and priority, the RFC 3339 time of
// timed and iso, local's RFC 3164 without a host), and rsyslog's file
// format (an RFC 3339 time, the host and the tag).
func hapHeader(line []byte) (n int, stamp []byte) {
	if msg, st, ok := syslogHeader(line); ok {
		return len(line) - len(msg), st
	}
	rest := line
	if len(rest) > 2 && rest[0] == '<' {
		if i := bytes.IndexByte(rest[:min(len(rest), 5)], '>'); i >= 2 && allDigits(rest[1:i]) {
			rest = rest[i+1:]
		}
	}
	if k := stampLen(rest); k > 0 {
		stamp, rest = rest[:k], syslogTag(rest[k+1:])
	} else if k := bsdDateLen(rest); k > 0 {
		if after := syslogTag(rest[k:]); len(after) < len(rest)-k {
			rest = after
		}
	}
	return len(line) - len(rest), stamp
}

// bsdDateLen returns the length of the RFC 3164 date that begins b with
// the spaces after it ("Feb  6 12:14:14 "), 0 when it does not begin
// with one.
func bsdDateLen(b []byte) int {
	if len(b) < 16 || !isMonth(b[:3]) || b[3] != ' ' {
		return 0
	}
	i := 4
	if b[i] == ' ' {
		i++
	}
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	if i+10 > len(b) || b[i] != ' ' || b[i+3] != ':' || b[i+6] != ':' || b[i+9] != ' ' ||
		!isDigit(b[i+1]) || !isDigit(b[i+2]) || !isDigit(b[i+8]) {
		return 0
	}
	return i + 10
}

// syslogTag returns b after "HOST TAG: " or "TAG: " ("haproxy[14389]: "),
// b itself when it does not start with them. A host is a word of
// letters, digits and ".-_:"; a tag one of letters, digits and ".-_/",
// with a process id between brackets or not.
func syslogTag(b []byte) []byte {
	tagEnd := func(w []byte) int {
		i := 0
		for i < len(w) && (isAlnum(w[i]) || strings.IndexByte(".-_/", w[i]) >= 0) {
			i++
		}
		if i == 0 {
			return -1
		}
		if i < len(w) && w[i] == '[' {
			j := i + 1
			for j < len(w) && isDigit(w[j]) {
				j++
			}
			if j == i+1 || j >= len(w) || w[j] != ']' {
				return -1
			}
			i = j + 1
		}
		if i+1 < len(w) && w[i] == ':' && w[i+1] == ' ' {
			return i + 2
		}
		return -1
	}
	if k := tagEnd(b); k > 0 {
		return b[k:]
	}
	h := 0
	for h < len(b) && (isAlnum(b[h]) || strings.IndexByte(".-_:", b[h]) >= 0) {
		h++
	}
	if h > 0 && h < len(b) && b[h] == ' ' {
		if k := tagEnd(b[h+1:]); k > 0 {
			return b[h+1+k:]
		}
	}
	return b
}

// slotted reads a timer Ta − TR − Tw is derived from: its text is kept
// for hapEnd, and set when it is bound.
func (p *nginxParser) slotted(v *nginxVar, line []byte, i int, r *Record) (next int, err error) {
	end, next, _, err := v.match(line, i, p.f.lenient, false)
	if err != nil {
		return 0, err
	}
	val := hapTimer(line[i:end])
	p.slots[v.slot] = val
	if val != nil && len(v.bind) > 0 {
		if err := v.put.set(r, val, p.loc, &p.clock); err != nil {
			return 0, err
		}
	}
	return next, nil
}

// optional reads an item HAProxy writes nothing for at times: captured
// headers ("{…}", which may hold spaces; "\"{…}\"" with +Q) when none
// are configured, a query ("?…") when the request has none. Written, a
// query is read as any value (ok false); not written, the separator
// after it is not either when one came before it.
func (p *nginxParser) optional(v *nginxVar, line []byte, i int, r *Record) (next int, ok bool, err error) {
	j := i
	if v.lead == '{' && j+1 < len(line) && line[j] == '"' && line[j+1] == '{' {
		j++
	}
	if j < len(line) && line[j] == v.lead {
		if v.lead != '{' {
			return 0, false, nil
		}
		k := bytes.IndexByte(line[j:], '}')
		if k < 0 {
			return 0, true, fmt.Errorf("captured headers at column %d not closed by }", j+1)
		}
		end := j + k + 1
		if j > i {
			if end >= len(line) || line[end] != '"' {
				return 0, true, mismatch(line, end, quote)
			}
			end++
		}
		next = end
		if len(v.next) > 0 {
			if !v.find.at(line, end) {
				return 0, true, mismatch(line, end, v.next)
			}
			next += len(v.next)
		}
		if len(v.bind) > 0 {
			if err := v.put.set(r, line[i:end], p.loc, &p.clock); err != nil {
				return 0, true, err
			}
		}
		return next, true, nil
	}
	if v.skipSep {
		rest := v.next[1:]
		if !bytes.HasPrefix(line[i:], rest) {
			return 0, true, mismatch(line, i, rest)
		}
		return i + len(rest), true, nil
	}
	return 0, false, nil
}

var quote = []byte{'"'}

// hapEnd finishes a record of an HAProxy format: upstream_response_time
// derived from the timers, and the syslog header's time when the line
// has none of its own.
func (p *nginxParser) hapEnd(r *Record, stamp []byte) error {
	if p.f.derive {
		ta, tr := p.slots[slotTa], p.slots[slotTR]
		if ta == nil || tr == nil {
			ta, tr = p.slots[slotTt], p.slots[slotTq]
		}
		from := len(p.scratch)
		var ok bool
		if p.scratch, ok = appendUpstream(p.scratch, ta, tr, p.slots[slotTw]); ok {
			if err := r.Set(hapOwn[hapUpstream], p.scratch[from:len(p.scratch):len(p.scratch)], p.loc); err != nil {
				return err
			}
		}
	}
	if stamp != nil && !r.Has(FTime) {
		// A bad time here is no reason to refuse the record.
		_ = r.Set(stampBinding, stamp, p.loc)
	}
	return nil
}

// hapDerives reports whether the vars of a format hold the timers
// upstream_response_time is derived from: Tw, and Ta and TR or Tt and
// Tq.
func hapDerives(vars []nginxVar) bool {
	var has [numSlots]bool
	for _, v := range vars {
		has[v.slot] = true
	}
	return has[slotTw] && (has[slotTa] && has[slotTR] || has[slotTt] && has[slotTq])
}
