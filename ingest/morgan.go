package ingest

// morgan, the request logger of Express (Node.js): a format string of
// tokens after a colon (":method :url :status :response-time ms"),
// literal text around them (morgan's compile: a token is ":" and two or
// more of [-\w], then an optional "[argument]"; a token with no value
// writes "-"). Its predefined formats dev, tiny and short are known by
// the shape of their lines (knownFormats); combined and common are
// Apache's, read as nginx's combined and common. A format of the user's
// own, given with --log-format, compiles to the same segments as an
// nginx log_format.
//
// :response-time is milliseconds with three decimals, from the request's
// arrival to the response's headers (res._startAt, taken when the
// headers are written): the whole request for a response written at
// once, the time to its first byte for a streamed one. :total-time
// (morgan 1.10) runs to the response's end: with it in the format, it is
// request_time and :response-time ttfb. :date is "Tue, 10 Oct 2000
// 13:55:36 GMT" (:date[web], the default), :date[clf] "10/Oct/2000:13:55:36
// +0000", :date[iso] "2000-10-10T13:55:36.000Z". dev writes its status
// between terminal colour escapes ("\x1b[32m200\x1b[0m"), whose colour
// follows the status.

import (
	"fmt"
	"strings"
)

// morganSpecs bind morgan's tokens. :remote-user is read by the schema
// as remote_user; :http-version, :referrer and :user-agent feed nothing
// (their names are seen); a header's token is read by the schema by
// its name in snake case (:req[x-model] as x_model).
var morganSpecs = map[string]varSpec{
	"method":               {field: FMethod, bound: true},
	"url":                  {field: FURI, bound: true},
	"status":               {field: FStatus, bound: true},
	"response-time":        {field: FRequestTime, unit: UnitMilli, bound: true},
	"total-time":           {field: FRequestTime, unit: UnitMilli, bound: true},
	"remote-addr":          {field: FRemoteAddr, bound: true},
	"http-version":         {none: true},
	"date[clf]":            {field: FTime, bound: true},
	"date[iso]":            {field: FTime, bound: true},
	"date[web]":            {field: FTime, bound: true},
	"req[x-forwarded-for]": {field: FRemoteAddr, bound: true, how: howFirstItem, prio: 2},
	"req[host]":            {field: FHost, bound: true},
	"req[x-request-id]":    {none: true},
	"res[retry-after]":     {field: FRetryAfter, bound: true},
	"res[content-length]":  {none: true},
	"colour":               {none: true},
}

// morganTokenNames are the tokens morgan defines (index.js): a format
// with any other token throws where it is used, and writes no line.
var morganTokenNames = map[string]string{
	"method": "request_method", "url": "uri", "status": "status", "response-time": "request_time",
	"total-time": "request_time", "remote-addr": "remote_addr", "remote-user": "remote_user",
	"http-version": "http_version", "referrer": "http_referer", "user-agent": "user_agent",
	"date": "time", "req": "", "res": "",
}

// morganToken returns the token that starts s (":method", ":res[x]"):
// its name, its argument and its length; n is 0 when s starts none.
func morganToken(s string) (name, arg string, n int) {
	if len(s) < 3 || s[0] != ':' {
		return "", "", 0
	}
	j := 1
	for j < len(s) && (isVarChar(s[j]) || s[j] == '-') {
		j++
	}
	if j < 3 {
		return "", "", 0
	}
	name, n = s[1:j], j
	if j < len(s) && s[j] == '[' {
		if k := strings.IndexByte(s[j:], ']'); k > 1 {
			arg, n = s[j+1:j+k], j+k+1
		}
	}
	return name, arg, n
}

// hasMorganToken reports whether s holds one of morgan's tokens.
func hasMorganToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if name, _, n := morganToken(s[i:]); n > 0 {
			if _, ok := morganTokenNames[name]; ok {
				return true
			}
			i += n - 1
		}
	}
	return false
}

// morganTokens splits a morgan format string into literals and tokens.
// A terminal colour escape ("\x1b[32m") is a literal around a value
// that feeds nothing, since its colour varies (dev's follows the
// status). :date without an argument is :date[web]; :date[local] (the
// machine's locale) is not read.
func morganTokens(s string) ([]formatToken, error) {
	var l tokenList
	total := strings.Contains(s, ":total-time")
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+2 < len(s) && s[i+1] == '[' {
			if k := strings.IndexByte(s[i:], 'm'); k > 2 && strings.Trim(s[i+2:i+k], "0123456789;") == "" {
				l.lit = append(l.lit, "\x1b["...)
				l.item(formatToken{name: "colour", own: true, spec: morganSpecs["colour"], col: i + 1})
				l.lit = append(l.lit, 'm')
				i += k + 1
				continue
			}
		}
		name, arg, n := morganToken(s[i:])
		if n == 0 {
			l.lit = append(l.lit, s[i])
			i++
			continue
		}
		lookup, ok := morganTokenNames[name]
		if !ok {
			return nil, fmt.Errorf("%q: :%s at column %d is not one of morgan's tokens (%s)", s, name, i+1, morganTokenList())
		}
		full := name
		switch name {
		case "req", "res":
			if arg == "" {
				return nil, fmt.Errorf("%q: :%s at column %d names no header (:%s[header])", s, name, i+1, name)
			}
			full = name + "[" + strings.ToLower(arg) + "]"
			lookup = strings.ReplaceAll(strings.ToLower(arg), "-", "_")
		case "date":
			switch arg {
			case "", "web", "clf", "iso":
			default:
				return nil, fmt.Errorf("%q: :date[%s] at column %d is not read (want :date[clf], :date[iso] or :date[web])", s, arg, i+1)
			}
			if arg == "" {
				arg = "web"
			}
			full = "date[" + arg + "]"
		}
		spec, own := morganSpecs[full]
		if name == "response-time" && total {
			spec = varSpec{field: FTTFB, unit: UnitMilli, bound: true}
		}
		l.item(formatToken{name: full, lookup: lookup, own: own, spec: spec, col: i + 1,
			zoned: full == "date[clf]", web: full == "date[web]"})
		i += n
	}
	return l.done(), nil
}

// morganTokenList names morgan's tokens, for an error.
func morganTokenList() string {
	return ":method :url :status :response-time :total-time :remote-addr :remote-user :http-version :referrer :user-agent :date :req[header] :res[header]"
}
