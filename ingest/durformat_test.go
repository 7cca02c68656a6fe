package ingest_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"loganalyze/ingest"
)

// caddyLine is an access log line of Caddy's with the duration as its
// duration_format writes it (raw JSON), at second i of the file.
func caddyLine(t *testing.T, i int, duration string) []byte {
	t.Helper()
	rec := map[string]any{
		"level": "info", "ts": 1764468000 + float64(i), "logger": "http.log.access.log0", "msg": "handled request",
		"request": map[string]any{"remote_ip": "10.0.4.7", "remote_port": "41342", "client_ip": "10.0.4.7", "proto": "HTTP/1.1",
			"method": "POST", "host": "llm.example.com", "uri": "/v1/chat/completions"},
		"bytes_read": 812, "user_id": "", "duration": json.RawMessage(duration), "size": 2048, "status": 200,
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestCaddyDurationFormat reads one set of durations written in each of
// Caddy's duration_format encodings (zap's: seconds, nano, milli, string,
// formatted here as zap formats them) with no flag: each record's
// request_time is the duration it was written from.
func TestCaddyDurationFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	durs := make([]time.Duration, 200)
	for i := range durs {
		durs[i] = time.Duration(math.Exp(18.5 + rng.NormFloat64())) // ns, about 100 ms
	}
	encode := map[string]func(time.Duration) string{
		"seconds": func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) },
		"nano":    func(d time.Duration) string { return strconv.FormatInt(int64(d), 10) },
		"milli": func(d time.Duration) string {
			return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64)
		},
		"string": func(d time.Duration) string { return strconv.Quote(d.String()) },
	}
	dir := t.TempDir()
	for format, enc := range encode {
		t.Run(format, func(t *testing.T) {
			var b []byte
			for i, d := range durs {
				b = append(b, caddyLine(t, i, enc(d))...)
			}
			path := filepath.Join(dir, format+".log")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
			if len(rows) != len(durs) || res.BadLines() != 0 || res.Files[0].Source != "caddy" {
				t.Fatalf("%d records, %d bad lines, source %q; want %d, 0, caddy: %v",
					len(rows), res.BadLines(), res.Files[0].Source, len(durs), res.Problems)
			}
			for i, r := range rows { // in time order, as written
				if want := durs[i].Seconds(); math.Abs(r.rt-want) > 1e-9*want {
					t.Fatalf("record %d: request_time %v s, want %v s", i, r.rt, want)
				}
			}
		})
	}
}
