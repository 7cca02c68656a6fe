package rules

import (
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// Without region and model, the storm and burst rules key by what the
// records have: upstream_addr, host, uri, else the whole input (SPEC §5).
func TestStormAndBurstFallBackToWhatTheRecordsHave(t *testing.T) {
	for _, c := range []struct {
		name  string
		field string // source name of the key field, "" for none
		value string
		key   string
		where string
	}{
		{"upstream", "upstream_addr", "10.0.0.2:80, 10.0.0.1:80", `{"upstream_addr":"10.0.0.1:80"}`, "upstream_addr 10.0.0.1:80"},
		{"host", "http_host", "api.example.com", `{"host":"api.example.com"}`, "host api.example.com"},
		{"uri", "request", "POST /v1/chat?k=1 HTTP/1.1", `{"uri":"/v1/chat"}`, "uri /v1/chat"},
		{"region without model", "region", "eu", `{"all":""}`, "all requests"},
		{"nothing", "", "", `{"all":""}`, "all requests"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, rule := range []struct {
				id     string
				status string
			}{{RuleStorm, "429"}, {RuleBurst, "502"}} {
				acc := plainLog(t, c.field, c.value, rule.status)
				fs, ne := Evaluate(acc, Default())
				for _, n := range ne {
					if n.Rule == rule.id {
						t.Fatalf("%s not evaluated: %s", rule.id, n.Reason)
					}
				}
				var got []Finding
				for _, f := range fs {
					if f.Rule == rule.id {
						got = append(got, f)
					}
				}
				if len(got) != 1 {
					t.Fatalf("%s: %d findings, want 1", rule.id, len(got))
				}
				f := got[0]
				if keyString(f) != c.key || !strings.HasSuffix(f.Title, " on "+c.where) {
					t.Errorf("%s: key %s, title %q; want %s on %s", rule.id, keyString(f), f.Title, c.key, c.where)
				}
				if f.Window.From != t0.Add(5*time.Minute).UnixNano() || f.Window.To != t0.Add(7*time.Minute).UnixNano() {
					t.Errorf("%s: window %v", rule.id, f.Window)
				}
			}
		})
	}
}

// plainLog is what a plain proxy log gives: time, status, request_time,
// and at most one more field (source name and value): ten quiet minutes
// with two minutes of 30 responses of status out of 60 at minutes 5 and 6.
func plainLog(t *testing.T, field, value, status string) *aggregate.Accumulator {
	t.Helper()
	s, err := ingest.NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	acc := aggregate.New(aggregate.Options{Mapping: m, Top: 100, Collectors: Default().Collectors(m, 100, true), TokenURI: Default().TokenURI})
	var r ingest.Record
	for min := range 10 {
		for i := range 60 {
			r.Reset()
			set := func(name, v string) {
				if err := r.Set(s.LookupString(name), []byte(v), time.UTC); err != nil {
					t.Fatal(err)
				}
			}
			set("time", t0.Add(time.Duration(min)*time.Minute+time.Duration(i)*time.Second).Format(time.RFC3339))
			st := "200"
			if (min == 5 || min == 6) && i%2 == 0 {
				st = status
			}
			set("status", st)
			set("request_time", "0.250")
			if field != "" {
				set(field, value)
			}
			r.Finish()
			acc.Add(&r)
		}
	}
	return aggregate.MergeAll([]*aggregate.Accumulator{acc})
}

// Each record is keyed by the best key it has: in a log of region ×
// model calls, the token calls (no model) of a storm are keyed by their
// uri, apart from the model calls.
func TestStormKeysEachRecordByItsBestKey(t *testing.T) {
	recs := minute(5, 100, 50, 429, 2)
	token := minute(5, 100, 50, 429, 2)
	for i := range token {
		token[i].model, token[i].uri = "", "/v1/auth/token"
	}
	fs := ruleFindings(t, nil, RuleStorm, concat(recs, token))
	var keys []string
	for _, f := range fs {
		keys = append(keys, keyString(f))
	}
	if strings.Join(keys, " ") != `{"region":"eu","model":"big-72b"} {"uri":"/v1/auth/token"}` &&
		strings.Join(keys, " ") != `{"uri":"/v1/auth/token"} {"region":"eu","model":"big-72b"}` {
		t.Errorf("keys %v", keys)
	}
}

// A log with more key × minutes than the bound is judged from its latest
// minutes on, and the report says from when.
func TestStormSaysWhenMinutesWereCut(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	acc := aggregate.New(aggregate.Options{Mapping: m, Top: 1, Collectors: Default().Collectors(m, 1, true), TokenURI: Default().TokenURI}) // 512 key × minutes
	var r ingest.Record
	for min := range 600 {
		r.Reset()
		r.SetTime(t0.Add(time.Duration(min) * time.Minute).UnixNano())
		r.SetFloat(ingest.FStatus, 200)
		acc.Add(&r)
	}
	_, ne := Evaluate(aggregate.MergeAll([]*aggregate.Accumulator{acc}), Default())
	want := "partly: minutes before " + t0.Add(88*time.Minute).UTC().Format(time.RFC3339) + " were not judged"
	n := 0
	for _, x := range ne {
		if x.Rule == RuleStorm || x.Rule == RuleBurst {
			n++
			if !strings.HasPrefix(x.Reason, want) {
				t.Errorf("%s: %q, want %q…", x.Rule, x.Reason, want)
			}
		}
	}
	if n != 2 {
		t.Errorf("not evaluated %+v, want the storm and burst rules partly", ne)
	}
}
