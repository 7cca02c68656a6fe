package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/rules"
)

// verbPattern matches a format verb with its flags, width, precision
// and argument index; %% is not a verb.
var verbPattern = regexp.MustCompile(`%[-+# 0]*(\[\d+\])?(\d+|\*)?(\.\d*)?(\[\d+\])?[a-zA-Z%]`)

// verbsOf lists a format's verbs as "argument:verb" ("1:s", "3:.0f"),
// sorted, by the rules of fmt: an explicit [n] sets the argument, else
// the next one follows the previous.
func verbsOf(format string) []string {
	var out []string
	next := 1
	for _, v := range verbPattern.FindAllString(format, -1) {
		if v == "%%" {
			continue
		}
		idx := regexp.MustCompile(`\[(\d+)\]`).FindStringSubmatch(v)
		arg := next
		if idx != nil {
			arg = int(idx[1][0]-'0') + 0
			for _, c := range idx[1][1:] {
				arg = arg*10 + int(c-'0')
			}
		}
		next = arg + 1
		spec := regexp.MustCompile(`\[\d+\]`).ReplaceAllString(v[1:], "")
		// Width and flags may differ between languages; precision and
		// verb may not.
		spec = strings.TrimLeft(spec, "-+# 0123456789")
		out = append(out, strings.Repeat("0", 3-len(itoa(arg)))+itoa(arg)+":"+spec)
	}
	sort.Strings(out)
	return out
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// sampleArgs are arguments for the verbs of an English message, in
// order: a string, an int64 or a float64.
func sampleArgs(en string) []any {
	var args []any
	for _, v := range verbsOf(en) {
		switch v[len(v)-1] {
		case 'd':
			args = append(args, int64(7))
		case 'f':
			args = append(args, 1.5)
		default:
			args = append(args, "x")
		}
	}
	return args
}

func TestVerbsOf(t *testing.T) {
	for _, c := range []struct {
		format string
		want   []string
	}{
		{"%s as %s", []string{"001:s", "002:s"}},
		{"按 %[2]s 解析时 %[1]s", []string{"001:s", "002:s"}},
		{"%d of %d keys, 5 %%", []string{"001:d", "002:d"}},
		{"约 %.0[4]f ms，%[1]s", []string{"001:s", "004:.0f"}},
		{"~%s ms × %d ≈ %.1f s", []string{"001:s", "002:d", "003:.1f"}},
	} {
		if got := verbsOf(c.format); !slices.Equal(got, c.want) {
			t.Errorf("verbsOf(%q) = %q, want %q", c.format, got, c.want)
		}
	}
}

// TestCatalogueComplete checks that every message has a text in every
// language, with the same format verbs for the same arguments, and that
// no language has a message English lacks.
func TestCatalogueComplete(t *testing.T) {
	if len(enMessages) < 100 {
		t.Fatalf("only %d English messages", len(enMessages))
	}
	for _, l := range Langs {
		msgs := catalogues[l]
		if msgs == nil {
			t.Fatalf("no catalogue for %s", l)
		}
		for id, en := range enMessages {
			text, ok := msgs[id]
			switch {
			case !ok || strings.TrimSpace(text) == "":
				t.Errorf("%s: message %q has no text", l, id)
			case !slices.Equal(verbsOf(text), verbsOf(en)):
				t.Errorf("%s: message %q has the verbs %q, English %q", l, id, verbsOf(text), verbsOf(en))
			case strings.Contains(fmt.Sprintf(text, sampleArgs(en)...), "%!"):
				t.Errorf("%s: message %q is a bad format: %q", l, id, fmt.Sprintf(text, sampleArgs(en)...))
			}
		}
		for id := range msgs {
			if _, ok := enMessages[id]; !ok {
				t.Errorf("%s: message %q is not in the English catalogue", l, id)
			}
		}
	}
}

// TestTemplateMessagesExist checks every {{t "id"}} and {{tf "id" …}} of
// html.tmpl against the catalogue: a missing one would fail only when
// the page is rendered.
func TestTemplateMessagesExist(t *testing.T) {
	tmpl, err := os.ReadFile("html.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`\{\{-?\s*tf? "([^"]+)"`).FindAllSubmatch(tmpl, -1)
	if len(uses) < 30 {
		t.Fatalf("only %d messages used by html.tmpl", len(uses))
	}
	for _, u := range uses {
		if _, ok := enMessages[msgID(u[1])]; !ok {
			t.Errorf("html.tmpl uses the message %q, which the catalogue lacks", u[1])
		}
	}
}

// TestEveryRuleHasChineseText lists the rules of the registry: each must
// have a template and its messages, so that no rule can be added without
// its Chinese title and advice.
func TestEveryRuleHasChineseText(t *testing.T) {
	ids := rules.RuleIDs()
	if !slices.Contains(ids, rules.RuleTimeout) {
		t.Fatalf("the registry %v lacks timeout_ceiling", ids)
	}
	for _, id := range ids {
		if findingTemplates[id] == nil {
			t.Errorf("rule %s has no title and advice template (findingtext.go)", id)
		}
		var n int
		for mid := range zhMessages {
			if strings.HasPrefix(string(mid), "rule."+id+".") {
				n++
			}
		}
		if n < 2 {
			t.Errorf("rule %s has %d Chinese messages rule.%s.*, want a title and advice", id, n, id)
		}
	}
}

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

func TestFindingFallsBackToEnglish(t *testing.T) {
	zh := printerFor(LangZhCN)
	for _, f := range []rules.Finding{
		{Rule: "some_future_rule", Key: rules.Fields{{Name: "client", Value: "app-1"}}, Title: "Something on app-1", Advice: "Fix app-1."},
		// cross_region without the key fields its template needs.
		{Rule: "cross_region", Key: rules.Fields{{Name: "client", Value: "app-1"}}, Title: "Far calls from app-1", Advice: "Move app-1."},
		{Rule: "latency_regression", Key: rules.Fields{{Name: "metric", Value: "ttft"}}, Title: "ttft rose", Advice: "Look."},
	} {
		title, advice := zh.finding(&f)
		if title != f.Title || advice != f.Advice {
			t.Errorf("%s: %q / %q, want the English %q / %q", f.Rule, title, advice, f.Title, f.Advice)
		}
	}
	f := rules.Finding{Rule: "timeout_ceiling", Key: rules.Fields{{Name: "all", Value: ""}},
		Evidence: rules.Fields{{Name: "ceiling_ms", Value: 5000.0}}, Title: "cut at 5 s", Advice: "raise it"}
	title, advice := zh.finding(&f)
	if !strings.Contains(title, "5.0 s") || !strings.Contains(title, "全部请求") || !hasHan(advice) {
		t.Errorf("timeout_ceiling: %q / %q", title, advice)
	}
	if title, advice := english.finding(&f); title != f.Title || advice != f.Advice {
		t.Errorf("English: %q / %q, want the rule's own", title, advice)
	}
}

// slower returns reqs with every time multiplied by k.
func slower(reqs []gen.Request, k float64) []gen.Request {
	out := slices.Clone(reqs)
	for i := range out {
		r := &out[i]
		r.RequestTime = math.Round(r.RequestTime*k*1000) / 1000
		r.UpstreamTimes = slices.Clone(r.UpstreamTimes)
		for j := range r.UpstreamTimes {
			r.UpstreamTimes[j] = math.Round(r.UpstreamTimes[j]*k*1000) / 1000
		}
		r.TTFTms *= k
	}
	return out
}

// allKindsReport is a report of the generated hour with every problem
// planted, judged by the rules against the same hour four times faster
// (so latency_regression fires too), with a comparison, and with the
// findings the rules cannot make from it: an inferred cross_region and a
// timeout_ceiling.
func allKindsReport(t *testing.T) *Report {
	t.Helper()
	reqs := goldenRequests()
	before := inputFrom(t, jsonl(t, slower(reqs, 0.25), 0), nil, 1, 1000, nil)
	in := inputFrom(t, jsonl(t, reqs, 50), nil, 1, 1000, nil)
	in.Aggregate.History = &aggregate.History{Previous: before.Aggregate.Set, PreviousHour: 1795912800}
	cfg, err := rules.Parse("rules.yaml", []byte("rules:\n  latency_regression: {min_requests: 50}\n"))
	if err != nil {
		t.Fatal(err)
	}
	in.Findings, in.NotEvaluated = rules.Evaluate(in.Aggregate, cfg)
	in.Findings = append(in.Findings,
		rules.Finding{Rule: "cross_region", Severity: rules.Warn,
			Key:   rules.Fields{{Name: "client", Value: "app-far"}, {Name: "region", Value: "ap-guangzhou"}, {Name: "inferred", Value: true}},
			Title: "app-far calls ap-guangzhou from far away (inferred from network_time)",
			Evidence: rules.Fields{{Name: "requests", Value: int64(80)}, {Name: "metric", Value: "network_time"}, {Name: "p50_ms", Value: 61.5},
				{Name: "p95_ms", Value: 70.0}, {Name: "same_region_level_ms", Value: 3.1}, {Name: "region_clients", Value: int64(9)}},
			Impact: rules.Impact{MsPerRequest: 58.4, Requests: 80, Seconds: 4.672},
			Advice: "Check where app-far runs: its network_time p50 is 62 ms against 3.1 ms for callers in ap-guangzhou's region. " +
				"Deploy it in ap-guangzhou or use the nearest edge / CDN endpoint; log client_region to confirm."},
		rules.Finding{Rule: "timeout_ceiling", Severity: rules.Warn,
			Key:      rules.Fields{{Name: "all", Value: ""}},
			Title:    "Requests of all requests cut at 5.0 s: a time-out",
			Evidence: rules.Fields{{Name: "ceiling_ms", Value: 5000.0}, {Name: "requests_at_ceiling", Value: int64(31)}, {Name: "requests", Value: int64(3000)}},
			Impact:   rules.Impact{MsPerRequest: 5000, Requests: 31, Seconds: 155},
			Advice:   "Raise the client's or gateway's time-out, stream the response, or fix what makes these calls slow."},
	)
	rules.SortFindings(in.Findings)
	in.References = []Reference{{Against: "previous_hour", Label: "the previous hour (2026-11-29T01)", Set: before.Aggregate.Set}}
	r := Build(in)
	seen := map[string]bool{}
	for _, f := range r.Findings {
		seen[f.Rule] = true
	}
	for _, id := range rules.RuleIDs() {
		if !seen[id] {
			t.Fatalf("the report has no %s finding (has %v)", id, seen)
		}
	}
	return r
}

// englishFragments are the parts between format verbs of the English
// messages that hold at least three words: none may be left in a
// report in another language.
func englishFragments() []string {
	var out []string
	for _, en := range enMessages {
		for _, part := range verbPattern.Split(en, -1) {
			part = strings.TrimSpace(strings.Trim(part, " *.,;:()"))
			if len(strings.Fields(part)) >= 3 {
				out = append(out, part)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestChineseReportHasNoEnglishSentence(t *testing.T) {
	r := allKindsReport(t)
	zh := printerFor(LangZhCN)
	for i := range r.Findings {
		f := &r.Findings[i]
		title, advice := zh.finding(f)
		if title == f.Title || advice == f.Advice || !hasHan(title) || !hasHan(advice) {
			t.Errorf("%s: not in Chinese: %q / %q", f.Rule, title, advice)
		}
		if k, ok := f.Key.Get("client").(string); ok && !strings.Contains(title, k) {
			t.Errorf("%s: the title %q does not name the client %q", f.Rule, title, k)
		}
	}
	frags := englishFragments()
	if len(frags) < 50 {
		t.Fatalf("only %d English fragments", len(frags))
	}
	for _, ext := range []string{"md", "html"} {
		var b bytes.Buffer
		var err error
		if ext == "md" {
			err = r.WriteMarkdownIn(&b, LangZhCN)
		} else {
			err = r.WriteHTMLIn(&b, LangZhCN)
		}
		if err != nil {
			t.Fatal(err)
		}
		page := b.String()
		for _, frag := range frags {
			if strings.Contains(page, frag) || strings.Contains(page, mdText(frag)) {
				t.Errorf("%s: the zh-CN report holds the English %q", ext, frag)
			}
		}
		for _, want := range []string{"严重", "发现的问题", "跨地域调用", "限流", "错误突增", "延迟回归", "令牌缓存", "长连接", "超时上限", "非流式调用", "与上一小时（2026-11-29T01）对比"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the zh-CN report lacks %q", ext, want)
			}
		}
	}
	var en bytes.Buffer
	if err := r.WriteMarkdown(&en); err != nil {
		t.Fatal(err)
	}
	for i := range r.Findings {
		if !strings.Contains(en.String(), mdText(r.Findings[i].Title)) {
			t.Errorf("the English report lacks the rule's title %q", r.Findings[i].Title)
		}
	}
}

// TestChineseKeepsNumbersAndKeys checks that the numbers, keys and field
// names of both reports are the same: the zh-CN Markdown holds every
// table row of the English one that has no words in it.
func TestChineseKeepsNumbersAndKeys(t *testing.T) {
	r := allKindsReport(t)
	var en, zh bytes.Buffer
	if err := r.WriteMarkdownIn(&en, LangEn); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdownIn(&zh, LangZhCN); err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(en.String(), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.Contains(line, "other") || strings.Contains(line, "---") {
			continue
		}
		if regexp.MustCompile(`\| [a-z]+ [a-z]+ \|`).MatchString(line) || strings.Contains(line, "| count") || strings.Contains(line, "| status |") || strings.Contains(line, "| file |") {
			continue // a header
		}
		if breakdownRow(line) {
			continue // the class's name is translated
		}
		rows++
		if !strings.Contains(zh.String(), line+"\n") {
			t.Errorf("the zh-CN report lacks the row %q", line)
		}
	}
	if rows < 50 {
		t.Fatalf("only %d rows compared", rows)
	}
	zhp := printerFor(LangZhCN)
	for i := range r.Findings {
		ev := mdFields(zhp.evidence(&r.Findings[i]))
		if !strings.Contains(zh.String(), ev) {
			t.Errorf("the zh-CN report lacks the evidence %q", ev)
		}
	}
}

// TestChineseStormEvidence: the storm's early retriers, sentences the
// rule writes in English, read in Chinese with the same caller, counts
// and times; the English report keeps the rule's own.
func TestChineseStormEvidence(t *testing.T) {
	f := rules.Finding{Rule: "rate_limit_storm", Evidence: rules.Fields{{Name: "responses_429", Value: int64(160)},
		{Name: "retried_before_retry_after", Value: []string{"app-002: 53 of 79 retries sooner than Retry-After 2.0 s (median gap 0.5 s)", "odd entry"}}}}
	got, _ := printerFor(LangZhCN).evidence(&f).Get("retried_before_retry_after").([]string)
	want := []string{"app-002：79 次重试中有 53 次早于 Retry-After 2.0 s（间隔中位数 0.5 s）", "odd entry"}
	if !slices.Equal(got, want) {
		t.Errorf("zh-CN: %q, want %q", got, want)
	}
	if en := english.evidence(&f); mdFields(en) != mdFields(f.Evidence) {
		t.Errorf("English: %q, want the rule's own", mdFields(en))
	}
	if f.Evidence.Get("retried_before_retry_after").([]string)[0] != "app-002: 53 of 79 retries sooner than Retry-After 2.0 s (median gap 0.5 s)" {
		t.Error("the finding's own evidence was changed")
	}
}

// breakdownRow reports whether a Markdown line is a row of the breakdown
// table, which starts with the class's English name.
func breakdownRow(line string) bool {
	for _, c := range aggregate.ClassNames {
		if strings.HasPrefix(line, "| "+english.t(classMsg(c))+" |") {
			return true
		}
	}
	return false
}

// TestKeepaliveAdviceUnmeasured: a keep-alive finding whose evidence
// holds neither an RTT nor a handshake's time says in Chinese, as the
// rule's English does, that the cost is not in the log, not that it is
// ~0 ms; with an RTT, it gives the cost.
func TestKeepaliveAdviceUnmeasured(t *testing.T) {
	f := rules.Finding{Rule: "missing_keepalive", Key: rules.Fields{{Name: "client", Value: "app-900"}},
		Evidence: rules.Fields{{Name: "requests", Value: int64(50)}, {Name: "new_connection_share", Value: 0.9}}}
	zh := printerFor(LangZhCN)
	if _, advice := zh.finding(&f); !strings.Contains(advice, "日志未记录其代价") || !strings.Contains(advice, "50 个请求中有 90 %") {
		t.Errorf("unmeasured: %q", advice)
	}
	f.Evidence = append(f.Evidence, rules.Field{Name: "tcpinfo_rtt_mean_ms", Value: 12.0})
	f.Impact.MsPerRequest = 24
	if _, advice := zh.finding(&f); !strings.Contains(advice, "每次约多花 24 ms") {
		t.Errorf("with an RTT: %q", advice)
	}
}

// TestRegressionDayBeforeTitle: a regression against the same hour a
// day before says so in Chinese as the rule's English does.
func TestRegressionDayBeforeTitle(t *testing.T) {
	f := rules.Finding{Rule: "latency_regression", Key: rules.Fields{{Name: "metric", Value: "request_time"}, {Name: "dimension", Value: "region"}, {Name: "key", Value: "ap-beijing"}},
		Evidence: rules.Fields{{Name: "p99_ms", Value: 4000.0}, {Name: "previous_p99_ms", Value: 1000.0}, {Name: "previous_hour", Value: "2026-12-04T10:00Z"}, {Name: "against", Value: "day_before"}}}
	title, _ := printerFor(LangZhCN).finding(&f)
	if !strings.Contains(title, "较前一天同一小时上升到 4.0×") {
		t.Errorf("day before: %q", title)
	}
	f.Evidence = f.Evidence[:3]
	if title, _ := printerFor(LangZhCN).finding(&f); !strings.Contains(title, "较上一小时上升到 4.0×") {
		t.Errorf("previous hour: %q", title)
	}
}
