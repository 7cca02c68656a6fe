//go:build realdata

// The real-log suite: every log of ../shared/real, written by programs
// other than this one, read with no flag as a user would, and held
// against values computed here from the raw lines by code the parsers do
// not share. .ci/run runs it with -tags realdata.

package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realWant is what a real log must give.
type realWant struct {
	records  int
	status   map[string]int64
	rt, ttft []float64 // ms, in any order
	ups      []float64 // ms; nil: not checked
	models   map[string]int64
	source   string
	noData   bool
}

func realDir(t *testing.T) string {
	dir := filepath.Join("..", "..", "..", "shared", "real")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the real-log suite needs ../shared/real: %v", err)
	}
	return dir
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			out = append(out, sc.Text())
		}
	}
	return out
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("oracle cannot decode %.60q: %v", s, err)
	}
	return m
}

// number reads a JSON number or a numeric string; ok is false for "-",
// null and absent values.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

func statusOf(m map[string]any, key string, want map[string]int64) {
	if v, ok := number(m[key]); ok {
		want[strconv.Itoa(int(v))]++
	}
}

var realCases = []struct {
	path   string
	oracle func(t *testing.T, path string) realWant
}{
	{"alp-json/json_access.log", func(t *testing.T, path string) realWant {
		w := realWant{status: map[string]int64{}, source: "alp"}
		for _, l := range readLines(t, path) {
			m := decode(t, l)
			w.records++
			statusOf(m, "status", w.status)
			// request_time, else response_time (alp's README: the
			// upstream's, "-" when none), the best the record has.
			if v, ok := number(m["request_time"]); ok {
				w.rt = append(w.rt, v*1000)
			} else if v, ok := number(m["response_time"]); ok {
				w.rt = append(w.rt, v*1000)
			}
			if v, ok := number(m["response_time"]); ok {
				w.ups = append(w.ups, v*1000)
			}
		}
		return w
	}},
	{"alp-ltsv/access.log", func(t *testing.T, path string) realWant {
		w := realWant{status: map[string]int64{}, source: "ltsv", noData: true}
		for _, l := range readLines(t, path) {
			w.records++
			for _, f := range strings.Split(l, "\t") {
				label, val, _ := strings.Cut(f, ":")
				switch label {
				case "status":
					w.status[val]++
				case "apptime":
					if v, err := strconv.ParseFloat(val, 64); err == nil {
						w.ups = append(w.ups, v*1000)
					}
				}
			}
		}
		return w
	}},
	{"elastic-nginx-combined/beats-test.log", combinedOracle},
	{"elastic-nginx-combined/integrations-test-access.log", combinedOracle},
	{"higress-ai-log/higress.jsonl", higressOracle},
	{"higress-ai-log/issue2595-excerpt.jsonl", higressOracle},
	{"istio-json/test-access-json-logs.log", func(t *testing.T, path string) realWant {
		w := realWant{status: map[string]int64{}, source: "envoy"}
		for _, l := range readLines(t, path) {
			m := decode(t, l)
			w.records++
			statusOf(m, "response_code", w.status)
			if v, ok := number(m["duration"]); ok {
				w.rt = append(w.rt, v)
			}
			if v, ok := number(m["upstream_service_time"]); ok {
				w.ups = append(w.ups, v)
			}
		}
		return w
	}},
	{"litellm-spend/compact.jsonl", litellmOracle},
	{"litellm-spend/spend_logs_payload.json", litellmOracle},
	{"litellm-spend/standard_logging_payload.json", litellmOracle},
	{"ingress-nginx-upstreaminfo.log", func(t *testing.T, path string) realWant {
		w := realWant{status: map[string]int64{}, source: "ingress-nginx"}
		// ... "$http_user_agent" $request_length $request_time [$proxy_upstream_name] ...
		re := regexp.MustCompile(`^\S+ - \S+ \[[^\]]+\] "[^"]*" (\d{3}) \d+ "[^"]*" "[^"]*" \d+ ([\d.]+) \[`)
		for _, l := range readLines(t, path) {
			m := re.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("oracle cannot read %q", l)
			}
			w.records++
			w.status[m[1]]++
			v, _ := strconv.ParseFloat(m[2], 64)
			w.rt = append(w.rt, v*1000)
		}
		return w
	}},
}

// combinedOracle: nginx combined (and one main line): the status follows
// the quoted request; there is no latency field.
func combinedOracle(t *testing.T, path string) realWant {
	w := realWant{status: map[string]int64{}, source: "nginx", noData: true}
	re := regexp.MustCompile(`\[[^\]]+\] "[^"]*" (\d{3}) `)
	for _, l := range readLines(t, path) {
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("oracle cannot read %q", l)
		}
		w.records++
		w.status[m[1]]++
	}
	return w
}

// higressOracle: duration (ms), else ai_log's llm_service_duration (ms);
// ttft from ai_log's llm_first_token_duration; ai_log is JSON in a string.
func higressOracle(t *testing.T, path string) realWant {
	w := realWant{status: map[string]int64{}, models: map[string]int64{}, source: "higress", ups: []float64{}}
	for _, l := range readLines(t, path) {
		m := decode(t, l)
		w.records++
		statusOf(m, "response_code", w.status)
		ai := map[string]any{}
		if s, ok := m["ai_log"].(string); ok {
			ai = decode(t, s)
		}
		if v, ok := number(m["duration"]); ok {
			w.rt = append(w.rt, v)
		} else if v, ok := number(ai["llm_service_duration"]); ok {
			w.rt = append(w.rt, v)
		}
		if v, ok := number(ai["llm_first_token_duration"]); ok {
			w.ttft = append(w.ttft, v)
		}
		if v, ok := number(m["upstream_service_time"]); ok {
			w.ups = append(w.ups, v)
		}
		model, _ := m["model"].(string)
		if s, ok := ai["model"].(string); ok {
			model = s
		}
		if model != "" {
			w.models[model]++
		}
	}
	return w
}

// litellmOracle: request_time = endTime − startTime, ttft =
// completionStartTime − startTime (UTC, no zone written), status 200 for
// "success"; the pretty-printed files hold one document each.
func litellmOracle(t *testing.T, path string) realWant {
	w := realWant{status: map[string]int64{}, models: map[string]int64{}, source: "litellm"}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	const layout = "2006-01-02 15:04:05.999999"
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		w.records++
		st, _ := time.Parse(layout, m["startTime"].(string))
		en, _ := time.Parse(layout, m["endTime"].(string))
		cs, _ := time.Parse(layout, m["completionStartTime"].(string))
		w.rt = append(w.rt, float64(en.Sub(st))/1e6)
		w.ttft = append(w.ttft, float64(cs.Sub(st))/1e6)
		w.models[m["model"].(string)]++
		// "success" is a call that succeeded: 200; a failure's status
		// is its error_information.error_code (none here).
		if m["status"] == "success" {
			w.status["200"]++
		}
	}
	return w
}

// lowerRank is the value at rank ⌊q·(n−1)⌋ of the sorted values.
func lowerRank(vs []float64, q float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	return s[int(math.Floor(q*float64(len(s)-1)))]
}

type realQ struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
}

type realReport struct {
	Verdict string `json:"verdict"`
	Input   struct {
		Records  int64 `json:"records"`
		BadLines int64 `json:"bad_lines"`
		Files    []struct {
			Source string `json:"source"`
		} `json:"files"`
	} `json:"input"`
	Latency map[string]struct {
		All realQ `json:"all"`
		By  map[string][]struct {
			Key   string `json:"key"`
			Count int64  `json:"count"`
		} `json:"by"`
	} `json:"latency"`
	Status map[string]int64 `json:"status"`
}

func checkQ(t *testing.T, metric string, got realQ, vals []float64) {
	t.Helper()
	if got.Count != int64(len(vals)) {
		t.Errorf("%s: count %d, want %d", metric, got.Count, len(vals))
		return
	}
	if len(vals) == 0 {
		return
	}
	for _, q := range []struct {
		name string
		q    float64
		got  float64
	}{{"p50", 0.5, got.P50}, {"p99", 0.99, got.P99}} {
		want := lowerRank(vals, q.q)
		if math.Abs(q.got-want) > 0.01*want+1e-9 {
			t.Errorf("%s %s = %v ms, want %v within 1 %%", metric, q.name, q.got, want)
		}
	}
}

// TestRealLogs reads each real log with no flag and holds the report
// against the oracle.
func TestRealLogs(t *testing.T) {
	dir := realDir(t)
	for _, c := range realCases {
		t.Run(c.path, func(t *testing.T) {
			path := filepath.Join(dir, c.path)
			want := c.oracle(t, path)
			code, out, errs := runCLI(t, "--tz", "UTC", "--json", "-", path)
			if code != 0 && code != 3 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var rep realReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("report: %v", err)
			}
			if rep.Input.Records != int64(want.records) || rep.Input.BadLines != 0 {
				t.Errorf("%d records, %d bad lines; want %d and 0", rep.Input.Records, rep.Input.BadLines, want.records)
			}
			if len(rep.Input.Files) != 1 || !strings.HasPrefix(rep.Input.Files[0].Source, want.source) {
				t.Errorf("files %+v, want source %q", rep.Input.Files, want.source)
			}
			if (rep.Verdict == "no_data") != want.noData {
				t.Errorf("verdict %q, want no_data %v", rep.Verdict, want.noData)
			}
			if len(want.status) > 0 || len(rep.Status) > 0 {
				if !equalCounts(rep.Status, want.status) {
					t.Errorf("status %v, want %v", rep.Status, want.status)
				}
			}
			checkQ(t, "request_time", rep.Latency["request_time"].All, want.rt)
			checkQ(t, "ttft", rep.Latency["ttft"].All, want.ttft)
			if want.ups != nil {
				checkQ(t, "upstream_response_time", rep.Latency["upstream_response_time"].All, want.ups)
			}
			if want.models != nil {
				got := map[string]int64{}
				for _, row := range rep.Latency["request_time"].By["model"] {
					got[row.Key] = row.Count
				}
				if !equalCounts(got, want.models) {
					t.Errorf("models %v, want %v", got, want.models)
				}
			}
			t.Logf("%s: %d records, source %q, request_time n=%d", c.path, want.records, want.source, len(want.rt))
		})
	}
}

func equalCounts(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}
