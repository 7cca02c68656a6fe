package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestQuoteOrEscape checks the word-at-a-time search against
// bytes.IndexAny at every start in random text dense with quotes and
// backslashes, and sparse.
func TestQuoteOrEscape(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, density := range []int{2, 10, 100} {
		for n := range 70 {
			b := make([]byte, n)
			for i := range b {
				switch rng.IntN(density) {
				case 0:
					b[i] = '"'
				case 1:
					b[i] = '\\'
				default:
					b[i] = byte(rng.IntN(256))
				}
			}
			for i := 0; i <= n; i++ {
				want := len(b)
				if j := bytes.IndexAny(b[i:], "\"\\"); j >= 0 {
					want = i + j
				}
				if got := quoteOrEscape(b, i); got != want {
					t.Fatalf("quoteOrEscape(%q, %d) = %d, want %d", b, i, got, want)
				}
			}
		}
	}
}

// TestStrDecodes checks decoded strings against encoding/json, with the
// escapes at every place within the first words of the string.
func TestStrDecodes(t *testing.T) {
	escapes := []string{`\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `é`}
	var p jsonParser
	for n := range 20 {
		for _, e := range escapes {
			for at := 0; at <= n; at++ {
				raw := `"` + strings.Repeat("a", at) + e + strings.Repeat("b", n-at) + `"`
				var want string
				if err := json.Unmarshal([]byte(raw), &want); err != nil {
					t.Fatal(err)
				}
				p.scratch = p.scratch[:0]
				s := scanner{b: []byte(raw + `,"x"`)}
				got, err := p.str(&s)
				if err != nil || string(got) != want || s.i != len(raw) {
					t.Fatalf("str(%s) = %q, %v, at %d; want %q at %d", raw, got, err, s.i, want, len(raw))
				}
			}
		}
	}
	for _, raw := range []string{`"abc`, `"abcdefghijklmnop`, `"abc\`, `"abcdefgh\"`} {
		s := scanner{b: []byte(raw)}
		if _, err := p.str(&s); err == nil {
			t.Errorf("str(%s) read an unterminated string", raw)
		}
	}
}

// recordText spells out every present field of r, so that two records
// compare by their content.
func recordText(r *Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%x t=%d e=%d f=%d", r.set, r.TimeNS, r.endNS, r.firstNS)
	for f := Field(0); f < NumFields; f++ {
		if r.Has(f) {
			fmt.Fprintf(&b, " %s=%v/%q/%d", f, r.num[f], r.text[f], r.prio[f])
		}
	}
	return b.String()
}

func parseText(p *jsonParser, line []byte) string {
	var r Record
	r.reset(p.schema)
	if err := p.Parse(line, &r); err != nil {
		return "error: " + err.Error()
	}
	return recordText(&r)
}

// checkWarm parses line with a parser that read prev just before (its
// keys cached) and with a new one, which must agree.
func checkWarm(t *testing.T, s *Schema, prev, line []byte) {
	t.Helper()
	warm := newJSONParser(s, time.UTC)
	parseText(warm, prev)
	got := parseText(warm, line)
	want := parseText(newJSONParser(s, time.UTC), line)
	if got != want {
		t.Fatalf("after %q, %q reads as\n%s\nbut alone as\n%s", prev, line, got, want)
	}
}

// jsonSamples are the JSON-lines logs of the project's fixtures.
var jsonSamples = []string{
	filepath.Join("..", "testdata", "shared", "examples", "tokenhub-sample.jsonl"),
	filepath.Join("..", "testdata", "shared", "examples", "tokenhub-sample-cls.json"),
	filepath.Join("..", "testdata", "logs", "tokenhub-1.jsonl"),
}

// TestWarmKeysAgree parses each line of the sample logs after the line
// before it, and after variants of it that keep the keys but change what
// follows them, against a parser that has seen nothing.
func TestWarmKeysAgree(t *testing.T) {
	s, _ := NewSchema(nil)
	for _, name := range jsonSamples {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, MaxLine)
		var prev []byte
		for i := 0; i < 300 && sc.Scan(); i++ {
			line := append([]byte(nil), sc.Bytes()...)
			checkWarm(t, s, prev, line)
			for _, v := range [][]byte{
				bytes.ReplaceAll(line, []byte(`":`), []byte(`" :`)),
				bytes.ReplaceAll(line, []byte(`"time"`), []byte(`"tim\u0065"`)),
				bytes.ReplaceAll(line, []byte(`"model"`), []byte(`"model_x"`)),
				bytes.ReplaceAll(line, []byte(`":`), []byte(`\":`)),
				line[:len(line)/2],
			} {
				checkWarm(t, s, line, v)
				checkWarm(t, s, v, line)
			}
			prev = line
		}
		f.Close()
	}
	// A key that differs from the cached one in one byte, or is one
	// shorter or longer, at every length the word comparison handles
	// and past it, and at the end of the line.
	for _, key := range []string{"a", "uri", "model", "status", "app_id", "request_time", "first_token_ms", "client_region", "upstream_addr", "upstream_response_time"} {
		prev := []byte(`{"` + key + `":"v","model":"m","request_time":1}`)
		for j := range len(key) + 1 {
			for _, v := range []string{key[:j] + "x" + key[min(j+1, len(key)):], key[:j] + key[min(j+1, len(key)):], key + "x"} {
				checkWarm(t, s, prev, []byte(`{"`+v+`":"2","model":"m","request_time":1}`))
				checkWarm(t, s, prev, []byte(`{"`+v+`":2}`))
				checkWarm(t, s, prev, []byte(`{"`+v))
			}
		}
	}
	// A cached key with a backslash in it must not match the same bytes
	// where they are an escape.
	for _, c := range [][2]string{
		{`{"model\\":"x"}`, `{"model\":"m","request_time":1}`},
		{`{"a\\b":"x","model":"m"}`, `{"a\b":"y","model":"n"}`},
		{`{"\\":1}`, `{"\":1}`},
	} {
		checkWarm(t, s, []byte(c[0]), []byte(c[1]))
	}
}

// FuzzJSONLWarm checks that a parser that read one line reads the next as
// a new parser does.
func FuzzJSONLWarm(f *testing.F) {
	f.Add([]byte(`{"time":"2026-11-29T10:00:00Z","model":"m","request_time":1}`), []byte(`{"time":"2026-11-29T10:00:01Z","model":"n","request_time":2}`))
	f.Add([]byte(`{"a\\":1,"model":"m"}`), []byte(`{"a\\":1,"model":"m"}`))
	f.Add([]byte(`{"model":"m"}`), []byte(`{"model\":"m"}`))
	f.Add([]byte(`{"model\\":"m"}`), []byte(`{"model\":"m"}`))
	// An array whose objects hold a mapped path, and one that holds none.
	f.Add([]byte(`{"model":"m","spans":[{"ms":1}],"tags":[{"ms":2}]}`), []byte(`{"model":"n","spans":[{"x":1},{"ms":3}],"tags":[{"ms":4}]}`))
	s, err := NewSchema([]string{"request_time=spans.ms:ms"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, prev, line []byte) { checkWarm(t, s, prev, line) })
}

// TestLiteralValues checks values that are not strings against the rule
// spelled out here: the value runs to the first of ",} \t\r\n"; one that
// starts with '-' or a digit is a number and holds only number bytes
// (else "bad number"); any other is true, false or null (else "want a
// value"); both errors point at the value's first byte.
func TestLiteralValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "0123456789-+.eEtruefalsnx\"{ }\t,"
	s, _ := NewSchema(nil)
	p := newJSONParser(s, time.UTC)
	tokens := []string{"1", "-2.5e3", "12abc", "true", "null", "nul", "", "1\"", "-", "e1"}
	for range 3000 {
		b := make([]byte, rng.IntN(6))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		tokens = append(tokens, string(b))
	}
	for _, tok := range tokens {
		line := `{"bytes_sent":` + tok + `}`
		col := len(`{"bytes_sent":`) + 1
		end := strings.IndexAny(tok, ",} \t\r\n")
		if end < 0 {
			end = len(tok)
		}
		value := strings.TrimLeft(tok, " \t\r\n")
		col += len(tok) - len(value)
		if end = strings.IndexAny(value, ",} \t\r\n"); end < 0 {
			end = len(value)
		}
		v := value[:end]
		var want string
		switch {
		case len(value) > 0 && strings.ContainsRune(`"{[`, rune(value[0])):
			continue // a string, object or array: not a literal
		case v != "" && (v[0] == '-' || v[0] >= '0' && v[0] <= '9'):
			if strings.Trim(v, "0123456789-+.eE") != "" {
				want = fmt.Sprintf("invalid JSON at column %d: bad number", col)
			}
		case v == "true" || v == "false" || v == "null":
		default:
			want = fmt.Sprintf("invalid JSON at column %d: want a value", col)
			if col > len(line) {
				want = fmt.Sprintf("invalid JSON at column %d: truncated", col)
			}
		}
		// No JSON, but maybe a value nginx writes bare (nothing, "-", a
		// list): then read as its text (TestBareValuesRead).
		_, bare := quoteBare(nil, []byte(line))
		var r Record
		r.reset(s)
		err := p.Parse([]byte(line), &r)
		if want != "" {
			if err == nil && !bare || err != nil && err.Error() != want {
				t.Errorf("%q: error %v, want %q", line, err, want)
			}
		} else if err != nil && strings.Contains(err.Error(), fmt.Sprintf("column %d:", col)) {
			t.Errorf("%q: error %v, want the value read", line, err)
		}
	}
}

// TestShapeAgrees reads the sample logs with one parser, which reads most
// lines by the shape of the line before, and each line, and variants of
// it that keep its keys but change a value or the spacing, with a parser
// that has read nothing: they must agree.
func TestShapeAgrees(t *testing.T) {
	s, _ := NewSchema(nil)
	lines := map[string][][]byte{}
	for _, name := range jsonSamples {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			lines[name] = append(lines[name], l)
		}
	}
	// Spaced as Python's json.dumps writes, an ai_log held in a string,
	// a nested object that is walked.
	for i := range 50 {
		lines["other"] = append(lines["other"],
			[]byte(fmt.Sprintf(`{"time": "2026-11-29T10:00:%02dZ", "model": "m%d", "request_time": %d.5, "status": 200}`, i, i%3, i)),
			[]byte(fmt.Sprintf(`{"time":1795917600,"ai_log":"{\"model\":\"qwen-max\",\"llm_first_token_duration\":%d}","x":{"ai_log":1}}`, i)),
			[]byte(fmt.Sprintf(`{"time":1795917600,"ai_log":{"model":"qwen-max","llm_first_token_duration":%d},"status":%d}`, i, 200+i)))
	}
	// A key that heads nested fields, first with a value that is not
	// walked, then with one that is.
	for _, prev := range []string{`{"ai_log":"","status":200}`, `{"ai_log":null,"status":200}`, `{"ai_log":[],"status":200}`, `{"ai_log":"x","status":200}`} {
		for _, line := range []string{`{"ai_log":"{\"model\":\"q\"}","status":200}`, `{"ai_log":{"model":"q"},"status":200}`, `{"ai_log":"{","status":200}`} {
			checkWarm(t, s, []byte(prev), []byte(line))
		}
	}
	values := regexp.MustCompile(`:\s*("(?:[^"\\]|\\.)*"|[^,}]+)`)
	replacements := []string{`"a\"b"`, `"{\"model\":\"n\"}"`, `"{"`, `""`, `"-"`, `1e3`, `-0`, `01`, `1.`, `.5`, `1x`, `true`, `false`, `null`, `nul`, `{"model":"o"}`, `[1,{"a":"}"}]`, `"x`, `-`, `18446744073709551616`, `-5`, `99999999999`, `0.0000001`, `7`}
	for name, ls := range lines {
		warm := newJSONParser(s, time.UTC)
		for i, line := range ls {
			got, want := parseText(warm, line), parseText(newJSONParser(s, time.UTC), line)
			if got != want {
				t.Fatalf("%s:%d: %q reads as\n%s\nafter the lines before, but alone as\n%s", name, i+1, line, got, want)
			}
			if i%7 != 0 {
				continue
			}
			locs := values.FindAllSubmatchIndex(line, -1)
			for j, loc := range locs {
				rep := replacements[(i+j)%len(replacements)]
				v := append(append(append([]byte(nil), line[:loc[2]]...), rep...), line[loc[3]:]...)
				checkWarm(t, s, line, v)
			}
			for _, v := range [][]byte{append(append([]byte(nil), line...), ' '), append([]byte(" "), line...),
				bytes.Replace(line, []byte(`,"`), []byte(`, "`), 1), line[:len(line)-1], append(line[:len(line):len(line)], ',')} {
				checkWarm(t, s, line, v)
			}
		}
		// The generated logs keep one shape: almost every line after the
		// first is read by it. The others change shape.
		if name != "other" && warm.hits < len(ls)*9/10 {
			t.Errorf("%s: %d of %d lines read by the shape of the line before, want 90%%", name, warm.hits, len(ls))
		}
	}
}

// TestShapedNumberStrings reads numbers in strings ("0.018"), and what
// only looks like one, in every numeric field of the default schema's
// kinds — a duration in its field's unit and in others, at and past the
// bound, an integer, request_time, whose refusal makes the line bad — by
// a warm parser's shape, against a parser that has seen nothing.
func TestShapedNumberStrings(t *testing.T) {
	s, _ := NewSchema(nil)
	values := []string{"0.018", "0", "-0", "+3", "-1", "12.5", "1e3", "abc", "", "-", "0.5, 0.25", "99999999999999",
		"123456789012345678901", "0.1 ", " 0.1", "1.", ".5", "4e400", "null", "2147483648", "65.0"}
	values = append(values, "10000000000", "10000000001", "10000000.5")
	for _, keys := range [][]string{
		{"request_time", "upstream_response_time", "first_token_ms", "status", "prompt_tokens", "tcpinfo_rtt", "upstream_connect_time"},
		// In other units, without a request_time, whose refusal sends
		// the whole line to the general reader.
		{"upstream_service_time", "apptime", "first_token_ms", "upstream_connect_time"},
		{"duration"},
	} {
		line := func(v string) []byte {
			b := []byte(`{"time":"2026-11-29T10:00:00Z"`)
			for _, k := range keys {
				b = append(b, `,"`+k+`":"`+v+`"`...)
			}
			return append(b, '}')
		}
		for _, prev := range values {
			for _, v := range values {
				checkWarm(t, s, line(prev), line(v))
			}
		}
	}
}

// TestShapedDurationUnits reads plain numbers of duration fields in
// their own unit and in another (duration and upstream_service_time in
// ms, reqtime and apptime in s, first_token_ms, tcpinfo_rtt) by a warm
// parser's shape, at and past the bound a duration is kept under,
// negative, -0 and beyond float64, against a parser that has seen
// nothing.
func TestShapedDurationUnits(t *testing.T) {
	s, _ := NewSchema(nil)
	values := []string{"0", "-0", "0.018", "12.5", "-1", "9999999", "10000000", "10000000.5", "1e7", "10000000000",
		"10000000000000", "9999999999999.9", "123456789012345678", "1234567890123456789", "1e400", "0.000000001"}
	for _, keys := range [][]string{
		// Without a request_time, whose refusal sends the whole line
		// to the general reader.
		{"upstream_service_time", "first_token_ms", "tcpinfo_rtt"},
		{"apptime", "ssl_handshake_time", "upstream_connect_time"},
		{"duration", "upstream_response_time"},
		{"reqtime"},
		{"request_time"},
	} {
		line := func(v string) []byte {
			b := []byte(`{"time":"2026-11-29T10:00:00Z"`)
			for _, k := range keys {
				b = append(b, `,"`+k+`":`+v...)
			}
			return append(b, '}')
		}
		for _, prev := range values {
			for _, v := range values {
				checkWarm(t, s, line(prev), line(v))
			}
		}
	}
}

// A key that differs from the shape's in any one byte is not read by the
// shape: keys whose text with its quotes, colon and comma is 15 to 26
// bytes, on both sides of the shorter comparison of keys up to 16.
func TestShapeKeyEachByte(t *testing.T) {
	s, _ := NewSchema(nil)
	keys := []string{"remote_addr", "request_time", "client_region", "upstream_header_time", "upstream_connect_time", "upstream_response_time"}
	line := func(keys []string) []byte {
		b := []byte(`{"time":"2026-11-29T10:00:00Z","status":200`)
		for i, k := range keys {
			if strings.HasSuffix(k, "_time") {
				b = fmt.Appendf(b, `,%q:0.%d`, k, i+1)
			} else {
				b = fmt.Appendf(b, `,%q:"v%d"`, k, i)
			}
		}
		return append(b, '}')
	}
	prev := line(keys)
	n := 0
	for i, k := range keys {
		for j := range len(k) {
			changed := slices.Clone(keys)
			changed[i] = k[:j] + "X" + k[j+1:]
			checkWarm(t, s, prev, line(changed))
			n++
		}
	}
	if n != 11+12+13+20+21+22 { // the keys' lengths
		t.Fatalf("%d keys changed, want 99", n)
	}
}

func TestJSONPaths(t *testing.T) {
	// Objects maxPathDepth deep are walked, deeper ones not.
	nest := func(n int) string { return strings.Repeat(`{"a":`, n) + `1` + strings.Repeat(`}`, n) }
	deep := `{"a":` + nest(maxPathDepth) + `,"b":` + nest(maxPathDepth+1) + `}`
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"b":{"c":"x","d":null,"e":"","f":"-","g":{"h":2.5}},"i":[{"j":1}],"k":"{\"l\":true}"}`, "b.c b.g.h k.l"},
		{"{\n  \"consumer\": {\n    \"username\": \"u\"\n  }\n}", "consumer.username"},
		{`{"b":{"c":1,"d":`, "b.c"},
		{`{"k":"{not json","m":{"n":"v"}}`, "m.n"},
		{deep, "a" + strings.Repeat(".a", maxPathDepth)},
		{`{}`, ""},
		{`[1]`, ""},
	} {
		if got := strings.Join(jsonPaths([]byte(c.in), maxNames), " "); got != c.want {
			t.Errorf("jsonPaths(%s) = %q, want %q", c.in, got, c.want)
		}
	}
	if n := len(jsonPaths([]byte(`{"a":{"b":1,"c":2,"d":3}}`), 2)); n != 2 {
		t.Errorf("%d paths, want 2", n)
	}
}

// FuzzJSONPaths holds jsonPaths, on any text, to its bound and, on a
// valid object whose keys are plain and unique, to a walk of
// encoding/json's decoding: the same paths, as a set.
func FuzzJSONPaths(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":"x","d":null,"e":"","g":{"h":2.5}},"i":[{"j":1}],"k":"{\"l\":true}"}`))
	f.Add([]byte(`{"consumer":{"username":"u","id":7}}`))
	f.Add([]byte(`{"b":{"c":1,"d":`))
	f.Fuzz(func(t *testing.T, line []byte) {
		const max = 16
		got := jsonPaths(line, max)
		if len(got) > max {
			t.Fatalf("%d paths, over %d", len(got), max)
		}
		var top map[string]any
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		if !utf8.Valid(line) || d.Decode(&top) != nil || d.More() || !plainUniqueKeys(line) {
			return
		}
		var want []string
		var walk func(prefix string, v any, depth int)
		walk = func(prefix string, v any, depth int) {
			switch v := v.(type) {
			case map[string]any:
				if depth > maxPathDepth {
					return
				}
				for k, x := range v {
					p := k
					if prefix != "" {
						p = prefix + "." + k
					}
					walk(p, x, depth+1)
				}
			case string:
				var inner map[string]any
				if strings.HasPrefix(v, "{") && depth <= maxPathDepth {
					if json.Unmarshal([]byte(v), &inner) == nil && plainUniqueKeys([]byte(v)) {
						walk(prefix, inner, depth)
						return
					}
					want = nil // JSON in a string that is not whole: read as far as it goes
					panic(errSkip)
				}
				if depth > 1 && !isAbsent([]byte(v)) {
					want = append(want, prefix)
				}
			case []any:
			case nil:
			default:
				if depth > 1 {
					want = append(want, prefix)
				}
			}
		}
		defer func() {
			if v := recover(); v != nil && v != errSkip {
				panic(v)
			}
		}()
		walk("", top, 0)
		if len(want) >= max {
			return // the bound cut it: which ones depends on the order
		}
		slices.Sort(want)
		got = slices.Clone(got)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("jsonPaths(%s) = %q, want %q", line, got, want)
		}
	})
}

// errSkip ends FuzzJSONPaths's reference walk on input it does not judge.
var errSkip = errors.New("skip")

// plainUniqueKeys says whether every key in the JSON text is unescaped,
// holds no '.', and is unique among its object's: what the reference
// walk compares paths of.
func plainUniqueKeys(b []byte) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	var stack []map[string]bool
	expectKey := []bool{}
	for {
		tok, err := d.Token()
		if err != nil {
			return err == io.EOF
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, map[string]bool{})
				expectKey = append(expectKey, true)
				continue
			case '[':
				stack = append(stack, nil)
				expectKey = append(expectKey, false)
				continue
			default:
				stack, expectKey = stack[:len(stack)-1], expectKey[:len(expectKey)-1]
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1] != nil && expectKey[n-1] {
				if v == "" || stack[n-1][v] || strings.ContainsAny(v, ".\\\"") {
					return false
				}
				stack[n-1][v] = true
				expectKey[n-1] = false
				continue
			}
		}
		if n := len(stack); n > 0 && stack[n-1] != nil {
			expectKey[n-1] = true
		}
	}
}
