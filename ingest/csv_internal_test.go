package ingest

import (
	"bufio"
	"encoding/csv"
	"loganalyze/internal/sharedtest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// textWant is a field's expected value in a parser table test: a number, a
// text, or a time in Unix nanoseconds.
type textWant struct {
	f    Field
	num  float64
	text string
	ns   int64
}

// wantsWithout returns ws but the wants of fields drop.
func wantsWithout(ws []textWant, drop ...Field) []textWant {
	var out []textWant
next:
	for _, w := range ws {
		for _, d := range drop {
			if w.f == d {
				continue next
			}
		}
		out = append(out, w)
	}
	return out
}

// checkParse reads line with p and checks the record against want, or,
// when errWant is not "", that p refuses the line with an error holding
// it.
func checkParse(t *testing.T, p lineParser, line string, want []textWant, errWant string) {
	t.Helper()
	var r Record
	err := p.Parse([]byte(line), &r)
	if errWant != "" {
		if err == nil || !strings.Contains(err.Error(), errWant) {
			t.Fatalf("error %v, want one with %q", err, errWant)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	checkTextRecord(t, &r, want)
}

// parseAllocs is how many allocations p makes to read line once warm.
func parseAllocs(t *testing.T, p lineParser, line []byte) float64 {
	t.Helper()
	var r Record
	return testing.AllocsPerRun(100, func() {
		r.Reset()
		if err := p.Parse(line, &r); err != nil {
			t.Fatal(err)
		}
	})
}

// checkTextRecord compares r with ws; fields not in ws must be absent.
func checkTextRecord(t *testing.T, r *Record, ws []textWant) {
	t.Helper()
	var seen uint64
	for _, w := range ws {
		seen |= 1 << w.f
		if !r.Has(w.f) {
			t.Errorf("%s absent, want it", w.f)
			continue
		}
		switch {
		case w.f == FTime:
			if r.TimeNS != w.ns {
				t.Errorf("time %v, want %v", time.Unix(0, r.TimeNS).UTC(), time.Unix(0, w.ns).UTC())
			}
		case w.f.Kind() == KindText || w.f.Kind() == KindRequest:
			if got := string(r.Text(w.f)); got != w.text {
				t.Errorf("%s = %q, want %q", w.f, got, w.text)
			}
		default:
			if got, _ := r.Float(w.f); got != w.num {
				t.Errorf("%s = %v, want %v", w.f, got, w.num)
			}
		}
	}
	for f := Field(0); f < NumFields; f++ {
		if r.Has(f) && seen&(1<<f) == 0 {
			t.Errorf("%s present, want it absent", f)
		}
	}
}

func textConfig(t testing.TB, header string) *parserConfig {
	t.Helper()
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &parserConfig{schema: s, loc: time.FixedZone("+08", 8*3600), header: []byte(header)}
}

func TestCSVParse(t *testing.T) {
	// 2026-11-29 10:00:00.036 at +08:00.
	const t0 = int64(1795917600036) * 1e6
	tests := []struct {
		name, header, line string
		sep                byte
		want               []textWant
		err                string // part of the error; "" for none
	}{
		{name: "plain", header: "time,app_id,request_time,tcpinfo_rtt", line: "2026-11-29 10:00:00.036,app-1,4.683,1481",
			want: []textWant{{f: FTime, ns: t0}, {f: FClient, text: "app-1"}, {f: FRequestTime, num: 4.683}, {f: FTCPInfoRTT, num: 1481}}},
		{name: "time with a zone ignores --tz", header: "time,request_time", line: "2026-11-29T02:00:00.036Z,1",
			want: []textWant{{f: FTime, ns: t0}, {f: FRequestTime, num: 1}}},
		{name: "quoted list", header: "upstream_response_time,status", line: `"0.003, 3.661",502`,
			want: []textWant{{f: FUpstreamResponseTime, num: 0.003 + 3.661}, {f: FStatus, num: 502}}},
		{name: "quoted separator and escaped quotes", header: "model,uri", line: `"a,""b""",/v1/x`,
			want: []textWant{{f: FModel, text: `a,"b"`}, {f: FURI, text: "/v1/x"}}},
		{name: "two escaped fields", header: "model,region", line: `"x""y","p""q"""`,
			want: []textWant{{f: FModel, text: `x"y`}, {f: FRegion, text: `p"q"`}}},
		{name: "empty fields are absent", header: "model,stream,request_time,ttft", line: ",,0.5,",
			want: []textWant{{f: FRequestTime, num: 0.5}}},
		{name: "quoted empty is absent", header: "model,request_time", line: `"",0.5`,
			want: []textWant{{f: FRequestTime, num: 0.5}}},
		{name: "trailing separator is an empty field", header: "request_time,model", line: "0.5,",
			want: []textWant{{f: FRequestTime, num: 0.5}}},
		{name: "unknown columns ignored", header: "foo,request_time,bar", line: "x,0.5,y",
			want: []textWant{{f: FRequestTime, num: 0.5}}},
		{name: "header case, spaces, quotes and BOM", header: "\ufeff\"Request_Time\", APP_ID ", line: "0.5,a",
			want: []textWant{{f: FRequestTime, num: 0.5}, {f: FClient, text: "a"}}},
		{name: "alias with unit", header: "request_duration_ms,ModelName", line: "1500,m",
			want: []textWant{{f: FRequestTime, num: 1.5}, {f: FModel, text: "m"}}},
		{name: "request split", header: "request,remote_addr", line: "POST /v1/x?y=1 HTTP/1.1,1.2.3.4",
			want: []textWant{{f: FRequest, text: "POST /v1/x?y=1 HTTP/1.1"}, {f: FMethod, text: "POST"}, {f: FURI, text: "/v1/x?y=1"},
				{f: FRemoteAddr, text: "1.2.3.4"}, {f: FClient, text: "1.2.3.4"}}},
		{name: "tsv", header: "model\trequest_time\tupstream_response_time", line: "a,b\t0.5\t0.25, 0.5", sep: '\t',
			want: []textWant{{f: FModel, text: "a,b"}, {f: FRequestTime, num: 0.5}, {f: FUpstreamResponseTime, num: 0.75}}},
		{name: "tsv quoted", header: "model\trequest_time", line: "\"a\tb\"\t0.5", sep: '\t',
			want: []textWant{{f: FModel, text: "a\tb"}, {f: FRequestTime, num: 0.5}}},
		// A JSON object in a cell, as an export writes an object column
		// (Higress's ai_log, Langfuse's usage_details): read by the
		// members' paths under the column's name.
		{name: "JSON object in a cell", header: "time,ai_log,app_id",
			line: `2026-11-29 10:00:00.036,"{""model"":""qwen-max"",""llm_first_token_duration"":420,""llm_service_duration"":""1500"",""input_token"":12,""output_token"":34}",a`,
			want: []textWant{{f: FTime, ns: t0}, {f: FModel, text: "qwen-max"}, {f: FTTFT, num: 420}, {f: FRequestTime, num: 1.5},
				{f: FPromptTokens, num: 12}, {f: FCompletionTokens, num: 34}, {f: FClient, text: "a"}}},
		{name: "JSON object with escapes, then an escaped field", header: "ai_log,region",
			line: `"{""model"":""q\""w\u00e9n""}","p""q"`,
			want: []textWant{{f: FModel, text: `q"wén`}, {f: FRegion, text: `p"q`}}},
		{name: "JSON object unquoted", header: "ai_log,request_time", line: `{},0.5`,
			want: []textWant{{f: FRequestTime, num: 0.5}}},
		{name: "not an object in an object column", header: "ai_log,request_time", line: `plain text,0.5`,
			want: []textWant{{f: FRequestTime, num: 0.5}}},
		{name: "bad JSON in a cell", header: "ai_log,request_time", line: `"{""model"":}",0.5`, err: "ai_log: invalid JSON at column 10"},
		{name: "text after the object", header: "ai_log,request_time", line: `"{} x",0.5`, err: "ai_log: invalid JSON at column 4: text after the object"},
		{name: "bad request_time in a cell", header: "ai_log", line: `"{""llm_service_duration"":""abc""}"`, err: `ai_log: request_time: cannot read "abc"`},
		{name: "too few fields", header: "time,app_id,request_time", line: "2026-11-29 10:00:00.000,broken", err: "want 3 fields, got 2"},
		{name: "too many fields", header: "app_id,request_time", line: "a,1,2", err: "want 2 fields, got 3"},
		{name: "field count before values", header: "time,app_id,request_time", line: "not-a-time", err: "want 3 fields, got 1"},
		{name: "bad time", header: "time,request_time", line: "not-a-time,1", err: `time: cannot read "not-a-time"`},
		{name: "bad request_time", header: "time,request_time", line: "2026-11-29 10:00:00.000,abc", err: `request_time: cannot read "abc"`},
		{name: "negative request_time", header: "request_time", line: "-1", err: "request_time"},
		{name: "unterminated quote", header: "model,request_time", line: `"a,1`, err: "column 1: unterminated quoted field"},
		{name: "text after a quote", header: "model,request_time", line: `"a"b,1`, err: "column 4: text after a quoted field"},
		{name: "quote in an unquoted field", header: "model,request_time", line: `a"b,1`, err: "column 2: quote in an unquoted field"},
		{name: "end of a quoted field with a line break", header: "model,request_time", line: `b",1`, err: "column 2: quote in an unquoted field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sep := tt.sep
			if sep == 0 {
				sep = ','
			}
			p := newCSVParser(textConfig(t, tt.header), sep)
			checkParse(t, p, tt.line, tt.want, tt.err)
		})
	}
}

// TestCSVParserReuse checks that a row's unescaped text survives the
// next fields of the same row and that a second row starts clean.
func TestCSVParserReuse(t *testing.T) {
	p := newCSVParser(textConfig(t, "model,region,uri,request_time"), ',')
	var r Record
	long := strings.Repeat(`x""`, 200)
	if err := p.Parse([]byte(`"a""",`+`"`+long+`",/u,1`), &r); err != nil {
		t.Fatal(err)
	}
	checkTextRecord(t, &r, []textWant{{f: FModel, text: `a"`}, {f: FRegion, text: strings.Repeat(`x"`, 200)},
		{f: FURI, text: "/u"}, {f: FRequestTime, num: 1}})
	r.Reset()
	if err := p.Parse([]byte(`m,,"/v""",2`), &r); err != nil {
		t.Fatal(err)
	}
	checkTextRecord(t, &r, []textWant{{f: FModel, text: "m"}, {f: FURI, text: `/v"`}, {f: FRequestTime, num: 2}})
	// Text decoded from a JSON cell survives the escaped fields after it,
	// and theirs the cell's, while a batch of rows is held.
	p = newCSVParser(textConfig(t, "ai_log,region,uri,request_time"), ',')
	p.hold()
	defer p.release()
	cell := func(json string) string { return `"` + strings.ReplaceAll(json, `"`, `""`) + `"` }
	var rs [2]Record
	for i, line := range []string{cell(`{"model":"a\u0022`+strings.Repeat(`y\"`, 200)+`"}`) + `,"` + long + `",/u,1`,
		cell(`{"model":"b\\"}`) + `,"r""",/w,2`} {
		if err := p.Parse([]byte(line), &rs[i]); err != nil {
			t.Fatal(err)
		}
	}
	checkTextRecord(t, &rs[0], []textWant{{f: FModel, text: `a"` + strings.Repeat(`y"`, 200)}, {f: FRegion, text: strings.Repeat(`x"`, 200)},
		{f: FURI, text: "/u"}, {f: FRequestTime, num: 1}})
	checkTextRecord(t, &rs[1], []textWant{{f: FModel, text: `b\`}, {f: FRegion, text: `r"`}, {f: FURI, text: "/w"}, {f: FRequestTime, num: 2}})
}

// TestCSVObjectAllocs: a row whose cell holds a JSON object, strings
// with escapes included, is read without allocating once warm.
func TestCSVObjectAllocs(t *testing.T) {
	p := newCSVParser(textConfig(t, "time,ai_log,request_time"), ',')
	line := []byte(`2026-11-29 10:00:00.036,"{""model"":""q\""w"",""llm_first_token_duration"":420,""input_token"":12}",1.5`)
	if n := parseAllocs(t, p, line); n != 0 {
		t.Errorf("%v allocations a row, want 0", n)
	}
}

// textSampleLines returns up to n lines of a shared sample file (first line
// included) and every line for which keep is true.
func textSampleLines(t testing.TB, name string, n int, keep func(string) bool) []string {
	t.Helper()
	f, err := os.Open(sharedtest.File(t, "examples", name))
	if err != nil {
		t.Fatalf("the shared sample logs are missing: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, MaxLine)
	for sc.Scan() {
		if len(out) < n || keep(sc.Text()) {
			out = append(out, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func FuzzCSV(f *testing.F) {
	lines := textSampleLines(f, "tokenhub-sample.csv", 20, func(l string) bool { return strings.Count(l, ",") < 5 || strings.Contains(l, `", `) })
	header := lines[0]
	for _, l := range lines[1:] {
		f.Add(header, l, false, false, false)
		f.Add(header, strings.ReplaceAll(l, ",", "\t"), true, false, false)
	}
	f.Add(header, `"unterminated,1`, false, false, false)
	f.Add(`"a""b",c`, `"x""",`, false, false, false)
	f.Add(`time, status, request_time`, `2026-12-05 10:00:00 , 200,  "0.5" `, false, false, false) // spacedFields
	f.Add(`time,ai_log`, `2026-11-29 10:00:00,"{""model"":""q\""w"",""llm_service_duration"":1500,""x"":{""y"":[1]}}"`, false, false, false)
	// Rows quoted with single quotes (singleQuotes), as CLS ships them to COS.
	squote, err := os.ReadFile(filepath.Join("testdata", "text", "cls-cos-squote.csv"))
	if err != nil {
		f.Fatal(err)
	}
	sq := strings.Split(strings.TrimSpace(string(squote)), "\n")
	for _, l := range sq[1:] {
		f.Add(sq[0], l, false, true, false)
		f.Add(strings.ReplaceAll(sq[0], ",", "\t"), strings.ReplaceAll(l, ",", "\t"), true, true, false)
	}
	f.Add(`a,b`, `'it''s, x' , 'y'`, false, true, false)
	f.Add(`a,b`, `'',''''`, false, true, false)
	// Rows cut by single spaces (spaceSep), as CLS ships them to COS: a
	// field that holds a space quoted, an empty one between two spaces.
	spaced, err := os.ReadFile(filepath.Join("testdata", "text", "cls-cos-space.csv"))
	if err != nil {
		f.Fatal(err)
	}
	sp := strings.Split(strings.TrimSpace(string(spaced)), "\n")
	for _, l := range sp[1:] {
		f.Add(sp[0], l, false, false, true)
		f.Add(sp[0], strings.NewReplacer(`"`, `'`).Replace(l), false, true, true)
	}
	f.Add(`time status request_time`, `2026-12-05T10:00:00Z  0.5`, false, false, true)
	f.Add(`time status request_time`, ` 200 0.5 `, false, false, true)
	f.Fuzz(func(t *testing.T, header, line string, tsv, squote, space bool) {
		sep := byte(',')
		if tsv {
			sep = '\t'
		}
		if space {
			sep = ' '
		}
		c := textConfig(t, header)
		if squote {
			c.quote = '\''
		}
		p := newCSVParser(c, sep)
		var r Record
		rowErr := p.Parse([]byte(line), &r)
		if rowErr != nil && rowErr.Error() == "" {
			t.Fatal("an error without a reason")
		}
		// Oracle: the split accepts the lines encoding/csv accepts, and
		// gives the same fields.
		if strings.ContainsAny(line, "\r\n") || line == "" {
			return
		}
		swap := strings.NewReplacer(`'`, `"`, `"`, `'`)
		cr := csv.NewReader(strings.NewReader(line))
		switch {
		case squote:
			// encoding/csv's quote is '"': the line with the two quotes
			// swapped, read with LazyQuotes, which is singleQuotes: a
			// quote within an unquoted field, or alone within a quoted
			// one and before anything but the separator, is text. A
			// quoted field the line leaves open waits for the lines after
			// it (joinQuoted), where encoding/csv reads it to the end.
			cr = csv.NewReader(strings.NewReader(swap.Replace(line)))
			cr.LazyQuotes = true
		case sep == '\t':
			// A quote within a TSV field is text (tsvQuotes): encoding/csv's
			// LazyQuotes, for the lines whose fields none begins with one
			// (a quoted field is read as CSV's, held to encoding/csv when
			// the separator is a comma).
			if strings.HasPrefix(line, `"`) || strings.Contains(line, "\t\"") {
				return
			}
			cr.LazyQuotes = true
		}
		cr.Comma = rune(sep)
		want, cerr := cr.Read()
		got, err := p.split([]byte(line))
		if squote && openQuote(err) {
			return
		}
		if (err == nil) != (cerr == nil) {
			t.Fatalf("split %q: error %v; encoding/csv: %v", line, err, cerr)
		}
		if space && err == nil && (len(got) == len(p.binds)) != (rowErr == nil || !strings.HasPrefix(rowErr.Error(), "want ")) {
			// No padding where a space is the separator: a row is cut
			// as split cuts it.
			t.Fatalf("parse %q: %v; split gives %d fields, the header %d", line, rowErr, len(got), len(p.binds))
		}
		if err != nil {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("split %q: %d fields, encoding/csv %d", line, len(got), len(want))
		}
		for i := range got {
			if squote {
				want[i] = swap.Replace(want[i])
			}
			if string(got[i]) != want[i] {
				t.Fatalf("split %q: field %d = %q, encoding/csv %q", line, i, got[i], want[i])
			}
		}
	})
}

// benchTextParse measures p over the lines that it parses.
func benchTextParse(b *testing.B, p lineParser, lines []string) {
	var good [][]byte
	total := 0
	var r Record
	for _, l := range lines {
		r.Reset()
		if p.Parse([]byte(l), &r) == nil {
			good = append(good, []byte(l))
			total += len(l) + 1
		}
	}
	if len(good) < 1000 {
		b.Fatalf("only %d sample lines parse", len(good))
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range good {
			r.Reset()
			if err := p.Parse(l, &r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkCSV(b *testing.B) {
	lines := textSampleLines(b, "tokenhub-sample.csv", 1<<30, func(string) bool { return true })
	p := newCSVParser(textConfig(b, lines[0]), ',')
	benchTextParse(b, p, lines[1:])
}

func BenchmarkTSV(b *testing.B) {
	lines := textSampleLines(b, "tokenhub-sample.csv", 1<<30, func(string) bool { return true })
	for i, l := range lines {
		// The sample's only quoted field is upstream_response_time, which
		// holds no tab: unquoted, it is the same TSV row.
		lines[i] = strings.ReplaceAll(strings.ReplaceAll(l, `"`, ""), ",", "\t")
		lines[i] = strings.ReplaceAll(lines[i], "\t ", ", ")
	}
	p := newCSVParser(textConfig(b, lines[0]), '\t')
	benchTextParse(b, p, lines[1:])
}

// TestGroupedThousands: a number column's value in a file not cut by ';'
// loses the commas that group its thousands, and nothing else does.
func TestGroupedThousands(t *testing.T) {
	for in, want := range map[string]string{
		"1,234": "1234", "-1,234.5": "-1234.5", "1,234,567": "1234567", "12,345,678.25": "12345678.25",
		"0,5": "0,5", "1,23": "1,23", "1234,567": "1234,567", ",123": ",123", "1,234,": "1,234,",
		"1,234.": "1,234.", "1,2345": "1,2345", "1,234x": "1,234x", "a,123": "a,123", "-,123": "-,123", "1,234.5.6": "1,234.5.6",
	} {
		for _, sep := range []byte{',', '\t', '|'} {
			p := &csvParser{sep: sep}
			if got := string(p.decimalComma([]byte(in))); got != want {
				t.Errorf("sep %q: %q gave %q, want %q", sep, in, got, want)
			}
		}
	}
	// A ';' file's comma is its decimal point (decimalComma).
	p := &csvParser{sep: ';'}
	if got := string(p.decimalComma([]byte("1,234"))); got != "1.234" {
		t.Errorf("sep ';': 1,234 gave %q, want 1.234", got)
	}
}
