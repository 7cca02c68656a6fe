package ingest

// Apache httpd's LogFormat strings (mod_log_config): directives after a
// percent sign (%h, %>s, %D, %{User-Agent}i, %{ms}T, %^FB), literal text
// around them. Given with --log-format, they compile to the same segments
// as an nginx log_format; the directives that carry the request's time
// and status are bound to canonical fields with their units: %D
// microseconds, %T seconds (%{ms}T, %{us}T, %{s}T as they say), %^FB
// (mod_logio's time to the first byte) microseconds. Apache writes %t
// between brackets ("[10/Oct/2000:13:55:36 -0700]"), nginx's $time_local
// inside them.

import (
	"fmt"
	"html"
	"strings"
)

// apacheDirectives binds the directives of the access logs users keep.
// %u is the authenticated user, which the schema reads as remote_user;
// %l (identd) and %k (keep-alive requests, counted from 0 where nginx's
// connection_requests counts from 1) feed nothing.
var apacheDirectives = map[string]varSpec{
	"h":                       {field: FRemoteAddr, bound: true},
	"a":                       {field: FRemoteAddr, bound: true},
	"{c}a":                    {field: FRemoteAddr, bound: true, prio: 1},
	"{X-Forwarded-For}i":      {field: FRemoteAddr, bound: true, how: howFirstItem, prio: 2},
	"l":                       {none: true},
	"k":                       {none: true},
	"t":                       {field: FTime, bound: true},
	"r":                       {field: FRequest, bound: true},
	">s":                      {field: FStatus, bound: true},
	"s":                       {field: FStatus, bound: true, prio: 1},
	"<s":                      {field: FStatus, bound: true, prio: 2},
	"m":                       {field: FMethod, bound: true},
	"U":                       {field: FURI, bound: true},
	"D":                       {field: FRequestTime, unit: UnitMicro, bound: true},
	"T":                       {field: FRequestTime, unit: UnitSecond, bound: true},
	"{s}T":                    {field: FRequestTime, unit: UnitSecond, bound: true},
	"{ms}T":                   {field: FRequestTime, unit: UnitMilli, bound: true},
	"{us}T":                   {field: FRequestTime, unit: UnitMicro, bound: true},
	"^FB":                     {field: FTTFB, unit: UnitMicro, bound: true},
	"v":                       {field: FHost, bound: true, prio: 1},
	"V":                       {field: FHost, bound: true},
	"{Host}i":                 {field: FHost, bound: true, prio: 2},
	"{Retry-After}o":          {field: FRetryAfter, bound: true},
	"{X-Request-Id}i":         {none: true},
	"{BALANCER_WORKER_NAME}e": {field: FUpstreamAddr, bound: true},
}

// hasApacheDirective reports whether s holds an Apache directive that
// only Apache's format strings have: the request line, the status, the
// time, the remote host or a time taken.
func hasApacheDirective(s string) bool {
	toks, err := apacheTokens(s)
	if err != nil {
		return false
	}
	for _, t := range toks {
		switch t.name {
		case "h", "a", "t", "r", ">s", "s", "D", "T", "{ms}T", "{us}T", "{s}T":
			return true
		}
	}
	return false
}

// apacheTokens splits an Apache LogFormat into literals and directives:
// "%%" is a percent sign; a directive is "%", optional modifiers (a
// status list "!400,501", "<" or ">"), an optional "{argument}", and its
// letter, or "^" and two letters. A directive's name keeps "<" and ">"
// and the argument ("{ms}T", ">s"); the status list is dropped. %t,
// unless it has an argument, is read with the brackets Apache writes
// around it; "%U%q", the path and its query, is one uri.
func apacheTokens(s string) ([]formatToken, error) {
	s = joinApacheTime(s)
	var l tokenList
	logback := false
	err := percentItems(s, &l, func(i, start int) (int, error) {
		var name strings.Builder
		for i < len(s) && (s[i] == '!' || s[i] == ',' || s[i] >= '0' && s[i] <= '9') {
			i++ // a condition on the status: the value is logged or "-"
		}
		if i < len(s) && (s[i] == '<' || s[i] == '>') {
			name.WriteByte(s[i])
			i++
		}
		if i < len(s) && s[i] == '{' {
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return 0, fmt.Errorf("%q: the argument of the directive at column %d is not closed by }", s, start+1)
			}
			name.WriteString(s[i : i+j+1])
			i += j + 1
		}
		switch {
		case i+2 < len(s) && s[i] == '^' && isLetter(s[i+1]) && isLetter(s[i+2]):
			name.WriteString(s[i : i+3])
			i += 3
		case i < len(s) && s[i] == 'i' && name.Len() == 0 && i+1 < len(s) && s[i+1] == '{':
			// logback-access's request header, "%i{User-Agent}": its
			// conversion word, then its option (qos-ch/logback
			// logback-access PatternLayout.java, COMBINED_PATTERN), where
			// Apache writes "%{User-Agent}i".
			j := strings.IndexByte(s[i+1:], '}')
			if j < 0 {
				return 0, fmt.Errorf("%q: the argument of the directive at column %d is not closed by }", s, start+1)
			}
			name.WriteString(s[i+1 : i+2+j])
			name.WriteByte('i')
			i += j + 2
			logback = true
		case i < len(s) && isLetter(s[i]):
			name.WriteByte(s[i])
			i++
		default:
			return 0, fmt.Errorf("%q: no directive letter after the %% at column %d", s, start+1)
		}
		n := name.String()
		if n == "q" && len(l.lit) == 0 && len(l.toks) > 0 && l.toks[len(l.toks)-1].name == "U" {
			// "%U%q": the path and its query string, one uri.
			return i, nil
		}
		// Apache writes "[10/Oct/2000:13:55:36 -0700]": nginx's
		// $time_local between brackets; Jetty, whose %{FORMAT}t takes a
		// Java pattern, writes any time so (CustomRequestLog's
		// logRequestTime).
		bracketed := n == "t" || strings.HasPrefix(n, "{") && strings.HasSuffix(n, "}t") && isJavaTime(n[1:len(n)-2])
		if n == "t" && len(l.lit) > 0 && l.lit[len(l.lit)-1] == '[' && i < len(s) && s[i] == ']' {
			// logback-access's "[%t]": its %t writes the date alone
			// (DateConverter, "dd/MMM/yyyy:HH:mm:ss Z"), its patterns
			// the brackets around it (PatternLayout.java, CLF_PATTERN
			// "%h %l %u [%t] \"%r\" %s %b"), where Apache's %t has them.
			bracketed, logback = false, true
		}
		if bracketed {
			l.lit = append(l.lit, '[')
		}
		l.item(formatToken{name: n, lookup: apacheLookupName(n), apache: true, col: start + 1})
		if bracketed {
			l.lit = append(l.lit, ']')
		}
		return i, nil
	})
	if err != nil {
		return nil, err
	}
	toks := l.done()
	if logback {
		for k := range toks {
			toks[k].logback = true
		}
	}
	return toks, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// apacheLookupName is the name the schema knows a directive by: a
// header's or a variable's name in snake case for %{User-Agent}i
// ("user_agent"), the canonical names for the directives bound here
// (so that --map may name them so), else the directive itself.
func apacheLookupName(n string) string {
	switch n {
	case "t":
		return "time_local" // read as nginx's, fast
	case "u":
		return "remote_user"
	case "r":
		return "request"
	case "D", "T", "{s}T", "{ms}T", "{us}T":
		return "request_time"
	}
	if strings.HasPrefix(n, "{") && strings.HasSuffix(n, "}t") {
		return "time" // a time in a format of its own (strftime.go)
	}
	if i := strings.IndexByte(n, '{'); i >= 0 {
		if j := strings.IndexByte(n, '}'); j > i {
			return strings.ReplaceAll(strings.ToLower(n[i+1:j]), "-", "_")
		}
	}
	return n
}

// hasApacheToken reports whether toks hold one of Apache's directives.
func hasApacheToken(toks []formatToken) bool {
	for _, t := range toks {
		if t.apache {
			return true
		}
	}
	return false
}

// apacheConfFormat returns the format an Apache LogFormat copied from
// httpd.conf gives, and whether s is one: the directive whole
// (`LogFormat "%h %l %u %t \"%r\" %>s %b" common`, its nickname
// dropped), its quoted string, or the text within the quotes, whose
// quotes httpd.conf escapes (`%h %t \"%r\" %>s %D`), as its manual
// writes them. httpd reads the quoted string with \" and \\ unescaped
// (ap_getword_conf); an nginx format (a $variable) is none of these.
func apacheConfFormat(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if strings.Contains(t, "$") {
		return s, false
	}
	if strings.Contains(t, "&quot;") {
		// Tomcat's AccessLogValve pattern as server.xml writes it,
		// pattern="%h %l %u %t &quot;%r&quot; %s %b %D": XML's
		// entities. (Its %D is ms before Tomcat 10, µs since: the
		// format does not say which, README.)
		if f := html.UnescapeString(t); apacheOnly(f) {
			return f, true
		}
	}
	if rest, ok := cutWordFold(t, "LogFormat"); ok {
		t = strings.TrimSpace(rest)
		if !strings.HasPrefix(t, `"`) {
			// Unquoted: one word (a format without spaces).
			if i := strings.IndexAny(t, " \t"); i >= 0 {
				t = t[:i]
			}
			return t, true
		}
	}
	if strings.HasPrefix(t, `"`) {
		if f, ok := confQuoted(t); ok && apacheOnly(f) {
			return f, true
		}
		return s, false
	}
	if f := strings.ReplaceAll(strings.ReplaceAll(t, `\\`, `\`), `\"`, `"`); strings.Contains(t, `\"`) && apacheOnly(f) {
		return f, true
	}
	return s, false
}

// apacheOnly reports whether format f is Apache's and no other
// program's whose items begin with '%' (Envoy's, HAProxy's, gunicorn's).
func apacheOnly(f string) bool {
	return hasApacheDirective(f) && !hasEnvoyOperator(f) && !hasHAProxyAlias(f) && !hasGunicornAtom(f)
}

// cutWordFold returns s after its first word when that is word, in any
// case, followed by a blank.
func cutWordFold(s, word string) (string, bool) {
	if len(s) <= len(word) || !strings.EqualFold(s[:len(word)], word) || s[len(word)] != ' ' && s[len(word)] != '\t' {
		return s, false
	}
	return s[len(word)+1:], true
}

// confQuoted returns the double-quoted string s begins with, \" and \\
// unescaped, and whether it is closed.
func confQuoted(s string) (string, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			b.WriteByte(s[i+1])
			i++
		case c == '"':
			return b.String(), true
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}
