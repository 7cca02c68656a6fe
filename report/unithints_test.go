package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// combinedD writes n lines of the access log pattern "combined" with %D
// appended, each taking ms[i%len(ms)].
func combinedD(n int, ms []int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `10.0.3.%d - - [05/Mar/2026:17:%02d:%02d +0800] "POST /v1/chat/completions HTTP/1.1" 200 1030 "-" "OpenAI/Python 1.54.3" %d`+"\n",
			10+i%5, i/60, i%60, ms[i%len(ms)])
	}
	return b.Bytes()
}

// buildText reads data as a text log with the log formats given.
func buildText(t *testing.T, data []byte, formats ...string) *Report {
	t.Helper()
	mapping, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	accs, res, err := ingest.Run([]string{"-"}, ingest.Options{Location: shanghai(t), Workers: 1, Stdin: bytes.NewReader(data), LogFormats: formats},
		func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: mapping, Top: 10, Collectors: rules.Default().Collectors(mapping, 10, true), TokenURI: rules.Default().TokenURI})
		})
	if err != nil {
		t.Fatal(err)
	}
	return Build(BuildInput{Aggregate: aggregate.MergeAll(accs), Read: res, Location: shanghai(t)})
}

// TestUnitHints: an Apache LogFormat's %D whose values are ms (Undertow's,
// Quarkus's …), read as µs, makes requests of a millisecond: no OK, the
// verdict is warn and every renderer offers the --map that reads them in
// ms. %D in µs, as Apache writes it, of the same requests gets none.
func TestUnitHints(t *testing.T) {
	const format = `%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-Agent}i" %D`
	ms := []int{2732, 7, 1547, 4, 11, 0, 349, 511, 778, 4500}
	r := buildText(t, combinedD(60, ms), format)
	const flag = "--map request_time=request_time:ms"
	if len(r.UnitHints) != 1 || r.UnitHints[0].Flag != flag {
		t.Fatalf("hints %+v, want %s alone", r.UnitHints, flag)
	}
	if r.VerdictName() != "warn" {
		t.Errorf("verdict %s, want warn", r.VerdictName())
	}
	md := string(render(t, r, "md"))
	if !strings.Contains(md, "**Verdict: WARN** — the request times' unit is in doubt") ||
		!strings.Contains(md, "try `"+flag+"`") || !strings.Contains(md, "Quarkus, Undertow and WildFly, Micronaut, logback-access and Tomcat 8.5 and 9") {
		t.Errorf("Markdown lacks the verdict or the hint:\n%s", md)
	}
	if page := string(render(t, r, "html")); !strings.Contains(page, "try "+flag+";") {
		t.Error("HTML lacks the hint")
	}
	doc := jsonDoc(t, r)
	input, _ := doc["input"].(map[string]any)
	hints, _ := input["unit_hints"].([]any)
	if doc["verdict"] != "warn" || len(hints) != 1 || hints[0].(map[string]any)["flag"] != flag {
		t.Errorf("JSON verdict %v, input.unit_hints %v", doc["verdict"], input["unit_hints"])
	}

	us := make([]int, len(ms))
	for i, v := range ms {
		us[i] = v * 1000
	}
	micro := buildText(t, combinedD(60, us), format)
	if micro.UnitHints != nil || micro.VerdictName() != "ok" {
		t.Errorf("µs: hints %+v, verdict %s; want none and ok", micro.UnitHints, micro.VerdictName())
	}
	if input, _ := jsonDoc(t, micro)["input"].(map[string]any); input["unit_hints"] != nil {
		t.Error("JSON input.unit_hints present for µs")
	}
}
