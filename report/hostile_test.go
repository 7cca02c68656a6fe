package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// hostileStrings are log-derived values that try to break out of the
// reports: markup, attribute breaks, Markdown table and code breaks,
// newlines and links.
var hostileStrings = []string{
	"<script>alert(1)</script>",
	`"><img src=x onerror=alert(1)>`,
	"a|b",
	"``x``",
	"line1\nline2\r\n| forged | row |",
	"[x](javascript:alert(1))",
	`back\slash "quoted"`,
}

// hostileJSONL writes records whose model, client, region, client_region
// and uri are the hostile strings (JSON-escaped, so "\n" is a newline
// inside the value).
func hostileJSONL(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.FixedZone("+0800", 8*3600))
	i := 0
	for rep := range 3 {
		for _, s := range hostileStrings {
			rec := map[string]any{
				"time":          start.Add(time.Duration(i) * 7 * time.Second).Format(time.RFC3339),
				"app_id":        s,
				"region":        s,
				"client_region": s + "-c",
				"model":         s,
				"uri":           "/v1/" + s,
				"status":        []int{200, 429, 502}[rep],
				"request_time":  0.25 + float64(i)/10,
				"stream":        rep == 0,
			}
			line, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line)
			b.WriteByte('\n')
			i++
		}
	}
	return b.Bytes()
}

func hostileFindings() []rules.Finding {
	var fs []rules.Finding
	for i, s := range hostileStrings {
		fs = append(fs, rules.Finding{
			Rule: "cross_region", Severity: rules.Severity(1 + i%2),
			Key:      rules.Fields{{Name: "client", Value: s}, {Name: s, Value: s}},
			Title:    "slow calls from " + s,
			Evidence: rules.Fields{{Name: "callers", Value: []string{s, s}}, {Name: "nested", Value: rules.Fields{{Name: s, Value: s}}}},
			Impact:   rules.Impact{MsPerRequest: 10, Requests: 3, Seconds: 0.03},
			Advice:   "fix " + s,
		})
		// Findings whose Chinese title and advice are written from
		// their hostile key and evidence (findingtext.go).
		fs = append(fs, rules.Finding{
			Rule: "missing_keepalive", Severity: rules.Warn,
			Key:      rules.Fields{{Name: "client", Value: s}},
			Title:    s + " opens a new connection for most requests",
			Evidence: rules.Fields{{Name: "requests", Value: int64(60)}, {Name: "new_connection_share", Value: 1.0}},
			Impact:   rules.Impact{MsPerRequest: 5, Requests: 60, Seconds: 0.3},
			Advice:   "Enable HTTP keep-alive in " + s,
		}, rules.Finding{
			Rule: "rate_limit_storm", Severity: rules.Crit,
			Key:      rules.Fields{{Name: "region", Value: s}, {Name: "model", Value: s}},
			Title:    "HTTP 429 storm on " + s,
			Evidence: rules.Fields{{Name: "retried_before_retry_after", Value: []string{s + ": 3 of 4 retries sooner than Retry-After 1.0 s"}}},
			Impact:   rules.Impact{MsPerRequest: 1000, Requests: 3, Seconds: 3},
			Advice:   "Rate limit hit on " + s,
		})
	}
	return fs
}

// hostilePath is a file whose path holds markup and a forged Markdown
// row (a directory "<script>alert(1)<" makes "</script>" possible), with
// a hostile line in it that no parser reads.
func hostilePath(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "<script>alert(1)<")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "script>|`x`\n| forged | row |.log")
	if err := os.WriteFile(path, []byte("<img src=x onerror=alert(1)>|a|b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func hostileReport(t *testing.T) *Report {
	t.Helper()
	in := inputFrom(t, hostileJSONL(t), []string{hostilePath(t)}, 1, 1000, hostileFindings())
	// A comparison, so that its tables are checked too.
	in.References = []Reference{{Against: "baseline", Label: "the baseline (<script>alert(1)</script>|x)", Set: in.Aggregate.Set}}
	r := Build(in)
	if len(r.Unread) != 1 || !strings.Contains(r.Unread[0].Path, "<script>alert(1)</script>") {
		t.Fatalf("the hostile file is not unread: %v", r.Unread)
	}
	if r.Input.Records != int64(3*len(hostileStrings)) {
		t.Fatalf("read %d hostile records, want %d (bad: %v)", r.Input.Records, 3*len(hostileStrings), r.Input.Problems)
	}
	return r
}

// hostileNoDataReport is a no_data report whose files, field names seen
// and reasons are the hostile strings.
func hostileNoDataReport(t *testing.T) *Report {
	t.Helper()
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	acc := aggregate.MergeAll([]*aggregate.Accumulator{aggregate.New(aggregate.Options{Mapping: m, Top: 10})})
	in := &ingest.Result{}
	for i, s := range hostileStrings {
		in.Files = append(in.Files, ingest.FileStats{
			Path: s, Format: ingest.Format(s), Source: s, Seen: []string{s, s + "_time_ms"},
			BadLines: int64(i % 2), Incomplete: i%2 == 0, Reason: "cannot read " + s,
		})
		in.Problems = append(in.Problems, ingest.Problem{File: s, Line: 1, Reason: s})
	}
	r := Build(BuildInput{Aggregate: acc, Read: in, Findings: hostileFindings(), Location: time.UTC})
	if r.NoData == nil || len(r.Unread) != len(hostileStrings) {
		t.Fatalf("no_data %v, unread %d", r.NoData, len(r.Unread))
	}
	return r
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// renderIn renders the Markdown or HTML report in lang.
func renderIn(t *testing.T, r *Report, ext string, lang Lang) []byte {
	t.Helper()
	var b bytes.Buffer
	write := r.WriteMarkdownIn
	if ext == "html" {
		write = r.WriteHTMLIn
	}
	if err := write(&b, lang); err != nil {
		t.Fatalf("%s in %s: %v", ext, lang, err)
	}
	return b.Bytes()
}

func TestHTMLEscapesHostileInput(t *testing.T) {
	for _, lang := range Langs {
		t.Run(string(lang), func(t *testing.T) {
			t.Run("findings", func(t *testing.T) { checkHTMLEscapes(t, hostileReport(t), lang) })
			t.Run("no_data", func(t *testing.T) { checkHTMLEscapes(t, hostileNoDataReport(t), lang) })
		})
	}
}

func checkHTMLEscapes(t *testing.T, r *Report, lang Lang) {
	page := renderIn(t, r, "html", lang)
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var scripts, imgs int
	var texts strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script":
				scripts++
			case "img":
				imgs++
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") {
					t.Errorf("<%s> has an event handler attribute %s=%q", n.Data, a.Key, a.Val)
				}
				v := strings.ToLower(strings.TrimSpace(a.Val))
				if (a.Key == "href" || a.Key == "src" || a.Key == "action" || a.Key == "xlink:href") && !strings.HasPrefix(v, "data:") {
					t.Errorf("<%s %s=%q>: only data: URLs are allowed", n.Data, a.Key, a.Val)
				}
			}
		}
		if n.Type == html.TextNode && (n.Parent == nil || n.Parent.Data != "script" && n.Parent.Data != "style") {
			texts.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if scripts != 1 {
		t.Errorf("%d <script> elements, want only the report's own one", scripts)
	}
	if imgs != 0 {
		t.Errorf("%d <img> elements, want none", imgs)
	}
	if bytes.Contains(bytes.ToLower(page), []byte("javascript:alert")) && !bytes.Contains(page, []byte("[x](javascript:alert(1))")) {
		t.Errorf("javascript: appears outside the escaped text")
	}
	// The hostile strings are shown as text (newlines may become spaces
	// in places, so compare the first line of each).
	for _, s := range hostileStrings {
		first := strings.SplitN(s, "\n", 2)[0]
		if !strings.Contains(texts.String(), first) {
			t.Errorf("the text %q is not shown as text", first)
		}
	}
}

// unescapedPipes counts the | of a Markdown table row that are cell
// separators (not preceded by a backslash escape).
func unescapedPipes(line string) int {
	n := 0
	escaped := false
	for _, c := range line {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '|':
			n++
		}
	}
	return n
}

func TestMarkdownEscapesHostileInput(t *testing.T) {
	for _, lang := range Langs {
		t.Run(string(lang), func(t *testing.T) {
			t.Run("findings", func(t *testing.T) { checkMarkdownEscapes(t, hostileReport(t), lang, 3, 20) })
			t.Run("no_data", func(t *testing.T) { checkMarkdownEscapes(t, hostileNoDataReport(t), lang, 1, 7) })
		})
	}
}

func checkMarkdownEscapes(t *testing.T, r *Report, lang Lang, minTables, minRows int) {
	md := string(renderIn(t, r, "md", lang))
	tables, rows := 0, 0
	header := -1
	for i, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = -1
			continue
		}
		if header < 0 {
			header = unescapedPipes(line)
			tables++
			continue
		}
		rows++
		if got := unescapedPipes(line); got != header {
			t.Errorf("line %d has %d cell separators, its header %d: %q", i+1, got, header, line)
		}
	}
	if tables < minTables || rows < minRows {
		t.Fatalf("only %d tables with %d rows: the report lost its tables", tables, rows)
	}
	if regexp.MustCompile(`(^|[^\\])\]\(javascript:`).MatchString(md) {
		t.Errorf("Markdown contains a javascript: link")
	}
	for _, bad := range []string{"<script", "<img", "``x``", "\n| forged"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown contains %q unescaped", bad)
		}
	}
	if lang == LangZhCN {
		// The Chinese titles are written from the hostile keys, escaped.
		for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt; × &lt;script&gt;alert(1)&lt;/script&gt; 出现 HTTP 429 限流风暴", `a\|b 的大多数请求都新建连接`} {
			if !strings.Contains(md, want) {
				t.Errorf("Markdown lacks the Chinese title %q", want)
			}
		}
	}
	for _, want := range []string{`&lt;script&gt;alert(1)&lt;/script&gt;`, `a\|b`, `\[x\](javascript:alert(1))`, "\\`\\`x\\`\\`"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks the escaped text %q", want)
		}
	}
}

// actingRunes are the characters a report must not carry from log text:
// terminal controls (ESC, BEL, CSI as C1) and every bidirectional
// formatting character Unicode defines.
const actingRunes = "\x00\x07\x08\x0b\x0c\x0d\x1b\x7f\u0085\u009b\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

// TestControlsHostileInput: a region that a right-to-left override
// turns into "evilexe.png" on screen, and a model holding a terminal's
// set-title sequence, are shown with each such character as a space in
// Markdown, HTML and Prometheus; JSON keeps them, escaped where JSON
// says so.
func TestControlsHostileInput(t *testing.T) {
	const (
		region = "evil\u202egnp.exe"
		model  = "x\x1b]0;pwned\x07y\u2066z\u009b31m"
	)
	var b bytes.Buffer
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.FixedZone("+0800", 8*3600))
	for i := range 6 {
		line, err := json.Marshal(map[string]any{
			"time": start.Add(time.Duration(i) * time.Minute).Format(time.RFC3339), "region": region, "model": model,
			"uri": "/v1/chat", "status": 200, "request_time": 0.5,
		})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	findings := []rules.Finding{{
		Rule: "cross_region", Severity: rules.Warn,
		Key:      rules.Fields{{Name: "region", Value: region}},
		Title:    "slow calls from " + region,
		Evidence: rules.Fields{{Name: "model", Value: model}},
		Impact:   rules.Impact{MsPerRequest: 10, Requests: 6, Seconds: 0.06},
		Advice:   "move " + model,
	}}
	r := Build(inputFrom(t, b.Bytes(), nil, 1, 1000, findings))

	md := string(renderIn(t, r, "md", LangEn))
	for _, want := range []string{
		"slow calls from evil gnp.exe",
		"| evil gnp.exe | 6 |",
		"| model | x \\]0;pwned y z 31m | 6 |",
		"model = x \\]0;pwned y z 31m",
		"move x \\]0;pwned y z 31m",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if i := strings.IndexAny(md, actingRunes); i >= 0 {
		t.Errorf("Markdown holds a control character: %q", md[max(0, i-20):min(len(md), i+20)])
	}

	page := renderIn(t, r, "html", LangEn)
	if i := bytes.IndexAny(page, actingRunes); i >= 0 {
		t.Errorf("HTML holds a control character: %q", page[max(0, i-20):min(len(page), i+20)])
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var texts strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			texts.WriteString(n.Data + "\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, want := range []string{"1. slow calls from evil gnp.exe \n", "\nevil gnp.exe\n", "\nx ]0;pwned y z 31m\n", "move x ]0;pwned y z 31m"} {
		if !strings.Contains(texts.String(), want) {
			t.Errorf("HTML has no text %q", want)
		}
	}

	var prom bytes.Buffer
	if err := r.WritePrometheus(&prom, PromOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`loganalyze_latency_ms{metric="request_time",dim="region",key="evil gnp.exe",quantile="0.5"} `,
		`loganalyze_latency_ms{metric="request_time",dim="model",key="x ]0;pwned y z 31m",quantile="0.5"} `,
	} {
		if !strings.Contains(prom.String(), want) {
			t.Errorf("Prometheus lacks %q", want)
		}
	}
	if i := strings.IndexAny(prom.String(), actingRunes); i >= 0 {
		t.Errorf("Prometheus holds a control character: %q", prom.String()[max(0, i-20):min(prom.Len(), i+20)])
	}

	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if i := bytes.IndexAny(js.Bytes(), "\x00\x07\x1b\x7f"); i >= 0 {
		t.Errorf("JSON holds a raw control byte at %d", i)
	}
	var doc2 struct {
		Findings []struct {
			Title string `json:"title"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc2); err != nil {
		t.Fatal(err)
	}
	if len(doc2.Findings) != 1 || doc2.Findings[0].Title != "slow calls from evil\u202egnp.exe" {
		t.Errorf("JSON findings %+v: want the title as logged", doc2.Findings)
	}
	if !strings.Contains(js.String(), `x\u001b]0;pwned\u0007y`) {
		t.Errorf("JSON lacks the model with its controls escaped")
	}
}

// TestControlRunes: each control and bidirectional formatting character
// becomes a space in a Markdown text, a Prometheus label and an HTML
// page; a label's line feed stays escaped, a page's tab and line feed
// and bytes that are not UTF-8 stay as they are.
func TestControlRunes(t *testing.T) {
	for _, c := range actingRunes {
		s := "a" + string(c) + "b"
		if got := mdText(s); got != "a b" {
			t.Errorf("mdText(%q) = %q, want \"a b\"", s, got)
		}
		if got := promLabel(s); got != "a b" {
			t.Errorf("promLabel(%q) = %q, want \"a b\"", s, got)
		}
		if got := string(replaceControls([]byte(s))); got != "a b" {
			t.Errorf("replaceControls(%q) = %q, want \"a b\"", s, got)
		}
	}
	for _, s := range []string{"a\u200db", "é\u202fx", "אב", "日本"} { // joiners, spaces and RTL letters are text
		if got := mdText(s); got != s {
			t.Errorf("mdText(%q) = %q, want it unchanged", s, got)
		}
		if got := promLabel(s); got != s {
			t.Errorf("promLabel(%q) = %q, want it unchanged", s, got)
		}
	}
	if got := promLabel("a\n\x1bb"); got != `a\n b` {
		t.Errorf(`promLabel("a\n\x1bb") = %q, want a\n b`, got)
	}
	if got := string(replaceControls([]byte("<p>\ta\n\xff\u202e</p>\r\n"))); got != "<p>\ta\n\xff </p> \n" {
		t.Errorf("replaceControls = %q", got)
	}
}
