package ingest

// Envoy's format strings: command operators between percent signs
// (%START_TIME%, %REQ(:METHOD)%, %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%),
// literal text around them. They compile to the same segments as an nginx
// log_format; the operators Envoy's and Istio's default formats use are
// bound to canonical fields with their units.

import "strings"

// envoyOperators binds the command operators of Envoy's and Istio's
// default formats. Envoy writes %DURATION% and the upstream service time
// in milliseconds.
var envoyOperators = map[string]varSpec{
	"START_TIME":                          {field: FTime, bound: true},
	"REQ(:METHOD)":                        {field: FMethod, bound: true},
	"REQ(X-ENVOY-ORIGINAL-PATH?:PATH)":    {field: FURI, bound: true},
	"REQ(:PATH)":                          {field: FURI, bound: true},
	"RESPONSE_CODE":                       {field: FStatus, bound: true},
	"DURATION":                            {field: FRequestTime, unit: UnitMilli, bound: true},
	"RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)": {field: FUpstreamResponseTime, unit: UnitMilli, bound: true},
	// From the request's start to the first byte read from the
	// upstream (ms): when the upstream's response began, as nginx's
	// $upstream_header_time tells it. RESPONSE_TX_DURATION, the rest to
	// the last byte sent, is DURATION less it.
	"RESPONSE_DURATION": {field: FUpstreamHeaderTime, unit: UnitMilli, bound: true},
	"UPSTREAM_HOST":     {field: FUpstreamAddr, bound: true},
	// The peer's address beats the X-Forwarded-For list when a format
	// has both (Istio's).
	"DOWNSTREAM_REMOTE_ADDRESS":              {field: FRemoteAddr, bound: true, how: howHostPort},
	"DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT": {field: FRemoteAddr, bound: true},
	"REQ(X-FORWARDED-FOR)":                   {field: FRemoteAddr, bound: true, how: howFirstItem, prio: 1},
	// Kuma's: the source's address, the caller's, as its
	// documentation's example logs it ("source_address").
	"KUMA_SOURCE_ADDRESS_WITHOUT_PORT": {field: FRemoteAddr, bound: true},
}

// hasEnvoyOperator reports whether s holds an Envoy command operator.
func hasEnvoyOperator(s string) bool {
	for i := strings.IndexByte(s, '%'); i >= 0; {
		if _, n := envoyOperator(s[i:]); n > 0 {
			return true
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// envoyOperator reads the operator at the start of s ("%NAME%",
// "%NAME(arg)%", "%NAME(arg):N%"); n is its length, 0 when s does not
// start with one. Envoy's names are words: a single letter between
// percent signs is not one (Apache's "%U%q" is two directives).
func envoyOperator(s string) (op string, n int) {
	if len(s) < 3 || s[0] != '%' || !(s[1] >= 'A' && s[1] <= 'Z') {
		return "", 0
	}
	j := 1
	for j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == '_') {
		j++
	}
	if j < 3 {
		return "", 0
	}
	if j < len(s) && s[j] == '(' {
		k := strings.IndexByte(s[j:], ')')
		if k < 0 {
			return "", 0
		}
		j += k + 1
	}
	if j < len(s) && s[j] == ':' {
		k := j + 1
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j+1 {
			return "", 0
		}
		j = k
	}
	if j >= len(s) || s[j] != '%' {
		return "", 0
	}
	return s[1:j], j + 1
}

// envoyTokens splits an Envoy format string into literals and operators.
// A percent sign that starts no operator is literal text.
func envoyTokens(s string) ([]formatToken, error) {
	var toks []formatToken
	var lit []byte
	for i := 0; i < len(s); {
		op, n := envoyOperator(s[i:])
		if n == 0 {
			lit = append(lit, s[i])
			i++
			continue
		}
		if len(lit) > 0 {
			toks = append(toks, formatToken{lit: string(lit)})
			lit = lit[:0]
		}
		toks = append(toks, formatToken{name: op, lookup: envoyLookupName(op), envoy: true, col: i + 1})
		i += n
	}
	if len(lit) > 0 {
		toks = append(toks, formatToken{lit: string(lit)})
	}
	return toks, nil
}

// envoyLookupName is the name the schema knows an operator by: a header's
// name in snake case for %REQ(X-Model)% ("x_model"), else the operator's
// name ("duration").
func envoyLookupName(op string) string {
	name := op
	if i := strings.IndexByte(op, '('); i > 0 {
		arg := strings.TrimSuffix(op[i+1:], ")")
		if j := strings.IndexByte(arg, ')'); j >= 0 {
			arg = arg[:j]
		}
		switch op[:i] {
		case "REQ", "RESP", "TRAILER":
			if k := strings.Index(arg, "?"); k >= 0 {
				arg = arg[:k]
			}
			name = strings.TrimPrefix(arg, ":")
		default:
			name = op[:i]
		}
	}
	return strings.ReplaceAll(strings.ToLower(name), "-", "_")
}
