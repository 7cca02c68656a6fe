package ingest

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// seedLines adds the first lines of the sample logs beside the repository
// and of testdata/logs to a fuzz corpus.
func seedLines(f *testing.F, names ...string) {
	f.Helper()
	for _, name := range names {
		file, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, MaxLine)
		for i := 0; i < 20 && sc.Scan(); i++ {
			f.Add(append([]byte(nil), sc.Bytes()...))
		}
		file.Close()
	}
}

// parsedRequest parses line with p, as a request-log format's fuzz
// target does: a line refused says why, and one read is a request whose
// request_time is a duration (finite, not negative). It reports whether
// the line was read, into r.
func parsedRequest(t *testing.T, p lineParser, line []byte, r *Record) bool {
	t.Helper()
	if err := p.Parse(line, r); err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		return false
	}
	if v, ok := r.Float(FRequestTime); !ok || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		t.Fatalf("request_time %v %v from %q", v, ok, line)
	}
	return true
}

func FuzzJSONL(f *testing.F) {
	seedLines(f,
		filepath.Join("..", "testdata", "shared", "examples", "tokenhub-sample.jsonl"),
		filepath.Join("..", "testdata", "shared", "examples", "tokenhub-sample-cls.json"),
		filepath.Join("..", "testdata", "logs", "tokenhub-1.jsonl"),
		// CLS's time of a log beside the log's own (takeStamp).
		filepath.Join("testdata", "cls", "stamped.jsonl"))
	for _, s := range []string{
		`{"ai_log":"{\"model\":\"m\",\"llm_service_duration\":\"12\"}"}`,
		`{"ai_log":{"model":"m"}}`,
		`{"time":"not-a-time"}`, `{"request_time":"abc"}`, `{"a":[[[[`, `{"\ud800":"\udc00"}`,
		// Objects within an array under a mapped path (a stream's chunks).
		`{"chunks":[1,"x",[{}],{"usage":{"in":7}},{"usage":[{"in":8}]}],"status":200}`, `{"chunks":[{"usage":{"in":`, `{"chunks":[,]}`,
	} {
		f.Add([]byte(s))
	}
	s, err := NewSchema([]string{"client=secret_id", "ttft=first_byte:s", "prompt_tokens=chunks.usage.in"})
	if err != nil {
		f.Fatal(err)
	}
	p := newJSONParser(s, time.UTC)
	f.Fuzz(func(t *testing.T, line []byte) {
		var r Record
		err := p.Parse(line, &r)
		if err != nil {
			if err.Error() == "" || strings.ContainsAny(err.Error(), "\n") && !strings.Contains(string(line), "\n") {
				t.Fatalf("unhelpful error %q", err)
			}
			return
		}
		// A parsed record has sane values.
		if v, ok := r.Float(FRequestTime); ok && (v < 0 || v != v) {
			t.Fatalf("request_time %v from %q", v, line)
		}
		// A log service's time is the time's or none: no field's bit.
		if r.set&stampSet != 0 || r.Has(FTime) && checkTime(r.TimeNS) != fine {
			t.Fatalf("fields %x, time %d from %q", r.set, r.TimeNS, line)
		}
	})
}
