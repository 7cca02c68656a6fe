package ingest

import "testing"

// TestStatusOfText: the outcome words and the error messages of the
// SDKs, as the tracing platforms keep them, give the status they name;
// a failure that names none gives none.
func TestStatusOfText(t *testing.T) {
	for text, want := range map[string]float64{
		"success": 200, "DEFAULT": 200, "debug": 200, "WARNING": 200,
		// OpenAI's and Anthropic's Python SDKs, through LangChain and
		// the Langfuse and Braintrust wrappers.
		"RateLimitError('Error code: 429 - Rate limit reached for gpt-4o')":                  429,
		"openai.InternalServerError: Error code: 503 - {'error': {'message': 'overloaded'}}": 503,
		"anthropic.APIStatusError: Error code: 529 - {'type': 'error'}":                      529,
		// The Node SDKs: the status first, after the exception's name.
		"429 Rate limit reached for gpt-4o in organization org-x":     429,
		"RateLimitError: 429 Rate limit reached":                      429,
		"429 RESOURCE_EXHAUSTED: Quota exceeded for quota metric 'x'": 429,
		// httpx, Go's clients, and the rest.
		"Client error '429 Too Many Requests' for url 'https://api.openai.com/v1/chat/completions'": 429,
		`POST "https://api.openai.com/v1/chat/completions": 502 Bad Gateway {"message":"x"}`:        502,
		"received status code 504 from upstream":                                                    504,
		"litellm.APIError: status_code: 500, message: boom":                                         500,
		"upstream answered HTTP/1.1 503":                                                            503,
		"statusCode=401":                                                                            401,
		// No status named: none.
		"error": -1, "ERROR": -1, "pending": -1, "Request timed out.": -1,
		"APIConnectionError('Connection error.')": -1,
		"upstream_status 502":                     -1, // another name's
		"took 2500 ms":                            -1,
		"Error code: 4290":                        -1,
		"status: 200ms":                           -1,
		"":                                        -1,
		"https://example.com/v1/x":                -1,
		"200 OK":                                  200,
		"error 1503 Service Unavailable":          -1, // a longer number
	} {
		got, ok := statusOfText([]byte(text))
		if !ok {
			got = -1
		}
		if got != want {
			t.Errorf("statusOfText(%q) = %v, want %v", text, got, want)
		}
	}
}

// FuzzStatusOfText: any text gives no status or one of 100 to 599.
func FuzzStatusOfText(f *testing.F) {
	for _, s := range []string{"success", "Error code: 429 - x", "429 Too Many Requests", "HTTP/1.1 503", "status_code=500", "x: 404 y"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		code, ok := statusOfText(b)
		if ok && (code < 100 || code > 599 || code != float64(int(code))) {
			t.Fatalf("statusOfText(%q) = %v", b, code)
		}
		if !ok && code != 0 {
			t.Fatalf("statusOfText(%q) = %v without a status", b, code)
		}
	})
}
