package ingest

import (
	"bytes"
	"net/http"
	"strings"
)

// The tracing platforms (LangSmith, Langfuse, Braintrust) write no HTTP
// status: a run's outcome is a word (LangSmith's status "success" or
// "error", Langfuse's level DEFAULT or ERROR) and a failed call's the
// text of its exception, which names the status when the provider
// answered with one: the Python SDKs of OpenAI and Anthropic raise
// "Error code: 429 - {…}", their Node SDKs "429 Rate limit reached…",
// httpx "Client error '429 Too Many Requests' for url …", Go's clients
// "…: 503 Service Unavailable". statusOfText reads both; a failure whose
// text names no status (a time-out, a refused connection) has none, and
// is counted unreadable, not as a success.

// successWords are the outcomes of a call that ended well: LangSmith's
// status, Langfuse's levels but ERROR, and OpenTelemetry's span status
// codes but ERROR, as Phoenix writes them (UNSET: no error recorded).
var successWords = []string{"success", "DEFAULT", "DEBUG", "WARNING", "OK", "UNSET"}

// statusLeads are the phrases after which a message writes the HTTP
// status (lower case; a space, ':' or '=' may follow each).
var statusLeads = []string{"error code", "status code", "status_code", "statuscode", "status", "http"}

// maxOutcomeText bounds how much of a message is looked through.
const maxOutcomeText = 4096

// statusOfText returns the HTTP status an outcome val stands for: 200
// for a word of success, else the status its message names.
func statusOfText(val []byte) (float64, bool) {
	for _, w := range successWords {
		if len(val) == len(w) && strings.EqualFold(string(val), w) {
			return 200, true
		}
	}
	val = val[:min(len(val), maxOutcomeText)]
	if code, ok := leadingStatus(val); ok {
		return code, true
	}
	if code, ok := sdkErrorStatus(val); ok {
		return code, true
	}
	low := bytes.ToLower(val)
	for _, lead := range statusLeads {
		for at := 0; ; {
			i := bytes.Index(low[at:], []byte(lead))
			if i < 0 {
				break
			}
			start := at + i
			at = start + len(lead)
			if start > 0 && (isLetter(low[start-1]) || low[start-1] == '_') {
				continue // another word's end: "upstream_status"
			}
			if code, ok := statusAfter(low[at:]); ok {
				return code, true
			}
		}
	}
	return phrasedStatus(val)
}

// leadingStatus reads a message that begins with a status of failure,
// as the Node SDKs write theirs ("429 Rate limit reached…"), after an
// exception's name and colon when there is one.
func leadingStatus(val []byte) (float64, bool) {
	if i := bytes.Index(val, []byte(": ")); i > 0 && bytes.IndexByte(val[:i], ' ') < 0 {
		val = val[i+2:]
	}
	code, ok := threeDigits(val)
	if !ok || code < 400 || len(val) < 4 || val[3] != ' ' {
		return 0, false
	}
	return code, true
}

// statusAfter reads the status right after a lead: past spaces, one ':'
// or '=', a quote, and spaces.
func statusAfter(b []byte) (float64, bool) {
	i := 0
	for i < len(b) && b[i] == ' ' {
		i++
	}
	if i < len(b) && (b[i] == ':' || b[i] == '=') {
		i++
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '"' || b[i] == '\'') {
		i++
	}
	if i < len(b) && b[i] == '/' { // "HTTP/1.1 503"
		for i < len(b) && b[i] != ' ' {
			i++
		}
		for i < len(b) && b[i] == ' ' {
			i++
		}
	}
	code, ok := threeDigits(b[i:])
	if !ok || len(b) > i+3 && isLetter(b[i+3]) { // "200ms": no status
		return 0, false
	}
	return code, true
}

// phrasedStatus finds a status followed by its reason phrase, as HTTP
// writes them ("503 Service Unavailable").
func phrasedStatus(val []byte) (float64, bool) {
	for i := 0; i+4 < len(val); i++ {
		if i > 0 && isDigit(val[i-1]) {
			continue
		}
		code, ok := threeDigits(val[i:])
		if !ok || val[i+3] != ' ' || i+4 < len(val) && isDigit(val[i+4]) {
			continue
		}
		phrase := http.StatusText(int(code))
		if phrase != "" && bytes.HasPrefix(val[i+4:], []byte(phrase)) {
			return code, true
		}
	}
	return 0, false
}

// threeDigits reads an HTTP status, 100 to 599, from b's first three
// bytes.
func threeDigits(b []byte) (float64, bool) {
	if len(b) < 3 || b[0] < '1' || b[0] > '5' || !isDigit(b[1]) || !isDigit(b[2]) {
		return 0, false
	}
	if len(b) > 3 && isDigit(b[3]) {
		return 0, false
	}
	return float64(int(b[0]-'0')*100 + int(b[1]-'0')*10 + int(b[2]-'0')), true
}

// sdkErrors are the exceptions the OpenAI and Anthropic SDKs raise for
// one HTTP status each (their _exceptions.py; InternalServerError is
// any status of 500 or more, and names none): what OpenTelemetry's
// error.type holds for a failed call ("openai.RateLimitError"), and an
// exception's text begins with.
var sdkErrors = map[string]float64{
	"BadRequestError": 400, "AuthenticationError": 401, "PermissionDeniedError": 403, "NotFoundError": 404,
	"ConflictError": 409, "UnprocessableEntityError": 422, "RateLimitError": 429,
}

// sdkErrorStatus returns the status of an SDK's exception that val
// begins with, its module's path before it or not
// ("openai.RateLimitError", "RateLimitError('…')", "anthropic.RateLimitError: …").
func sdkErrorStatus(val []byte) (float64, bool) {
	end := bytes.IndexAny(val, "(: ")
	if end < 0 {
		end = len(val)
	}
	name := val[:end]
	if i := bytes.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	code, ok := sdkErrors[string(name)]
	return code, ok
}
