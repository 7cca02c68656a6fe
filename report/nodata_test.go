package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// firstLine is a report's first line.
func firstLine(b []byte) string {
	line, _, _ := strings.Cut(string(b), "\n")
	return line
}

// jsonDoc decodes a JSON report.
func jsonDoc(t *testing.T, r *Report) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(render(t, r, "json"), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// noLatencyJSONL writes n records that carry time, status and uri but no
// field loganalyze reads as request_time.
func noLatencyJSONL(n int) []byte {
	var b bytes.Buffer
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for i := range n {
		status := 200
		if i%4 == 0 {
			status = 502
		}
		line, _ := json.Marshal(map[string]any{
			"time":    start.Add(time.Duration(i) * time.Second).Format(time.RFC3339),
			"status":  status,
			"uri":     "/v1/chat/completions",
			"elapsed": 0.25,
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// checkNoData checks what every renderer says of a no_data report.
func checkNoData(t *testing.T, r *Report) {
	t.Helper()
	if r.NoData == nil || r.VerdictName() != VerdictNoData {
		t.Fatalf("verdict %q, want no_data", r.VerdictName())
	}
	if md := firstLine(render(t, r, "md")); !strings.Contains(md, "NO DATA") || !strings.Contains(md, "`request_time`") {
		t.Errorf("Markdown first line %q does not say no data and name request_time", md)
	}
	doc := jsonDoc(t, r)
	reason, _ := doc["verdict_reason"].(map[string]any)
	if doc["verdict"] != VerdictNoData || reason["missing"] != MissingField || !strings.Contains(reason["text"].(string), MissingField) {
		t.Errorf("JSON verdict %v, reason %v", doc["verdict"], reason)
	}
	prom := render(t, r, "prom")
	if l := firstLine(prom); !strings.HasPrefix(l, "# loganalyze: no_data: ") || !strings.Contains(l, MissingField) {
		t.Errorf("Prometheus first line %q", l)
	}
	fams := parseProm(t, prom)
	if find(t, fams["loganalyze_no_data"], nil) != 1 || find(t, fams["loganalyze_verdict"], map[string]string{"verdict": VerdictNoData}) != 1 ||
		find(t, fams["loganalyze_verdict"], map[string]string{"verdict": "ok"}) != 0 {
		t.Errorf("Prometheus verdict gauges wrong")
	}
	page := string(render(t, r, "html"))
	if !strings.Contains(page, `<header class="banner no_data"`) || !strings.Contains(page, `<span class="verdict">NO DATA</span> <span class="headline">no record `) ||
		!strings.Contains(page, "carries request_time (") {
		t.Errorf("HTML banner does not say no data")
	}
	if r.FailSeverity() < rules.Warn {
		t.Errorf("no_data fails at %v, want at least warn", r.FailSeverity())
	}
}

func TestNoDataOnEmptyInput(t *testing.T) {
	r := buildFrom(t, []byte{}, nil, 2, 1000, nil)
	checkNoData(t, r)
	if len(r.Unread) != 0 {
		t.Errorf("an empty input is unread: %v", r.Unread)
	}
	if got := r.NoData.text(english, plainText, plainText); !strings.Contains(got, "no record was read") || !strings.Contains(got, "-: empty") {
		t.Errorf("reason %q", got)
	}
	// The latency section says it has nothing rather than stand empty.
	const none = "No record in the window carries a latency field."
	if !strings.Contains(string(render(t, r, "md")), "## Latency (ms)\n\n"+none+"\n") || !strings.Contains(string(render(t, r, "html")), none) {
		t.Errorf("the latency section does not say it is empty")
	}
}

// TestNoDataOfNoField: records of names no canonical field is read from
// say so, not "carry" and nothing.
func TestNoDataOfNoField(t *testing.T) {
	// Rows whose only field read, "request", holds no request line (a
	// JSON body, as a Databricks inference table's): a value that
	// cannot be read, the records kept.
	r := buildFrom(t, []byte(`{"request":"{\"model\":\"x\"}","status_code":200}`+"\n"+`{"request":"{}","status_code":429}`+"\n"), nil, 1, 1000, nil)
	checkNoData(t, r)
	for _, m := range []printer{english, printerFor(LangZhCN)} {
		text := r.NoData.text(m, plainText, plainText)
		if want := m.f("nd.carrynone", m.n(2, "n.record")); !strings.Contains(text, want) || strings.Contains(text, "carry . ") {
			t.Errorf("reason %q lacks %q", text, want)
		}
	}
}

func TestNoDataWithoutRequestTime(t *testing.T) {
	r := buildFrom(t, noLatencyJSONL(14), nil, 2, 1000, nil)
	checkNoData(t, r)
	text := r.NoData.text(english, plainText, plainText)
	for _, want := range []string{"14 records in the window carry time, status, uri", "- (jsonl): 14 records without request_time"} {
		if !strings.Contains(text, want) {
			t.Errorf("reason %q lacks %q", text, want)
		}
	}
	// Findings from other fields are kept and still fail the run at
	// their severity; the verdict stays no_data.
	r = buildFrom(t, noLatencyJSONL(14), nil, 2, 1000, sampleFindings())
	checkNoData(t, r)
	if r.FailSeverity() != rules.Crit {
		t.Errorf("fail severity %v with a crit finding, want crit", r.FailSeverity())
	}
	md := string(render(t, r, "md"))
	if !strings.Contains(md, "## Findings") || !strings.Contains(md, "latency not judged; 2 findings from other fields (1 crit, 1 warn)") {
		t.Errorf("findings lost or not announced:\n%.600s", md)
	}
}

func TestNoDataOutsideWindow(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	accs, res, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Workers: 1, Stdin: bytes.NewReader(jsonl(t, goldenRequests()[:20], 0))},
		func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: m, Top: 100, HasSince: true, Since: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()})
		})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(BuildInput{Aggregate: aggregate.MergeAll(accs), Read: res, Location: time.UTC})
	checkNoData(t, r)
	text := r.NoData.text(english, plainText, plainText)
	if !strings.HasPrefix(text, "No record in the window carries request_time") || !strings.Contains(text, "all 20 records read are outside the window") || !strings.Contains(text, "--since/--until") {
		t.Errorf("reason %q", text)
	}
}

func TestNoDataHints(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	in := &ingest.Result{
		Files: []ingest.FileStats{
			{Path: "a.jsonl", Format: ingest.JSONL, Records: 0, BadLines: 3, Seen: []string{"timestamp", "elapsed_ms", "code", "took_us", "create_time", "TotalDurationNs", "upstream_latency"}},
			{Path: "b.log", Format: ingest.Nginx, Incomplete: true, Reason: "nginx text needs a log_format"},
			{Path: "c.log", Format: ingest.JSONL},
		},
		Problems: []ingest.Problem{{File: "a.jsonl", Line: 2, Reason: "no field loganalyze knows"}},
	}
	r := Build(BuildInput{Aggregate: acc, Read: in, Location: time.UTC})
	var flags []string
	for _, h := range r.NoData.Hints {
		flags = append(flags, h.Flag)
	}
	// A whole request's duration (its name says total) first.
	want := []string{"--map request_time=TotalDurationNs:ns", "--map request_time=elapsed_ms:ms", "--map request_time=took_us:us", "--log-format", "--input-format"}
	if strings.Join(flags, " ") != strings.Join(want, " ") {
		t.Errorf("hints %q, want %q", flags, want)
	}
	if len(r.Unread) != 2 || r.Unread[0].Path != "a.jsonl" || r.Unread[1].Path != "b.log" {
		t.Fatalf("unread %v, want a.jsonl and b.log (c.log is empty)", r.Unread)
	}
	if got := r.Unread[0].Reason; got != "3 bad lines as jsonl, the first at line 2: no field loganalyze knows" {
		t.Errorf("reason %q", got)
	}
	text := r.NoData.text(english, plainText, plainText)
	for _, want := range []string{"Fields seen: timestamp, elapsed_ms, code,", "b.log: nginx text needs a log_format", "c.log: empty", "Try --map request_time=TotalDurationNs:ns ("} {
		if !strings.Contains(text, want) {
			t.Errorf("reason %q lacks %q", text, want)
		}
	}
}

// TestMapHintsBySource: the --map hints offer a name a file's source
// leaves unread (Cloudflare AI Gateway's API duration, whose unit it does
// not document: ms, its Logpush durationMs's), though the generic names read it, and never a cost
// without a unit of time (money, in an LLM gateway's log).
func TestMapHintsBySource(t *testing.T) {
	seen := []string{"id", "cached", "created_at", "duration", "model", "path", "provider", "tokens_in", "cost", "custom_cost", "queue_cost_ms"}
	for _, c := range []struct {
		source string
		want   []string
	}{
		{"cloudflare-aig", []string{"--map request_time=duration:ms", "--map request_time=queue_cost_ms:ms"}},
		{"", []string{"--map request_time=queue_cost_ms:ms"}}, // duration is request_time's generic name
	} {
		files := []ingest.FileStats{{Path: "a.json", Format: ingest.JSONDoc, Source: c.source, Records: 5, Seen: seen}}
		var flags []string
		for _, h := range hints(&NoData{Records: 5}, files) {
			if strings.HasPrefix(h.Flag, "--map") {
				flags = append(flags, h.Flag)
			}
		}
		if strings.Join(flags, " ") != strings.Join(c.want, " ") {
			t.Errorf("source %q: hints %q, want %q", c.source, flags, c.want)
		}
	}
}

// TestTimeNumberHint: a file whose lines were bad for a time that was a
// number (a duration read as the time) is told to map the name read as
// the time, the one that says no time of day first; not when most of
// its bad lines were bad otherwise.
func TestTimeNumberHint(t *testing.T) {
	for _, c := range []struct {
		seen        []string
		bad, number int64
		want        string
	}{
		{[]string{"timestamp", "time", "status"}, 10, 10, "--map request_time=time:s"},
		{[]string{"time", "timestamp"}, 10, 6, "--map request_time=time:s"},
		{[]string{"created_at", "status"}, 4, 4, "--map request_time=created_at:s"},
		{[]string{"timestamp", "time", "status"}, 10, 4, ""}, // most bad otherwise
		{[]string{"status", "elapsed"}, 10, 10, ""},          // no name read as the time
	} {
		files := []ingest.FileStats{{Path: "a.jsonl", Format: ingest.JSONL, BadLines: c.bad, TimeNumbers: c.number, Seen: c.seen}}
		got := ""
		for _, h := range hints(&NoData{}, files) {
			if h.id == "hint.numtime" {
				got = h.Flag
			}
		}
		if got != c.want {
			t.Errorf("seen %v, %d of %d bad lines a time that was a number: hint %q, want %q", c.seen, c.number, c.bad, got, c.want)
		}
	}
}

func TestUnitGuess(t *testing.T) {
	for name, want := range map[string]string{
		"elapsed_ms": "ms", "durationMs": "ms", "took_us": "us", "latencyNanos": "ns",
		"elapsed": "s", "ms": "s", "status": "s", "request_duration_sec": "s",
		// Apache's %D as alp's LTSV names it, and its like in ns and ms.
		"reqtime_microsec": "us", "duration_nsec": "ns", "took_millisec": "ms",
	} {
		if got := unitGuess(name); got != want {
			t.Errorf("unitGuess(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestUnitFor: a name that tells no unit takes the one its values'
// magnitude tells; one that tells keeps it, whatever its values.
func TestUnitFor(t *testing.T) {
	mags := map[string]ingest.Magnitude{
		"latency":         {N: 600, Median: 15202, Whole: true},    // OpenRouter's ms
		"duration":        {N: 64, Median: 1.234, Whole: false},    // s
		"elapsed":         {N: 64, Median: 812.5, Whole: false},    // ms with a fraction
		"took":            {N: 64, Median: 3_500_000, Whole: true}, // µs
		"time_taken":      {N: 64, Median: 2.5e9, Whole: true},     // ns
		"response_time":   {N: 64, Median: 3, Whole: true},         // whole seconds
		"generation_time": {N: 2, Median: 15000, Whole: true},      // too few values
		"elapsed_ms":      {N: 64, Median: 1.5, Whole: false},      // its name tells
	}
	files := []ingest.FileStats{{Path: "a.jsonl"}, {Path: "b.jsonl", Magnitudes: mags}}
	for name, want := range map[string]string{
		"latency": "ms", "duration": "s", "elapsed": "ms", "took": "us", "time_taken": "ns",
		"response_time": "s", "generation_time": "s", "elapsed_ms": "ms", "unseen": "s",
	} {
		if got := unitFor(name, files); got != want {
			t.Errorf("unitFor(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestInputNoteNamesFilesReadInPart: the verdict's input note counts the
// bad lines and names the files read only in part with why (at most
// three, the rest counted), leaves out a file no record was read from
// (the verdict names it as not read), and escapes a reason's log text.
func TestInputNoteNamesFilesReadInPart(t *testing.T) {
	r := &Report{
		Input: Input{BadLines: 2, Incomplete: true, Files: []ingest.FileStats{
			{Path: "a.jsonl.gz", Incomplete: true, Reason: "truncated: unexpected EOF"},
			{Path: "ok.jsonl"},
			{Path: "none.parquet", Incomplete: true, Reason: "damaged parquet file: bad footer"},
			{Path: "b.parquet", Incomplete: true, Reason: "damaged parquet file: column \"x|<b>\" near row 7"},
			{Path: "c.arrow", Incomplete: true, Reason: "damaged arrow file"},
			{Path: "d.zst", Incomplete: true, Reason: "truncated"},
		}},
		Unread: []UnreadFile{{Path: "none.parquet", Reason: "damaged parquet file: bad footer"}},
	}
	for _, c := range []struct {
		p          printer
		text, code func(string) string
		want       string
	}{
		{english, mdText, mdCode, "2 bad lines, 4 files read in part: `a.jsonl.gz` (truncated: unexpected EOF), " +
			"`b.parquet` (damaged parquet file: column \"x\\|&lt;b&gt;\" near row 7), `c.arrow` (damaged arrow file), 1 more"},
		{english, plainText, plainText, "2 bad lines, 4 files read in part: a.jsonl.gz (truncated: unexpected EOF), " +
			"b.parquet (damaged parquet file: column \"x|<b>\" near row 7), c.arrow (damaged arrow file), 1 more"},
		{printerFor(LangZhCN), plainText, plainText, "2 行无法解析，4 个文件只读取了一部分：a.jsonl.gz（truncated: unexpected EOF），" +
			"b.parquet（damaged parquet file: column \"x|<b>\" near row 7），c.arrow（damaged arrow file），另有 1 个"},
	} {
		if got := r.inputNote(c.p, c.text, c.code); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.p.lang, got, c.want)
		}
	}
	r.Input = Input{BadLines: 1}
	if got, want := r.inputNote(english, plainText, plainText), "1 bad line"; got != want {
		t.Errorf("bad lines only: %q, want %q", got, want)
	}
	r.Input = Input{Files: []ingest.FileStats{{Path: "ok.jsonl"}}}
	if got := r.inputNote(english, plainText, plainText); got != "" {
		t.Errorf("nothing bad: %q, want none", got)
	}
}

// TestNoDataHintsJSONOnly: a JSON file none of whose lines could be read
// is not told to give a --log-format, which describes text logs only.
func TestNoDataHintsJSONOnly(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	for _, format := range []ingest.Format{ingest.JSONL, ingest.JSONDoc} {
		in := &ingest.Result{
			Files:    []ingest.FileStats{{Path: "a.json", Format: format, BadLines: 2, Seen: []string{"time", "request_time"}}},
			Problems: []ingest.Problem{{File: "a.json", Line: 1, Reason: `request_time: cannot read "abc"`}},
		}
		r := Build(BuildInput{Aggregate: acc, Read: in, Location: time.UTC})
		var flags []string
		for _, h := range r.NoData.Hints {
			flags = append(flags, h.Flag)
		}
		if strings.Join(flags, " ") != "--input-format" {
			t.Errorf("%s: hints %q, want only --input-format", format, flags)
		}
	}
}

// TestHeaderOnlyTable: a CSV or TSV file whose one line was read as its
// header is not called empty.
func TestHeaderOnlyTable(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	in := &ingest.Result{Files: []ingest.FileStats{
		{Path: "one.log", Format: ingest.TSV, Seen: []string{"2026/11/29 10:00:01.000", "INFO"}},
		{Path: "none.csv", Format: ingest.CSV},
	}}
	r := Build(BuildInput{Aggregate: acc, Read: in, Location: time.UTC})
	text := r.NoData.text(english, plainText, plainText)
	for _, want := range []string{"one.log: one line, read as a tsv header, and no row after it", "none.csv: empty"} {
		if !strings.Contains(text, want) {
			t.Errorf("reason %q lacks %q", text, want)
		}
	}
}

// TestPassedOver: a file some of whose records its source marks as no
// requests (Langfuse's spans and events) says how many next to it, in
// the Input table and the JSON; a file all of whose records are such is
// neither empty nor unread, and the no_data reason says why it gave
// none. A file of no record read says how many it passed over beside
// its bad lines.
func TestPassedOver(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	in := &ingest.Result{Files: []ingest.FileStats{
		{Path: "lf/a.jsonl", Format: ingest.JSONL, Source: "langfuse", Records: 5, PassedOver: 4},
		{Path: "lf/b.jsonl", Format: ingest.JSONL, Source: "langfuse", PassedOver: 3},
		{Path: "c.jsonl", Format: ingest.JSONL, Records: 2},
		// A request's other events, beside the service's own line: the
		// note says so, not only the bad line.
		{Path: "svc.log", Format: ingest.Tracing, Source: "tracing", PassedOver: 625, BadLines: 1},
		{Path: "bad.log", Format: ingest.Tracing, Source: "tracing", PassedOver: 2, BadLines: 9},
	}, Problems: []ingest.Problem{{File: "svc.log", Line: 1, Reason: "not a request"}, {File: "bad.log", Line: 3, Reason: "cut short"}}}
	r := Build(BuildInput{Aggregate: acc, Read: in, Location: time.UTC})
	if len(r.Unread) != 1 || r.Unread[0].Path != "bad.log" {
		t.Errorf("unread %v, want none: every file was read", r.Unread)
	}
	md := string(render(t, r, "md"))
	for _, want := range []string{"| lf/a.jsonl | jsonl | 5 | 0 | 4 records passed over, no requests to langfuse |",
		"| lf/b.jsonl | jsonl | 0 | 0 | no record read: 3 records read, none a request to langfuse |",
		"| c.jsonl | jsonl | 2 | 0 |  |",
		"| svc.log | tracing | 0 | 1 | no record read: 625 records passed over, no requests to tracing; 1 bad line as tracing, the first at line 1: not a request |",
		"| bad.log | tracing | 0 | 9 | no record read: 9 bad lines as tracing, the first at line 3: cut short; 2 records passed over, no requests to tracing |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if text := r.NoData.text(english, plainText, plainText); !strings.Contains(text, "lf/b.jsonl (jsonl, langfuse): 3 records read, none a request to langfuse") {
		t.Errorf("no_data reason %q", text)
	}
	// A file of spans alone is not told to --map its latency or cost.
	only := &ingest.Result{Files: []ingest.FileStats{{Path: "spans.jsonl", Format: ingest.JSONL, Source: "langfuse", PassedOver: 3,
		Seen: []string{"start_time", "end_time", "latency", "total_cost"}}}}
	if h := Build(BuildInput{Aggregate: acc, Read: only, Location: time.UTC}).NoData.Hints; len(h) != 0 {
		t.Errorf("hints %+v for a file of spans, want none", h)
	}
	if page := string(render(t, r, "html")); !strings.Contains(page, "4 records passed over, no requests to langfuse") {
		t.Errorf("HTML lacks the note")
	}
	if zh := string(renderIn(t, r, "md", LangZhCN)); !strings.Contains(zh, "跳过 4 条记录：对 langfuse 而言不是请求") {
		t.Errorf("zh-CN Markdown lacks the note")
	}
	files := jsonDoc(t, r)["input"].(map[string]any)["files"].([]any)
	for i, want := range []float64{4, 3, 0, 625, 2} {
		got, ok := files[i].(map[string]any)["passed_over"].(float64)
		if got != want || ok != (want > 0) {
			t.Errorf("file %d: passed_over %v (present %v), want %v", i, got, ok, want)
		}
	}
}

// TestZoneNote: a file whose zone-less times were read in the zone its
// epochs gave (ingest.FileStats.Zone) says so in the Input table, in
// each language, and the JSON names the zone; other files say nothing.
func TestZoneNote(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	in := &ingest.Result{Files: []ingest.FileStats{
		{Path: "sls.jsonl", Format: ingest.JSONL, Records: 5, Zone: "UTC+08:00"},
		{Path: "c.jsonl", Format: ingest.JSONL, Records: 2},
	}}
	r := Build(BuildInput{Aggregate: acc, Read: in, Location: time.UTC})
	note := "its times without a zone read in UTC+08:00, as the epoch the log service keeps beside them gives them, not --tz's"
	md := string(render(t, r, "md"))
	for _, want := range []string{"| sls.jsonl | jsonl | 5 | 0 | " + note + " |", "| c.jsonl | jsonl | 2 | 0 |  |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if page := string(render(t, r, "html")); !strings.Contains(page, "read in UTC&#43;08:00, as the epoch the log service keeps beside them") {
		t.Errorf("HTML lacks the note")
	}
	if zh := string(renderIn(t, r, "md", LangZhCN)); !strings.Contains(zh, "其无时区的时间按 UTC+08:00 读取") {
		t.Errorf("zh-CN Markdown lacks the note")
	}
	files := jsonDoc(t, r)["input"].(map[string]any)["files"].([]any)
	for i, want := range []string{"UTC+08:00", ""} {
		got, ok := files[i].(map[string]any)["zone"].(string)
		if got != want || ok != (want != "") {
			t.Errorf("file %d: zone %q (present %v), want %q", i, got, ok, want)
		}
	}
}

// TestServerLogNotes: a file that is a server's own log says what it is
// and how many of its lines were passed over, in each language, for each
// server log ingest tells.
func TestServerLogNotes(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	for _, name := range ingest.ServerLogNames() {
		for _, cat := range []map[msgID]string{enMessages, zhMessages} {
			if cat[msgID("srv."+name)] == "" {
				t.Errorf("no message srv.%s", name)
			}
		}
	}
	in := &ingest.Result{Files: []ingest.FileStats{
		{Path: "access.log", Format: ingest.Nginx, Source: "nginx:combined", Records: 5},
		{Path: "error.log", Format: ingest.Nginx, Source: "nginx-error", PassedOver: 11},
	}}
	r := Build(BuildInput{Aggregate: acc, Read: in, Location: time.UTC})
	if len(r.Unread) != 0 {
		t.Errorf("unread %v: an error log is read", r.Unread)
	}
	if md := string(render(t, r, "md")); !strings.Contains(md, "| error.log | nginx | 0 | 0 | no record read: nginx's error log, which holds no request: 11 lines passed over |") {
		t.Errorf("Markdown lacks the error log's note:\n%s", md)
	}
	if zh := string(renderIn(t, r, "md", LangZhCN)); !strings.Contains(zh, "nginx 的错误日志，其中没有请求：跳过 11 行") {
		t.Errorf("zh-CN Markdown lacks the error log's note")
	}
}

// TestNoDataAppServers: a uvicorn access log, which has no request time
// whatever its configuration, says so for its file and offers no flag;
// a gunicorn log read with a format that logs none offers the atoms
// that would, not nginx's variables.
func TestNoDataAppServers(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		formats    []string
		why, hint  string
	}{
		{"uvicorn", `INFO:     10.0.0.5:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK` + "\n" +
			`INFO:     10.0.0.6:51240 - "GET /v1/models HTTP/1.1" 404 Not Found` + "\n", nil,
			"- (nginx, uvicorn): 2 records without request_time: uvicorn's access log writes no request time", ""},
		// uvicorn behind SGLang's logger, its time a variable of the
		// format's own: no duration to map, the time least of all.
		{"uvicorn dated", `[2026-03-10 16:00:00] INFO:     10.0.3.200:38160 - "POST /v1/chat/completions HTTP/1.1" 200 OK` + "\n" +
			`[2026-03-10 16:00:07] INFO:     10.0.1.5:53959 - "POST /v1/chat/completions HTTP/1.1" 429 Too Many Requests` + "\n", nil,
			"- (nginx, uvicorn): 2 records without request_time: uvicorn's access log writes no request time", ""},
		// AWS's Classic Load Balancer: its times end when the response
		// began, none to map.
		{"aws-elb", `2026-12-05T10:00:00.120453Z lb 203.0.113.7:2817 10.0.0.1:80 0.000073 2.481048 0.000057 200 200 812 5316 "POST http://api:80/v1/chat/completions HTTP/1.1" "curl/8" - -` + "\n" +
			`2026-12-05T10:00:01.5Z lb 203.0.113.8:2818 10.0.0.1:80 0.000051 0.012001 0.000019 429 429 790 96 "POST http://api:80/v1/chat/completions HTTP/1.1" "curl/8" - -` + "\n", nil,
			"- (nginx, aws-elb): 2 records without request_time: the Classic Load Balancer's access log has no duration of the whole response", ""},
		// Linkerd's proxy's apache format: its durations are only in its
		// json format, which the reason names; no flag.
		{"linkerd", `10.42.0.1:43682 - - [2022-08-23T20:28:23.049685223Z] "GET /ping HTTP/1.1" 200` + "\n" +
			`10.42.0.70:32996 web.apps.serviceaccount.identity.linkerd.cluster.local - [2026-12-05T10:00:02Z] "POST http://llm-gw:8000/v1/chat/completions HTTP/2.0" 200` + "\n", nil,
			"- (nginx, linkerd): 2 records without request_time: Linkerd's proxy leaves its durations (total_ns, processing_ns) out of its apache access log format", ""},
		// llama.cpp's server's text log: no duration in any
		// configuration; no flag, its epoch timestamp no duration.
		{"llama-server", `INFO [      log_server_request] request | tid="1" timestamp=1773129600 remote_addr="10.0.3.200" remote_port=38160 status=200 method="POST" path="/v1/chat/completions" params={}` + "\n" +
			`INFO [      log_server_request] request | tid="1" timestamp=1773129607 remote_addr="10.0.1.5" remote_port=53959 status=429 method="POST" path="/v1/chat/completions" params={}` + "\n", nil,
			"- (nginx, llama-server): 2 records without request_time: llama.cpp's server logs each request with no duration", ""},
		// Django's and werkzeug's development servers: no duration; their
		// date is no duration to map.
		{"django", `[05/Dec/2026 10:00:00] "POST /v1/chat/completions HTTP/1.1" 200 8393` + "\n" +
			`[05/Dec/2026 10:00:09] "POST /v1/chat/completions HTTP/1.1" 429 58` + "\n", nil,
			"- (nginx, django): 2 records without request_time: django's development server logs each request with no duration", ""},
		{"werkzeug", `127.0.0.1 - - [05/Dec/2026 10:00:00] "POST /x HTTP/1.1" 200 -` + "\n", nil,
			"- (nginx, werkzeug): 1 record without request_time: werkzeug's development server logs each request with no duration", ""},
		// Cloudflare's Logpush job with the dashboard's timestamp_format
		// (rfc3339): its times are whole seconds, not read as a duration.
		{"cloudflare", `{"ClientIP":"203.0.113.7","ClientRequestHost":"api.example.com","ClientRequestMethod":"POST","ClientRequestURI":"/v1/chat/completions","EdgeStartTimestamp":"2026-12-05T10:00:00Z","EdgeEndTimestamp":"2026-12-05T10:00:03Z","EdgeResponseStatus":200,"OriginResponseDurationMs":2950,"RayID":"8f1d2c3b4a5e6f70"}` + "\n", nil,
			"(jsonl, cloudflare): 1 record without request_time: a Cloudflare Logpush record's duration is EdgeEndTimestamp − EdgeStartTimestamp", ""},
		// Databricks' usage table (system.serving.endpoint_usage): no
		// duration of any kind; its request_time is the arrival, and its
		// character counts are no duration to map.
		{"databricks-usage", `{"databricks_request_id":"6513270e-269e-0d37-f2a7-4de452e6b438","requester":"alice@example.com","status_code":200,"request_time":"2026-12-05T10:00:00.000Z","input_token_count":84,"output_token_count":421,"input_character_count":336,"output_character_count":1684,"request_streaming":true,"served_entity_id":"2c5e22cf20044862812dfb724749c87c"}` + "\n", nil,
			"(jsonl, databricks-usage): 1 record without request_time: Databricks' usage table (system.serving.endpoint_usage) has no duration", ""},
		{"gunicorn", `10.0.0.5 - - [04/Dec/2026:10:00:01 +0000] "POST /v1/chat/completions HTTP/1.1" 200 1532 "-" "curl/8"` + "\n",
			[]string{`%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"`},
			"- (nginx, gunicorn): 1 record without request_time", "--log-format the gunicorn access_log_format read has no request time: add %(L)s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mapping, _ := sketch.NewMapping(sketch.DefaultAccuracy)
			accs, res, err := ingest.Run([]string{"-"}, ingest.Options{LogFormats: tc.formats, Location: time.UTC, Workers: 1, Stdin: strings.NewReader(tc.data)},
				func() *aggregate.Accumulator { return aggregate.New(aggregate.Options{Mapping: mapping, Top: 10}) })
			if err != nil {
				t.Fatal(err)
			}
			r := Build(BuildInput{Aggregate: aggregate.MergeAll(accs), Read: res, Location: time.UTC})
			checkNoData(t, r)
			if text := r.NoData.text(english, plainText, plainText); !strings.Contains(text, tc.why) {
				t.Errorf("reason %q lacks %q", text, tc.why)
			}
			var hints []string
			for _, h := range r.NoData.Hints {
				hints = append(hints, h.Flag+" "+h.Why)
			}
			got := strings.Join(hints, "; ")
			if tc.hint == "" && got != "" || tc.hint != "" && !strings.HasPrefix(got, tc.hint) {
				t.Errorf("hints %q, want %q", got, tc.hint)
			}
		})
	}
}

// TestELBFileNote: a Classic Load Balancer's log read beside logs with a
// request_time is noted with why it has none, and offers no --map of
// its processing times, which end when the response began.
func TestELBFileNote(t *testing.T) {
	f := ingest.FileStats{Path: "elb.log", Format: ingest.Nginx, Source: "aws-elb", Records: 4, WithoutRequestTime: 4,
		Seen: []string{"time", "elb", "request_processing_time", "backend_processing_time", "response_processing_time"}}
	note := (&Report{}).fileNote(english, f)
	if !strings.Contains(note, "Classic Load Balancer's access log has no duration") || strings.Contains(note, "--map") {
		t.Errorf("note %q", note)
	}
	f.Source = "" // the same names of another log: the map is offered
	if note := (&Report{}).fileNote(english, f); !strings.Contains(note, "--map request_time=request_processing_time") {
		t.Errorf("note %q lacks the map", note)
	}
}

// TestNoDataHintsGateway: of Alibaba Cloud API Gateway's names (in an SLS
// export), the whole request's duration is offered first, and neither
// SLS's __time__ nor requestHandleTime, instants, is offered as one.
func TestNoDataHintsGateway(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	in := &ingest.Result{Files: []ingest.FileStats{{Path: "gw.jsonl", Format: ingest.JSONL, Records: 4,
		Seen: []string{"__time__", "__source__", "requestId", "requestHandleTime", "serviceLatency", "totalLatency", "statusCode"}}}}
	r := Build(BuildInput{Aggregate: acc, Read: in, Location: time.UTC})
	var flags []string
	for _, h := range r.NoData.Hints {
		flags = append(flags, h.Flag)
	}
	if want := "--map request_time=totalLatency:s --map request_time=serviceLatency:s"; !strings.HasPrefix(strings.Join(flags, " "), want) ||
		strings.Contains(strings.Join(flags, " "), "__time__") || strings.Contains(strings.Join(flags, " "), "requestHandleTime") {
		t.Errorf("hints %q, want them to begin %q and offer no instant", flags, want)
	}
}

// TestCSVHeaderHint: a CSV or TSV file that read nothing and whose
// header is a row of values (a time, numbers) is a file without a header
// row: the first hint is --csv-header, naming it, and no --log-format; a
// file of names, or a text log of one line read as a header, gets none.
func TestCSVHeaderHint(t *testing.T) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	for _, c := range []struct {
		f    ingest.FileStats
		want bool
	}{
		{ingest.FileStats{Path: "/x/cos.csv", Format: ingest.CSV, BadLines: 3, Seen: []string{"2026-12-05T10:00:00Z", "ap-beijing", "qwen", "200", "0.5"}}, true},
		{ingest.FileStats{Path: "/x/cos.tsv", Format: ingest.TSV, BadLines: 3, Seen: []string{"1764928800", "10.0.0.1", "200", "0.512"}}, true},
		// DuckDB's HEADER false: a missing value, a flag in the first row;
		// PostgreSQL's \copy: \N.
		{ingest.FileStats{Path: "/x/duck.csv", Format: ingest.CSV, BadLines: 3, Seen: []string{"2026-11-29 02:00:00+00", "app-a", "ap-beijing", "gpt-4o", "502", "false", "3.05", "", "3.019", "2716", "50", "POST", "/v1/chat/completions"}}, true},
		{ingest.FileStats{Path: "/x/copy.tsv", Format: ingest.TSV, BadLines: 3, Seen: []string{"2026-11-29 02:00:00+00", "app-a", "gpt-4o", "502", "f", "3.05", `\N`, "3.019", `\N`, "POST", "/v1/chat/completions"}}, true},
		{ingest.FileStats{Path: "/x/names.csv", Format: ingest.CSV, BadLines: 3, Seen: []string{"ts", "host", "latency"}}, false},
		{ingest.FileStats{Path: "/x/one.log", Format: ingest.TSV, Seen: []string{"2026/11/29 10:00:01.000", "INFO"}}, false},
	} {
		r := Build(BuildInput{Aggregate: acc, Read: &ingest.Result{Files: []ingest.FileStats{c.f}}, Location: time.UTC})
		var flags []string
		for _, h := range r.NoData.Hints {
			flags = append(flags, h.Flag)
		}
		got := len(flags) > 0 && flags[0] == "--csv-header"
		if got != c.want || got && strings.Contains(strings.Join(flags, " "), "--log-format") {
			t.Errorf("%s: hints %q, want --csv-header first: %v, and no --log-format", c.f.Path, flags, c.want)
		}
		if got && !strings.Contains(r.NoData.Hints[0].Why, filepath.Base(c.f.Path)+" has no header row") {
			t.Errorf("%s: hint %q does not name the file", c.f.Path, r.NoData.Hints[0].Why)
		}
		// The file's own note says it too, as in a run that read others.
		if note := r.fileNote(english, c.f); strings.Contains(note, "no header row") != c.want {
			t.Errorf("%s: file note %q, want it to say no header row: %v", c.f.Path, note, c.want)
		}
	}
}

// TestRefusedHint: a generic name left unread for its values' size is
// offered to --map in the unit they tell, saying why; one read in the
// unit its values are written in is named in the file's note, as is
// one left unread in a report that judged latency from other files.
func TestRefusedHint(t *testing.T) {
	refused := ingest.Refused{Name: "duration", Unit: ingest.UnitMilli, Magnitude: ingest.Magnitude{N: 40, Median: 138095545, Whole: true}}
	files := []ingest.FileStats{{Path: "a.jsonl", Format: ingest.JSONL, Records: 40, Seen: []string{"time", "status", "duration"}, Refused: []ingest.Refused{refused}}}
	hs := hints(&NoData{Records: 40}, files)
	if len(hs) == 0 || hs[0].Flag != "--map request_time=duration:ns" || hs[0].id != "hint.refused" {
		t.Fatalf("hints %+v, want --map request_time=duration:ns first, for its values", hs)
	}
	// 138095545 ms is 38 h 21 min 35.545 s.
	if why := hs[0].why(english); !strings.Contains(why, "median 138095545") || !strings.Contains(why, "38h21m36s") {
		t.Errorf("hint's reason %q lacks the median and the request it would make", why)
	}
	r := &Report{}
	if note := r.fileNote(english, files[0]); !strings.Contains(note, "duration not read") || !strings.Contains(note, "--map request_time=duration:ns") {
		t.Errorf("note %q does not name the name left unread and its --map", note)
	}
	readIn := files[0]
	readIn.Refused = []ingest.Refused{{Name: "duration", Unit: ingest.UnitMilli, ReadIn: ingest.UnitSecond, Magnitude: ingest.Magnitude{N: 40, Median: 1.183}}}
	if note := r.fileNote(english, readIn); !strings.Contains(note, "duration read in s, not ms") {
		t.Errorf("note %q does not say duration was read in s", note)
	}
	// Fractions of median under 10, read in s (a Python logger's): the
	// note says why, and the --map that reads them in ms.
	frac := files[0]
	frac.Refused = []ingest.Refused{{Name: "duration", Unit: ingest.UnitMilli, ReadIn: ingest.UnitSecond, Fractions: true, Magnitude: ingest.Magnitude{N: 40, Median: 0.469}}}
	if note := r.fileNote(english, frac); !strings.Contains(note, "duration read in s, not ms: most of its values are fractions (median 0.469)") ||
		!strings.Contains(note, "--map request_time=duration:ms") || strings.Contains(note, "nginx") {
		t.Errorf("note %q does not say duration was read in s for its fractions, nor the --map for ms", note)
	}
	for _, h := range hints(&NoData{Records: 40}, []ingest.FileStats{readIn, frac}) {
		if h.id == "hint.refused" {
			t.Errorf("a name read in its values' unit is offered to --map: %+v", h)
		}
	}
}

// TestRefusedUnit: the unit offered for a refused name's values is the
// one that makes their tail a request's (ten minutes at most) and their
// median nearest a second: slog's ns, with or without a service's health
// checks of µs; integer ms under request_time's seconds.
func TestRefusedUnit(t *testing.T) {
	for _, c := range []struct {
		r    ingest.Refused
		want string
	}{
		{ingest.Refused{Unit: ingest.UnitMilli, Magnitude: ingest.Magnitude{Median: 150e6}, Tail: 540e6}, "ns"},  // 0.15 s, 0.54 s
		{ingest.Refused{Unit: ingest.UnitMilli, Magnitude: ingest.Magnitude{Median: 680373}, Tail: 4.6e9}, "ns"}, // probes
		{ingest.Refused{Unit: ingest.UnitSecond, Magnitude: ingest.Magnitude{Median: 15000}, Tail: 30000}, "ms"},
		{ingest.Refused{Unit: ingest.UnitSecond, Magnitude: ingest.Magnitude{Median: 2e6}, Tail: 9e6}, "us"},
	} {
		if got := refusedUnit(c.r); got != c.want {
			t.Errorf("refusedUnit(%+v) = %s, want %s", c.r, got, c.want)
		}
	}
}

// TestInstantsNotOfferedAsDurations: names of instants (Azure's
// TimeGenerated, Vertex AI's logging_time, Gloo's systemTime) are never offered to --map as
// a request's duration.
func TestInstantsNotOfferedAsDurations(t *testing.T) {
	files := []ingest.FileStats{{Path: "a.jsonl", Format: ingest.JSONL, Records: 5,
		Seen: []string{"TimeGenerated", "logging_time", "received_time", "ingest_time", "systemTime", "elapsed"}}}
	names := durationNames(files)
	if len(names) != 1 || names[0] != "elapsed" {
		t.Errorf("durationNames = %q, want only elapsed", names)
	}
}

// TestZipkinKindless: Zipkin's spans trimmed of their kind but not of
// their start ({traceId, id, timestamp, duration, tags}) are read as
// Zipkin's, and none is a server's: the reason says they carry no kind
// and to keep it, in English and Chinese; spans that carry a kind, none
// a server's, are told none is a request, without that advice.
func TestZipkinKindless(t *testing.T) {
	span := `{"traceId":"63ca828dd5f4b3b2e4b06ce60741c7a8","id":"%016x",%s"timestamp":%d,"duration":1326770,"tags":{"http.method":"POST","http.path":"/v1/chat/completions","http.status_code":"200"}}` + "\n"
	for _, kind := range []string{"", `"kind":"CLIENT",`} {
		var lines strings.Builder
		for i := range 3 {
			fmt.Fprintf(&lines, span, 0x1b810e766ec9d286+i, kind, 1796464804201000+i*1000)
		}
		r := buildFrom(t, []byte(lines.String()), nil, 1, 1000, nil)
		checkNoData(t, r)
		if f := r.Input.Files[0]; f.Source != "zipkin" || f.PassedOver != 3 {
			t.Fatalf("kind %q: file %+v, want zipkin's, 3 spans passed over", kind, f)
		}
		text := r.NoData.text(english, plainText, plainText)
		says := strings.Contains(text, "the spans carry no kind") && strings.Contains(text, "keep kind in the export")
		if says != (kind == "") || !strings.Contains(text, "3 records read, none a request to zipkin") {
			t.Errorf("kind %q: reason %q", kind, text)
		}
		if zh := r.NoData.text(printerFor(LangZhCN), plainText, plainText); strings.Contains(zh, "没有 kind") != (kind == "") {
			t.Errorf("kind %q: zh-CN reason %q", kind, zh)
		}
	}
}

// TestInstantsNotOfferedByValue: Akamai's DataStream log names its
// request's start reqTimeSec, epoch seconds with ms, and its durations
// …TimeMSec: the instant is not offered to --map as a duration, by its
// first values, and the durations are offered in ms, by their names.
func TestInstantsNotOfferedByValue(t *testing.T) {
	files := []ingest.FileStats{{Path: "akamai.jsonl", Format: ingest.JSONL, Records: 5,
		Seen: []string{"reqTimeSec", "turnAroundTimeMSec", "transferTimeMSec"},
		Magnitudes: map[string]ingest.Magnitude{
			"reqTimeSec":         {N: 5, Median: 1733565600.123},
			"turnAroundTimeMSec": {N: 5, Median: 1234, Whole: true},
			"transferTimeMSec":   {N: 5, Median: 55, Whole: true},
		}}}
	if names := durationNames(files); !slices.Equal(names, []string{"turnAroundTimeMSec", "transferTimeMSec"}) {
		t.Errorf("durationNames = %q, want the two …TimeMSec", names)
	}
	for _, n := range []string{"turnAroundTimeMSec", "transferTimeMSec"} {
		if u := unitFor(n, files); u != "ms" {
			t.Errorf("unit of %s: %s, want ms", n, u)
		}
	}
	for _, c := range []struct {
		m       ingest.Magnitude
		instant bool
	}{
		{ingest.Magnitude{N: 3, Median: 1733565600.5}, true},                  // epoch s with a fraction
		{ingest.Magnitude{N: 3, Median: 1733565600123, Whole: true}, true},    // epoch ms
		{ingest.Magnitude{N: 3, Median: 1733565600, Whole: true}, false},      // or 1.7 s in ns
		{ingest.Magnitude{N: 3, Median: 5169650, Whole: true}, false},         // Apache's %D, µs
		{ingest.Magnitude{N: 3, Median: 1733565600123456, Whole: true}, true}, // epoch µs
	} {
		f := []ingest.FileStats{{Magnitudes: map[string]ingest.Magnitude{"x": c.m}}}
		if got := instantValues("x", f); got != c.instant {
			t.Errorf("%+v: instant %v, want %v", c.m, got, c.instant)
		}
	}
}

// TestAsctimeNotOffered: Python logging's asctime ("2026-12-05
// 10:00:00,323", its default format), a name that holds "time", is an
// instant by its first values: never offered to --map as a duration,
// while a duration beside it is.
func TestAsctimeNotOffered(t *testing.T) {
	var lines strings.Builder
	for i := range 5 {
		fmt.Fprintf(&lines, `{"asctime":"2026-12-05 10:00:%02d,%03d","levelname":"INFO","name":"app.jobs","job":"sync","took":%d}`+"\n", i, 100+i, 20+i)
	}
	r := buildFrom(t, []byte(lines.String()), nil, 1, 1000, nil)
	checkNoData(t, r)
	if f := r.Input.Files[0]; !slices.Equal(f.Instants, []string{"asctime"}) {
		t.Errorf("instants %q, want [asctime]", f.Instants)
	}
	text := r.NoData.text(english, plainText, plainText)
	if strings.Contains(text, "=asctime") || !strings.Contains(text, "--map request_time=took:") {
		t.Errorf("reason %q offers asctime, or not took", text)
	}
}

// TestResponseTimeOffered: a response time named rt (Alibaba's and
// Dubbo's logs, Sentinel) is offered to --map, in the unit its name
// tells; the rtt of a connection and names that merely hold the letters
// are not.
func TestResponseTimeOffered(t *testing.T) {
	files := []ingest.FileStats{{Path: "a.jsonl", Format: ingest.JSONL, Records: 5,
		Seen: []string{"port", "start", "rtt", "rt_ms", "upstreamRt"}}}
	if names := durationNames(files); !slices.Equal(names, []string{"rt_ms", "upstreamRt"}) {
		t.Errorf("durationNames = %q, want [rt_ms upstreamRt]", names)
	}
	if u := unitFor("rt_ms", files); u != "ms" {
		t.Errorf("unit of rt_ms: %s, want ms", u)
	}
}

// TestSpansHint: spans trimmed of their start (jq -c '.data[].spans[] |
// {traceID, spanID, duration, tags}'), whose duration ingest leaves
// unread, make a no_data report whose reason, in every report and
// language, names --source jaeger, and no --map or --input-format; its
// file's reason (stderr's too) names it. Zipkin's trimmed of their kind
// as well are told to keep it. A report that judged latency from other
// files names the flag in the file's note.
func TestSpansHint(t *testing.T) {
	lines := `{"traceID":"63ca828dd5f4b3b2e4b06ce60741c7a8","spanID":"9b810e766ec9d286","duration":1326770,"tags":[{"key":"span.kind","type":"string","value":"server"},{"key":"http.request.method","type":"string","value":"POST"}]}
{"traceID":"63ca828dd5f4b3b2e4b06ce60741c7a8","spanID":"c4647159c324c985","duration":1323770,"tags":[{"key":"span.kind","type":"string","value":"client"}]}
{"traceID":"63ca828dd5f4b3b2e4b06ce60741c7a8","spanID":"0e5c1a2b3c4d5e6f","duration":900,"tags":[{"key":"span.kind","type":"string","value":"internal"}]}
`
	r := buildFrom(t, []byte(lines), nil, 1, 1000, nil)
	checkNoData(t, r)
	var flags []string
	for _, h := range r.NoData.Hints {
		flags = append(flags, h.Flag)
	}
	if len(flags) != 1 || flags[0] != "--source jaeger" || r.NoData.Hints[0].id != "hint.spans" {
		t.Fatalf("hints %q, want --source jaeger alone", flags)
	}
	if md := firstLine(render(t, r, "md")); !strings.Contains(md, "try `--source jaeger`") {
		t.Errorf("Markdown first line %q does not name --source jaeger", md)
	}
	doc := jsonDoc(t, r)
	reason := doc["verdict_reason"].(map[string]any)
	hint := reason["hints"].([]any)[0].(map[string]any)
	file := doc["input"].(map[string]any)["files"].([]any)[0].(map[string]any)
	if hint["flag"] != "--source jaeger" || !strings.Contains(hint["why"].(string), "Jaeger's span ids (traceID, spanID)") ||
		!strings.Contains(reason["files"].([]any)[0].(map[string]any)["why"].(string), "try --source jaeger") {
		t.Errorf("JSON reason %v", reason)
	}
	if units, _ := file["units"].(map[string]any); len(units) != 1 || units["duration"] != "" {
		t.Errorf("JSON file %v, want duration among the units, left unread", file)
	}
	if len(r.Unread) != 1 || !strings.Contains(r.Unread[0].Reason, "try --source jaeger") {
		t.Errorf("unread %+v, want the file, naming --source jaeger", r.Unread)
	}
	zh := printerFor(LangZhCN)
	if text := r.NoData.text(zh, plainText, plainText); !strings.Contains(text, "--source jaeger") || !strings.Contains(text, "以微秒计") {
		t.Errorf("zh-CN reason %q does not say the spans' µs and the flag", text)
	}

	spans := ingest.Refused{Name: "duration", Unit: ingest.UnitMilli, Spans: "zipkin"}
	kindless := ingest.FileStats{Path: "z.jsonl", Format: ingest.JSONL, BadLines: 3, Seen: []string{"traceId", "id", "name", "duration", "tags"}, Refused: []ingest.Refused{spans}}
	kind := kindless
	kind.Seen = []string{"traceId", "id", "kind", "duration", "tags"}
	for _, c := range []struct {
		f  ingest.FileStats
		id msgID
	}{{kindless, "hint.spanskind"}, {kind, "hint.spans"}} {
		if hs := hints(&NoData{}, []ingest.FileStats{c.f}); len(hs) != 1 || hs[0].Flag != "--source zipkin" || hs[0].id != c.id {
			t.Errorf("seen %v: hints %+v, want --source zipkin of %s", c.f.Seen, hs, c.id)
		}
	}
	kind.Records, kind.BadLines, kind.WithoutRequestTime = 3, 0, 3
	if note := (&Report{}).fileNote(english, kind); !strings.Contains(note, "duration not read") || !strings.Contains(note, "try --source zipkin") {
		t.Errorf("note %q does not name the name left unread and the flag", note)
	}
}
