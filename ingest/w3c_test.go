package ingest_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// w3cRec is what the W3C tests read of a record.
type w3cRec struct {
	timeNS                    int64
	hasTime                   bool
	status                    int64
	method, uri, client, host string
	rt, ttfb                  float64
	hasStatus, hasRT, hasTTFB bool
}

type w3cCollector struct{ recs []w3cRec }

func (c *w3cCollector) Add(r *ingest.Record) {
	var x w3cRec
	x.timeNS, x.hasTime = r.TimeNS, r.Has(ingest.FTime)
	x.status, x.hasStatus = r.Int(ingest.FStatus)
	x.method, x.uri = string(r.Text(ingest.FMethod)), string(r.Text(ingest.FURI))
	x.client, x.host = string(r.Text(ingest.FClient)), string(r.Text(ingest.FHost))
	x.rt, x.hasRT = r.Float(ingest.FRequestTime)
	x.ttfb, x.hasTTFB = r.Float(ingest.FTTFB)
	c.recs = append(c.recs, x)
}

// w3cOracle reads a W3C file as the draft lays it out, by hand: each
// #Fields directive names the fields of the lines after it, a line is
// split on its tabs when it has one, else on its spaces, and "-" is no
// value. takenS is time-taken's unit in seconds, as the program's
// documentation gives it. A line whose field count is not its
// directive's is bad (ok false).
func w3cOracle(t *testing.T, lines []string, takenS float64) (want []w3cRec, bad []int) {
	t.Helper()
	var names []string
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			if f, ok := strings.CutPrefix(l, "#Fields:"); ok {
				names = strings.Fields(f)
			}
			continue
		}
		sep := " "
		if strings.Contains(l, "\t") {
			sep = "\t"
		}
		vals := strings.Split(l, sep)
		if len(vals) != len(names) {
			bad = append(bad, i+1)
			continue
		}
		v := map[string]string{}
		for j, n := range names {
			if vals[j] != "-" {
				v[n] = vals[j]
			}
		}
		var w w3cRec
		if ts, err := time.Parse("2006-01-02 15:04:05", v["date"]+" "+v["time"]); err == nil {
			w.timeNS, w.hasTime = ts.UnixNano(), true
		}
		if s, ok := v["sc-status"]; ok {
			w.status, w.hasStatus = atoi(t, s), true
			if s == "000" { // CloudFront: the viewer left first, nginx's 499
				w.status = 499
			}
		}
		w.method, w.uri = v["cs-method"], v["cs-uri-stem"]
		w.client = v["cs-username"] // else the client's address, as nginx's remote_user
		if w.client == "" {
			w.client = v["c-ip"]
		}
		w.host = v["x-host-header"] // CloudFront: the Host the viewer sent
		if w.host == "" {
			w.host = v["cs-host"]
		}
		if s, ok := v["time-taken"]; ok {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("oracle: time-taken %q", s)
			}
			w.rt, w.hasRT = x*takenS, true
		}
		if s, ok := v["time-to-first-byte"]; ok {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("oracle: time-to-first-byte %q", s)
			}
			w.ttfb, w.hasTTFB = x*1000, true // seconds, as ttfb's ms
		}
		want = append(want, w)
	}
	return want, bad
}

// Each W3C fixture, written from its program's documentation, is
// recognised without flags as its program's, and every line reads as the
// oracle says: IIS's time-taken in ms, CloudFront's in s. The IIS log's
// header comes again mid-file with other fields, as after a restart.
func TestW3CFixtures(t *testing.T) {
	tests := []struct {
		file, source string
		takenS       float64
		seen         []string
	}{
		{"iis.log", "iis", 1e-3, []string{"date", "time", "cs-uri-stem", "sc-substatus", "time-taken"}},
		{"cloudfront.log", "cloudfront", 1, []string{"x-edge-location", "x-host-header", "time-taken", "time-to-first-byte"}},
		// W3CLogger with LoggingFields that leave out ServerName (no
		// s-computername) and log a header of their own.
		{"aspnetcore-w3c.log", "aspnetcore-w3c", 1e-3, []string{"date", "time", "cs-uri-stem", "time-taken", "cs(x-api-key-id)"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "text", tc.file)
			want, bad := w3cOracle(t, fixtureLines(t, path), tc.takenS)
			for _, workers := range []int{1, 3} {
				sinks, res, err := ingest.Run([]string{path}, ingest.Options{Workers: workers}, func() *w3cCollector { return &w3cCollector{} })
				if err != nil {
					t.Fatal(err)
				}
				fs := res.Files[0]
				if fs.Format != ingest.W3C || fs.Source != tc.source || fs.Incomplete {
					t.Errorf("format %s, source %q, incomplete %v (%s); want w3c, %q", fs.Format, fs.Source, fs.Incomplete, fs.Reason, tc.source)
				}
				for _, name := range tc.seen {
					if !contains(fs.Seen, name) {
						t.Errorf("seen %q lacks %q", fs.Seen, name)
					}
				}
				if len(res.Problems) != len(bad) {
					t.Fatalf("problems %v, want bad lines %v", res.Problems, bad)
				}
				for i, p := range res.Problems {
					if p.Line != int64(bad[i]) || p.File != path || !strings.Contains(p.Reason, "#Fields") {
						t.Errorf("problem %v, want %s:%d naming #Fields", p, path, bad[i])
					}
				}
				var got []w3cRec
				for _, s := range sinks {
					got = append(got, s.recs...)
				}
				if workers == 1 {
					compareW3C(t, got, want)
				} else if len(got) != len(want) {
					t.Errorf("%d workers: %d records, want %d", workers, len(got), len(want))
				}
			}
		})
	}
}

func compareW3C(t *testing.T, got, want []w3cRec) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.timeNS != w.timeNS || g.hasTime != w.hasTime || g.status != w.status || g.hasStatus != w.hasStatus ||
			g.method != w.method || g.uri != w.uri || g.client != w.client || g.host != w.host {
			t.Errorf("record %d: %+v, want %+v", i+1, g, w)
		}
		if g.hasRT != w.hasRT || w.hasRT && !near(g.rt, w.rt) {
			t.Errorf("record %d: request_time %v (%v), want %v (%v)", i+1, g.rt, g.hasRT, w.rt, w.hasRT)
		}
		if g.hasTTFB != w.hasTTFB || w.hasTTFB && !near(g.ttfb, w.ttfb) {
			t.Errorf("record %d: ttfb %v (%v), want %v (%v)", i+1, g.ttfb, g.hasTTFB, w.ttfb, w.hasTTFB)
		}
	}
}

// The unit of time-taken follows the program: the same line is 6210 ms
// under IIS's header, 6210 s under CloudFront's fields and under another
// program's (the draft's seconds), and --source or --map say otherwise
// for a file the rule cannot tell.
func TestW3CTimeTakenUnit(t *testing.T) {
	const fields = "#Fields: date time c-ip cs-method cs-uri-stem sc-status time-taken"
	const line = "2026-11-29 10:00:01 203.0.113.7 POST /v1/chat/completions 200 6210\n"
	tests := []struct {
		name, head string
		opts       ingest.Options
		source     string
		rt         float64
	}{
		{"IIS by its software", "#Software: Microsoft Internet Information Services 8.5\n#Version: 1.0\n" + fields + "\n", ingest.Options{}, "iis", 6.21},
		{"IIS with a byte-order mark", "\ufeff#Software: Microsoft Internet Information Services 10.0\n" + fields + "\n", ingest.Options{}, "iis", 6.21},
		{"IIS by its fields", "#Version: 1.0\n" + fields + " sc-substatus\n", ingest.Options{}, "iis", 6.21},
		{"CloudFront by its fields", "#Version: 1.0\n" + fields + " x-edge-location\n", ingest.Options{}, "cloudfront", 6210},
		{"ASP.NET Core by its header", "#Version: 1.0\n#Start-Date: 2026-11-29 10:00:00\n" + fields + "\n", ingest.Options{}, "aspnetcore-w3c", 6.21},
		{"ASP.NET Core's default fields", "\ufeff#Version: 1.0\r\n#Start-Date: 2026-11-29 10:00:00\r\n" + fields + " s-computername\r\n", ingest.Options{}, "aspnetcore-w3c", 6.21},
		{"#Start-Date with #Software: seconds", "#Version: 1.0\n#Software: Some Server\n#Start-Date: 2026-11-29 10:00:00\n" + fields + "\n", ingest.Options{}, "w3c", 6210},
		{"#Start-Date after #Fields: seconds", "#Version: 1.0\n" + fields + "\n#Start-Date: 2026-11-29 10:00:00\n", ingest.Options{}, "w3c", 6210},
		{"another program: seconds", "#Software: WebLogic\n#Version: 1.0\n" + fields + "\n", ingest.Options{}, "w3c", 6210},
		{"--source aspnetcore-w3c", "#Version: 1.0\n" + fields + "\n", ingest.Options{Source: "aspnetcore-w3c"}, "aspnetcore-w3c", 6.21},
		{"--source iis", "#Version: 1.0\n" + fields + "\n", ingest.Options{Source: "iis"}, "iis", 6.21},
		{"--source cloudfront", "#Software: Microsoft Internet Information Services 10.0\n" + fields + "\n", ingest.Options{Source: "cloudfront"}, "cloudfront", 6210},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.head
			if strings.Contains(tc.head, "sc-substatus") || strings.Contains(tc.head, "s-computername") {
				text += strings.TrimSuffix(line, "\n") + " 0\n"
			} else if strings.Contains(tc.head, "x-edge-location") {
				text += strings.TrimSuffix(line, "\n") + " IAD89-C3\n"
			} else {
				text += line
			}
			tc.opts.Stdin, tc.opts.Workers = strings.NewReader(text), 1
			sinks, res, err := ingest.Run([]string{"-"}, tc.opts, func() *w3cCollector { return &w3cCollector{} })
			if err != nil {
				t.Fatal(err)
			}
			if fs := res.Files[0]; fs.Source != tc.source || len(sinks[0].recs) != 1 {
				t.Fatalf("source %q, %d records (problems %v); want %q and 1", fs.Source, len(sinks[0].recs), res.Problems, tc.source)
			}
			if g := sinks[0].recs[0]; !g.hasRT || !near(g.rt, tc.rt) {
				t.Errorf("request_time %v (%v), want %v", g.rt, g.hasRT, tc.rt)
			}
		})
	}
	// --map reads time-taken in the unit it gives.
	s, err := ingest.NewSchema([]string{"request_time=time-taken:ms"})
	if err != nil {
		t.Fatal(err)
	}
	opts := ingest.Options{Stdin: strings.NewReader("#Version: 1.0\n" + fields + "\n" + line), Workers: 1, Schema: s}
	sinks, _, err := ingest.Run([]string{"-"}, opts, func() *w3cCollector { return &w3cCollector{} })
	if err != nil {
		t.Fatal(err)
	}
	if len(sinks[0].recs) != 1 || !near(sinks[0].recs[0].rt, 6.21) {
		t.Errorf("--map request_time=time-taken:ms: %+v, want request_time 6.21", sinks[0].recs)
	}
}
