package ingest

// gunicorn's access log (the access_log_format setting, --access-logformat
// on its command line): a Python %-format over a mapping of atoms,
// '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"' by
// default. Given with --log-format, it compiles to the same segments as
// an nginx log_format. The atoms are those gunicorn/glogging.py fills
// (Logger.atoms), read with their units: %(D)s the request's time in
// microseconds, %(M)s in milliseconds (truncated), %(L)s in seconds with
// six decimals, %(T)s in whole seconds (truncated); %(t)s is
// time.strftime('[%d/%b/%Y:%H:%M:%S %z]'), brackets included, the
// server's local time with its zone. gunicorn writes "-" for an atom it
// has no value for, and a double quote inside a value as \".

import (
	"fmt"
	"strings"
)

// gunicornAtoms binds the atoms of gunicorn's access log. %(u)s is read
// by the schema as remote_user, %(a)s and %(f)s as user_agent and
// referer; %(l)s is always "-", %(b)s and %(B)s the bytes sent, %(p)s
// the worker's "<pid>", %(q)s the query string (%(U)s, the uri, is the
// path without it), %(H)s the protocol.
var gunicornAtoms = map[string]varSpec{
	"h": {field: FRemoteAddr, bound: true},
	"l": {none: true},
	"t": {field: FTime, bound: true},
	"r": {field: FRequest, bound: true},
	"s": {field: FStatus, bound: true},
	"m": {field: FMethod, bound: true},
	"U": {field: FURI, bound: true},
	"q": {none: true},
	"H": {none: true},
	"b": {none: true},
	"B": {none: true},
	"p": {none: true},
	// The request's time: the exact ones first.
	"D": {field: FRequestTime, unit: UnitMicro, bound: true},
	"L": {field: FRequestTime, unit: UnitSecond, bound: true, prio: 1},
	"M": {field: FRequestTime, unit: UnitMilli, bound: true, prio: 2},
	"T": {field: FRequestTime, unit: UnitSecond, bound: true, prio: 3},
	// Headers (lower case, as gunicorn keys them) and what Apache's
	// directives of the same headers feed.
	"{x-forwarded-for}i": {field: FRemoteAddr, bound: true, how: howFirstItem, prio: 2},
	"{host}i":            {field: FHost, bound: true},
	"{x-request-id}i":    {none: true},
	"{retry-after}o":     {field: FRetryAfter, bound: true},

	// Hypercorn's atoms beyond gunicorn's (its docs' how_to_guides/logging.rst
	// and logging.py's AccessLogAtoms): %(R)s the request line and %(Uq)s
	// the path with the query, %(st)s the status's phrase, %(S)s the
	// scheme.
	"R":  {field: FRequest, bound: true, prio: 1},
	"Uq": {field: FURI, bound: true, prio: 1},
	"st": {none: true},
	"S":  {none: true},
}

// gunicornNames are the names the schema knows the atoms by, for --map
// and the fields it reads by name.
var gunicornNames = map[string]string{
	"h": "remote_addr", "u": "remote_user", "t": "time_local", "r": "request", "s": "status",
	"m": "request_method", "U": "uri", "q": "query_string", "H": "server_protocol",
	"b": "body_bytes_sent", "B": "bytes_sent", "f": "http_referer", "a": "user_agent",
	"D": "request_time", "L": "request_time", "M": "request_time", "T": "request_time", "p": "pid", "l": "ident",
	"R": "request", "Uq": "uri", "st": "status_phrase", "S": "scheme",
}

// hasGunicornAtom reports whether s holds one of gunicorn's atoms as its
// format writes them: "%(h)s", "%({x-forwarded-for}i)s", the name of an
// atom between parentheses and a conversion after them, then no letter
// or digit. HAProxy's named items ("%(client_ip)ci") are followed by
// an alias; its formats name no item after one of gunicorn's atoms.
func hasGunicornAtom(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if s[i+1] == '%' {
			i++
			continue
		}
		if s[i+1] != '(' {
			continue
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return false
		}
		name, rest := s[i+2:i+j], s[i+j+1:]
		if !isGunicornAtom(name) || rest == "" || strings.IndexByte("sdi", rest[0]) < 0 {
			continue
		}
		if len(rest) == 1 || !isAlnum(rest[1]) {
			return true
		}
	}
	return false
}

// isGunicornAtom reports whether name is one of the atoms gunicorn fills.
func isGunicornAtom(name string) bool {
	if _, ok := gunicornNames[name]; ok {
		return true
	}
	return gunicornKeyed(name) != ""
}

// gunicornKeyed returns the header's or variable's name of a keyed atom
// ("{x-forwarded-for}i"), "" when name is not one.
func gunicornKeyed(name string) string {
	n := len(name)
	if n < 4 || name[0] != '{' || name[n-2] != '}' || strings.IndexByte("ioe", name[n-1]) < 0 {
		return ""
	}
	return name[1 : n-2]
}

// gunicornTokens splits a gunicorn access_log_format into literals and
// atoms as Python's % operator reads it: "%%" is a percent sign; an
// atom is "%(name)" and a conversion, s (or d and i for the numbers);
// any other "%" is an error in Python, and gunicorn then writes no line.
// A keyed atom's name is lower case, as gunicorn looks it up. %(t)s
// writes the brackets around the date: they are literals here.
func gunicornTokens(s string) ([]formatToken, error) {
	var l tokenList
	err := percentItems(s, &l, func(i, start int) (int, error) {
		if i >= len(s) || s[i] != '(' {
			return 0, fmt.Errorf("%q: the %% at column %d starts no atom (%%(name)s; %%%% writes a percent sign)", s, start+1)
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return 0, fmt.Errorf("%q: the name of the atom at column %d is not closed by )", s, start+1)
		}
		name := s[i+1 : i+j]
		i += j + 1
		if i >= len(s) || strings.IndexByte("sdi", s[i]) < 0 {
			return 0, fmt.Errorf("%q: the atom %%(%s) at column %d has no conversion s after it", s, name, start+1)
		}
		i++
		if key := gunicornKeyed(name); key != "" {
			name = strings.ToLower(name)
		}
		if !isGunicornAtom(name) {
			return 0, fmt.Errorf("%q: %%(%s)s at column %d is not one of gunicorn's atoms (h l u t r m U q H s B b f a T M D L p, {header}i, {header}o, {variable}e; Hypercorn's R Uq st S)",
				s, name, start+1)
		}
		if name == "t" {
			l.lit = append(l.lit, '[')
		}
		lookup := gunicornNames[name]
		if key := gunicornKeyed(name); key != "" {
			lookup = strings.ReplaceAll(key, "-", "_")
		}
		spec, own := gunicornAtoms[name]
		l.item(formatToken{name: name, lookup: lookup, own: own, spec: spec, col: start + 1})
		if name == "t" {
			l.lit = append(l.lit, ']')
		}
		return i, nil
	})
	if err != nil {
		return nil, err
	}
	return l.done(), nil
}

// hypercornLogged compiles s, a gunicorn access_log_format, as Hypercorn
// writes its lines (Hypercorn takes gunicorn's atoms, --access-logformat):
// behind the line its logger writes before each (hypercornPrefix), whose
// time is the record's when the format has no %(t)s, its %(h)s the
// client's "ip:port" (hypercorn/logging.py, AccessLogAtoms). Without it,
// a format given was read on none of Hypercorn's lines, which nginx's
// combined read instead, its address slot taking the logger's line in,
// and the format's request time was lost.
func hypercornLogged(s string, schema *Schema) (*logFormat, error) {
	s, _, err := confLogFormat(s)
	if err != nil {
		return nil, err
	}
	toks, err := gunicornTokens(withoutLineEnd(s))
	if err != nil {
		return nil, err
	}
	for i := range toks {
		if toks[i].name == "h" {
			toks[i].spec.how = howHostPort
		}
	}
	lead := "] [INFO] "
	if len(toks) > 0 && toks[0].name == "" {
		lead, toks = lead+toks[0].lit, toks[1:]
	}
	pre := []formatToken{{lit: "["},
		{name: "hypercorn_time", lookup: "hypercorn_time", own: true, spec: varSpec{field: FTime, bound: true, prio: 1}},
		{lit: "] ["}, {name: "hypercorn_pid", lookup: "hypercorn_pid", own: true, spec: varSpec{none: true}},
		{lit: lead}}
	return gunicornFormat(append(pre, toks...), "hypercorn", schema)
}

// gunicornFormat builds the format of gunicorn's tokens toks, of source
// source: a double quote inside a value is written \" (gunicorn's and
// Hypercorn's atoms escape it).
func gunicornFormat(toks []formatToken, source string, schema *Schema) (*logFormat, error) {
	f := &logFormat{source: source}
	if err := f.build(toks, nil, false, schema); err != nil {
		return nil, err
	}
	for k := range f.vars {
		f.vars[k].escQuote = true
	}
	return f, nil
}
