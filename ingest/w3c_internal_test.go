package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// iisHead is IIS's default header, as IIS 10 writes it.
const iisHead = "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2026-11-29 10:00:00\n" +
	"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken\n"

const iisLine = "2026-11-29 10:00:01 10.0.0.5 POST /v1/chat/completions - 443 - 203.0.113.7 OpenAI/Python+1.30.1 - 200 0 0 6210"

// w3cConfig is the parser configuration of a W3C file of source src.
func w3cConfig(t testing.TB, src string) *parserConfig {
	t.Helper()
	c := textConfig(t, "")
	c.schema = c.schema.derive(sourceByName(src), "")
	return c
}

// w3cFieldsLine is the #Fields line of head.
func w3cFieldsLine(head string) []byte {
	i := strings.Index(head, "#Fields:")
	return []byte(head[i : i+strings.IndexByte(head[i:], '\n')])
}

func TestW3CParse(t *testing.T) {
	t1 := time.Date(2026, 11, 29, 10, 0, 1, 0, time.UTC).UnixNano()
	base := []textWant{{f: FTime, ns: t1}, {f: FMethod, text: "POST"}, {f: FURI, text: "/v1/chat/completions"},
		{f: FRemoteAddr, text: "203.0.113.7"}, {f: FClient, text: "203.0.113.7"}, {f: FStatus, num: 200},
		{f: FRequestTime, num: 6.21}}
	tests := []struct {
		name, line string
		want       []textWant
		err        string
	}{
		{name: "IIS's line", line: iisLine, want: base},
		{name: "a user", line: strings.Replace(iisLine, " - 203.0.113.7", ` CONTOSO\svc 203.0.113.7`, 1),
			want: append(wantsWithout(base, FClient), textWant{f: FClient, text: `CONTOSO\svc`})},
		{name: "milliseconds in the time", line: strings.Replace(iisLine, "10:00:01", "10:00:01.250", 1),
			want: append(wantsWithout(base, FTime), textWant{f: FTime, ns: t1 + 250e6})},
		{name: "no time-taken", line: strings.TrimSuffix(iisLine, "6210") + "-", want: wantsWithout(base, FRequestTime)},
		{name: "no date", line: strings.Replace(iisLine, "2026-11-29", "-", 1), want: wantsWithout(base, FTime)},
		{name: "a space after the line", line: iisLine + " ", want: base},
		{name: "a quoted field", line: strings.Replace(iisLine, "OpenAI/Python+1.30.1", `"OpenAI/Python 1.30.1 ""x"""`, 1), want: base},
		{name: "the same, tab-separated", line: strings.ReplaceAll(iisLine, " ", "\t"), want: base},
		{name: "a quote not closed", line: strings.Replace(iisLine, "OpenAI/Python+1.30.1", `"OpenAI/Python`, 1), err: "quoted field not closed"},
		{name: "a field short", line: strings.TrimSuffix(iisLine, " 6210"), err: "14 fields, want 15"},
		{name: "a field more", line: iisLine + " 7", err: "16 fields, want 15"},
		{name: "an unreadable time", line: strings.Replace(iisLine, "10:00:01", "10:61:01", 1), err: "time"},
		{name: "a date too long", line: strings.Replace(iisLine, "2026-11-29", strings.Repeat("2", 70), 1), err: "time"},
		{name: "a negative time-taken", line: strings.TrimSuffix(iisLine, "6210") + "-5", err: "request_time"},
		{name: "an unreadable time-taken", line: strings.TrimSuffix(iisLine, "6210") + "abc", err: "request_time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newW3CParser(w3cConfig(t, "iis"))
			p.use(w3cFieldsLine(iisHead))
			checkParse(t, p, tt.line, tt.want, tt.err)
		})
	}
}

// TestW3CDirectives: directives are no requests and no bad lines; a
// #Fields directive changes the columns of the lines after it; a line
// before any is refused with the reason.
func TestW3CDirectives(t *testing.T) {
	p := newW3CParser(w3cConfig(t, "iis"))
	var r Record
	if err := p.Parse([]byte(iisLine), &r); err != errW3CNoFields {
		t.Errorf("a line before #Fields: %v, want %v", err, errW3CNoFields)
	}
	for _, d := range strings.Split(strings.TrimSuffix(iisHead, "\n"), "\n") {
		if err := p.Parse([]byte(d), &r); err != errDirective {
			t.Errorf("%q: %v, want errDirective", d, err)
		}
	}
	r.Reset()
	if err := p.Parse([]byte(iisLine), &r); err != nil {
		t.Fatal(err)
	}
	if err := p.Parse([]byte("#Fields: time-taken sc-status"), &r); err != errDirective {
		t.Fatal(err)
	}
	r.Reset()
	if err := p.Parse([]byte("250 429"), &r); err != nil {
		t.Fatal(err)
	}
	checkTextRecord(t, &r, []textWant{{f: FRequestTime, num: 0.25}, {f: FStatus, num: 429}})
	// The unit's #Fields line replaces the one the lines gave.
	p.use(nil)
	if err := p.Parse([]byte("250 429"), &r); err != errW3CNoFields {
		t.Errorf("after use(nil): %v, want %v", err, errW3CNoFields)
	}
}

// TestW3CParseAllocatesNothing: an IIS line and a CloudFront line are
// read without allocating once the parser has its columns.
func TestW3CParseAllocatesNothing(t *testing.T) {
	cf := fixtureText(t, "cloudfront.log")
	for _, c := range []struct{ src, fields, line string }{
		{"iis", string(w3cFieldsLine(iisHead)), iisLine},
		{"cloudfront", string(w3cFieldsLine(cf)), strings.Split(cf, "\n")[2]},
	} {
		p := newW3CParser(w3cConfig(t, c.src))
		p.use([]byte(c.fields))
		if n := parseAllocs(t, p, []byte(c.line)); n != 0 {
			t.Errorf("%s: %v allocations a line", c.src, n)
		}
	}
}

func fixtureText(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "text", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSniffW3C: a file that starts with a W3C directive is W3C, before
// any other text format is tried; a line starting with # that is no
// directive is not.
func TestSniffW3C(t *testing.T) {
	// A --log-format given beside the W3C log.
	f, err := compileLogFormat("$time_local $request_time", nil)
	if err != nil {
		t.Fatal(err)
	}
	given := []*logFormat{f}
	for _, c := range []struct {
		head string
		want Format
	}{
		{iisHead + iisLine + "\n", W3C},
		{"\ufeff" + iisHead, W3C},
		{fixtureText(t, "cloudfront.log"), W3C},
		{"#Fields: date time time-taken\n2026-11-29 10:00:00 1\n", W3C},
		{"#Remark: exported\n#Fields: date time\n", W3C},
		{"# a comment\n10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1\n", Nginx},
		{"#date,time,request_time\n", CSV},
	} {
		if got := sniff([]byte(c.head), nil); got != c.want {
			t.Errorf("sniff(%.40q…) = %s, want %s", c.head, got, c.want)
		}
		if got := sniff([]byte(c.head), given); c.want == W3C && got != W3C {
			t.Errorf("with a --log-format, sniff(%.40q…) = %s, want w3c", c.head, got)
		}
	}
}

// TestW3CSplitUnits: a file whose #Fields directive changes is read the
// same whatever its units and workers: each unit's lines are read with
// the columns in force where it starts, which the reader passes on.
func TestW3CSplitUnits(t *testing.T) {
	var b strings.Builder
	b.WriteString(iisHead)
	short := false // the columns of the restart below
	for i := range 200 {
		if i%37 == 0 {
			// IIS restarts, with other columns in another order, or
			// its default ones again.
			if short = i%2 == 0; short {
				b.WriteString("#Software: Microsoft Internet Information Services 10.0\n#Fields: time-taken date time sc-status c-ip cs-method cs-uri-stem\n")
			} else {
				b.WriteString(iisHead)
			}
		}
		if short {
			fmt.Fprintf(&b, "%d 2026-11-29 10:%02d:%02d %d 203.0.113.%d POST /v1/x\n", 100+i, i/60, i%60, 200+i%3, i%7)
		} else {
			fmt.Fprintf(&b, "2026-11-29 10:%02d:%02d 10.0.0.5 GET /v1/y - 443 - 203.0.113.%d curl/8 - %d 0 0 %d\n", i/60, i%60, i%7, 200+i%3, 100+i)
		}
	}
	text := b.String()
	read := func(workers, block int) []string {
		t.Helper()
		sinks, res, err := Run([]string{"-"}, Options{Stdin: strings.NewReader(text), Workers: workers, blockSize: block},
			func() *w3cDigest { return &w3cDigest{} })
		if err != nil {
			t.Fatal(err)
		}
		if res.BadLines() != 0 || res.Files[0].Source != "iis" {
			t.Fatalf("%d bad lines, source %q (problems %v)", res.BadLines(), res.Files[0].Source, res.Problems)
		}
		var all []string
		for _, s := range sinks {
			all = append(all, s.recs...)
		}
		sort.Strings(all)
		return all
	}
	want := read(1, 0)
	if len(want) != 200 {
		t.Fatalf("%d records, want 200", len(want))
	}
	for _, c := range []struct{ workers, block int }{{3, 64}, {4, 200}, {2, 1000}} {
		got := read(c.workers, c.block)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%d workers, %d-byte blocks: records differ from one worker's", c.workers, c.block)
		}
	}
}

// w3cDigest keeps every record as text.
type w3cDigest struct{ recs []string }

func (d *w3cDigest) Add(r *Record) {
	rt, _ := r.Float(FRequestTime)
	st, _ := r.Int(FStatus)
	d.recs = append(d.recs, fmt.Sprintf("%d %v %d %s %s %s", r.TimeNS, rt, st, r.Text(FClient), r.Text(FMethod), r.Text(FURI)))
}

// FuzzW3C: any file read as W3C (--input-format w3c) through the
// pipeline, at small blocks and several workers, never panics; every line that is
// not blank and not a directive is a record or a bad line, none
// vanishes; every bad line is sampled with its file, a line number in
// the file and a reason; every record's times are in bounds.
func FuzzW3C(f *testing.F) {
	for _, name := range []string{"iis.log", "cloudfront.log", "aspnetcore-w3c.log"} {
		f.Add(fixtureText(f, name))
	}
	f.Add(iisHead + iisLine + "\n" + strings.ReplaceAll(iisLine, " ", "\t") + "\n#Fields: time-taken\n1e308\n-0\nNaN\n")
	f.Add("#Version: 1.0\n#Fields: date time time-taken\n\"2026-11-29\" \"10:00:00\" \"1\"\n\"\n9999-99-99 99:99:99 1\n")
	f.Add("#Fields:\n\n#Fields: date\n-\n \t\n#\n")
	f.Fuzz(func(t *testing.T, text string) {
		sinks, res, err := Run([]string{"-"}, Options{Format: W3C, Stdin: strings.NewReader(text), Workers: 3, blockSize: 64, MaxProblems: 1 << 20},
			func() *w3cBounds { return &w3cBounds{t: t} })
		if err != nil {
			t.Fatal(err)
		}
		fs := res.Files[0]
		if strings.Trim(text, "\x00") == "" && text != "" {
			// NUL bytes alone: no log, and not read (readFile).
			if !fs.Incomplete || fs.Records != 0 {
				t.Fatalf("NUL bytes alone: %+v", fs)
			}
			return
		}
		if fs.Format != W3C {
			t.Fatalf("format %s, want w3c", fs.Format)
		}
		// The lines as the pipeline cuts them, past the NUL bytes the
		// input begins with (a copytruncate hole, skipNULs).
		lines := strings.Split(strings.TrimLeft(text, "\x00"), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		requests := int64(0)
		for _, l := range lines {
			l = strings.TrimSuffix(l, "\r")
			if !blank([]byte(l)) && (l[0] != '#' || len(l) > MaxLine) {
				requests++
			}
		}
		var n int64
		for _, s := range sinks {
			n += s.n
		}
		if n != fs.Records || fs.Records+fs.BadLines != requests {
			t.Fatalf("%d records (sinks %d), %d bad lines; want %d lines read in all", fs.Records, n, fs.BadLines, requests)
		}
		if int64(len(res.Problems)) != fs.BadLines {
			t.Fatalf("%d problems for %d bad lines", len(res.Problems), fs.BadLines)
		}
		for _, p := range res.Problems {
			if p.File != "-" || p.Line < 1 || p.Line > int64(len(lines)) || p.Reason == "" {
				t.Fatalf("problem %+v: want the file, a line of it and a reason", p)
			}
			if l := lines[p.Line-1]; blank([]byte(l)) || l[0] == '#' && len(l) <= MaxLine {
				t.Fatalf("problem %+v on a line that is no request: %q", p, l)
			}
		}
	})
}

// w3cBounds counts records and checks their times are in bounds.
type w3cBounds struct {
	t *testing.T
	n int64
}

func (b *w3cBounds) Add(r *Record) {
	b.n++
	if x, ok := r.Float(FRequestTime); ok && !(x >= 0 && x <= MaxDurationS) {
		b.t.Fatalf("request_time = %v", x)
	}
	if x, ok := r.Float(FTTFB); ok && !(x >= 0 && x <= MaxDurationS*1000) {
		b.t.Fatalf("ttfb = %v ms", x)
	}
	if r.Has(FTime) && (r.TimeNS < MinTimeNS || r.TimeNS >= MaxTimeNS) {
		b.t.Fatalf("time %d out of bounds", r.TimeNS)
	}
}
