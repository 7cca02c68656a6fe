package ingest_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// aggregateFiles reads paths into one merged accumulator.
func aggregateFiles(t *testing.T, paths []string, opts ingest.Options) (*aggregate.Accumulator, *ingest.Result) {
	t.Helper()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	opts.Format = ingest.Auto
	accs, res, err := ingest.Run(paths, opts, func() *aggregate.Accumulator {
		return aggregate.New(aggregate.Options{Mapping: m, Top: 1000})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Incomplete {
			t.Fatalf("%s: incomplete: %s", f.Path, f.Reason)
		}
	}
	return aggregate.MergeAll(accs), res
}

var nginxQuantiles = []float64{0, 0.5, 0.9, 0.99, 1}

// within reports whether got is within the sketch accuracy of want.
func within(got, want float64) bool {
	return math.Abs(got-want) <= sketch.DefaultAccuracy*math.Abs(want)+1e-9
}

// sameQuantiles checks that two entries agree on every metric's quantiles.
func sameQuantiles(t *testing.T, what string, got, want *sketch.Entry) {
	t.Helper()
	if got.Count != want.Count {
		t.Errorf("%s: %d records, want %d", what, got.Count, want.Count)
	}
	for _, metric := range []int{aggregate.RequestTime, aggregate.UpstreamResponseTime, aggregate.TTFT} {
		gs, ws := got.Metric(metric), want.Metric(metric)
		if (gs == nil) != (ws == nil) {
			t.Errorf("%s %s: present %v, want %v", what, aggregate.MetricNames[metric], gs != nil, ws != nil)
			continue
		}
		if gs == nil {
			continue
		}
		if gs.Count() != ws.Count() {
			t.Errorf("%s %s: %d values, want %d", what, aggregate.MetricNames[metric], gs.Count(), ws.Count())
		}
		for _, q := range nginxQuantiles {
			if g, w := gs.Quantile(q), ws.Quantile(q); !within(g, w) {
				t.Errorf("%s %s p%v = %v, want %v", what, aggregate.MetricNames[metric], q*100, g, w)
			}
		}
	}
}

// The sample nginx log holds the same requests as the sample JSON lines:
// every quantile of the whole input, per region and per model agrees.
func TestNginxSampleMatchesJSONL(t *testing.T) {
	ex := filepath.Join(sharedDir(t), "examples")
	jsonAcc, jsonRes := aggregateFiles(t, []string{filepath.Join(ex, "tokenhub-sample.jsonl")}, ingest.Options{})
	if jsonRes.Records() != 3000 {
		t.Fatalf("jsonl: %d records, want 3000", jsonRes.Records())
	}
	// The README's log_format given explicitly, and none (the format is
	// then recognised from the first lines).
	for _, logFormat := range []string{gen.NginxLogFormat, ""} {
		acc, res := aggregateFiles(t, []string{filepath.Join(ex, "tokenhub-sample-nginx.log")},
			ingest.Options{LogFormats: formats(logFormat), Location: mustZone(t, "Asia/Shanghai")})
		if res.Records() != 3000 || res.BadLines() != 3 {
			t.Fatalf("log format %q: %d records, %d bad lines; want 3000 and 3 (problems %v)",
				logFormat, res.Records(), res.BadLines(), res.Problems)
		}
		if f := res.Files[0].Format; f != ingest.Nginx {
			t.Errorf("format %s, want nginx", f)
		}
		for _, p := range res.Problems {
			if p.Reason == "" {
				t.Errorf("line %d: bad line without a reason", p.Line)
			}
		}
		sameQuantiles(t, "all", acc.Set.All, jsonAcc.Set.All)
		for _, dim := range []int{aggregate.DimRegion, aggregate.DimModel} {
			got, want := acc.Set.Dims[dim], jsonAcc.Set.Dims[dim]
			if got.Len() != want.Len() || got.Len() < 2 {
				t.Errorf("%s: %d keys, want %d (at least 2)", aggregate.DimNames[dim], got.Len(), want.Len())
			}
			for _, ke := range want.Sorted() {
				e := got.Get(ke.Key)
				if e == nil {
					t.Errorf("%s %q missing", aggregate.DimNames[dim], ke.Key)
					continue
				}
				sameQuantiles(t, aggregate.DimNames[dim]+"="+ke.Key, e, ke.Entry)
			}
		}
		statuses := acc.Status()
		for code, n := range jsonAcc.Status() {
			if statuses[code] != n {
				t.Errorf("status %d: %d records, want %d", code, statuses[code], n)
			}
		}
	}
}

// formats is the --log-format list of one format, none for "".
func formats(f string) []string {
	if f == "" {
		return nil
	}
	return []string{f}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// rec is what a test keeps of a record.
type rec struct {
	timeNS                   int64
	hasTime                  bool
	client, addr, region     string
	model, method, uri       string
	status, conn, connReqs   int64
	rt, urt, ttft, ra, rtt   float64
	hasURT, hasTTFT, hasRA   bool
	stream, hasStream, hasRT bool
}

// nginxCollector is a sink that copies every record.
type nginxCollector struct{ recs []rec }

func (c *nginxCollector) Add(r *ingest.Record) {
	var x rec
	x.timeNS, x.hasTime = r.TimeNS, r.Has(ingest.FTime)
	x.client = string(r.Text(ingest.FClient))
	x.addr = string(r.Text(ingest.FRemoteAddr))
	x.region = string(r.Text(ingest.FRegion))
	x.model = string(r.Text(ingest.FModel))
	x.method = string(r.Text(ingest.FMethod))
	x.uri = string(r.Text(ingest.FURI))
	x.status, _ = r.Int(ingest.FStatus)
	x.conn, _ = r.Int(ingest.FConnection)
	x.connReqs, _ = r.Int(ingest.FConnectionRequests)
	x.rt, x.hasRT = r.Float(ingest.FRequestTime)
	x.urt, x.hasURT = r.Float(ingest.FUpstreamResponseTime)
	x.ttft, x.hasTTFT = r.Float(ingest.FTTFT)
	x.ra, x.hasRA = r.Float(ingest.FRetryAfter)
	x.rtt, _ = r.Float(ingest.FTCPInfoRTT)
	x.stream, x.hasStream = r.Bool(ingest.FStream)
	c.recs = append(c.recs, x)
}

// collect reads paths with one worker, so records come in file order.
func nginxCollect(t *testing.T, paths []string, opts ingest.Options) ([]rec, *ingest.Result) {
	t.Helper()
	opts.Format, opts.Workers = ingest.Auto, 1
	sinks, res, err := ingest.Run(paths, opts, func() *nginxCollector { return &nginxCollector{} })
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Incomplete {
			t.Fatalf("%s: incomplete: %s", f.Path, f.Reason)
		}
	}
	return sinks[0].recs, res
}

// realLine is the oracle's reading of an upstreaminfo line: the text after
// the user agent split on spaces, list items (ending in ",") joined.
type realLine struct {
	status   int
	rt       float64
	urt      float64
	hasURT   bool
	addr     string
	upstatus string
}

func readUpstreamInfo(t *testing.T, path string) []realLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []realLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		// status follows the request: `..." 200 59 "-" "agent" ...`
		afterReq := line[strings.Index(line, `HTTP/`):]
		status, err := strconv.Atoi(strings.Fields(afterReq)[1])
		if err != nil {
			t.Fatalf("oracle: %v in %q", err, line)
		}
		tail := strings.Fields(line[strings.LastIndex(line, `" `)+2:])
		var groups []string
		for i := 0; i < len(tail); i++ {
			g := tail[i]
			for strings.HasSuffix(tail[i], ",") {
				i++
				g += " " + tail[i]
			}
			groups = append(groups, g)
		}
		// request_length request_time [name] [alt] addr length rt status id
		if len(groups) != 9 {
			t.Fatalf("oracle: %d columns after the user agent in %q", len(groups), line)
		}
		l := realLine{status: status, addr: groups[4], upstatus: groups[7]}
		if l.rt, err = strconv.ParseFloat(groups[1], 64); err != nil {
			t.Fatal(err)
		}
		for _, item := range strings.Split(groups[6], ", ") {
			if item == "-" {
				continue
			}
			v, err := strconv.ParseFloat(item, 64)
			if err != nil {
				t.Fatal(err)
			}
			l.urt += v
			l.hasURT = true
		}
		out = append(out, l)
	}
	return out
}

// The ingress-nginx fixture: lists, "-" everywhere on rejected requests,
// IPv6 and unix-socket upstreams.
func TestNginxRealUpstreamInfo(t *testing.T) {
	path := filepath.Join(sharedDir(t), "real", "ingress-nginx-upstreaminfo.log")
	want := readUpstreamInfo(t, path)
	if len(want) != 29 {
		t.Fatalf("oracle: %d lines, want 29", len(want))
	}
	for _, logFormat := range []string{"upstreaminfo", ""} {
		got, res := nginxCollect(t, []string{path}, ingest.Options{LogFormats: formats(logFormat)})
		if res.Records() != 29 || res.BadLines() != 0 {
			t.Fatalf("log format %q: %d records, %d bad lines; want 29 and 0 (problems %v)",
				logFormat, res.Records(), res.BadLines(), res.Problems)
		}
		status := map[int64]int{}
		withURT := 0
		for i, g := range got {
			w := want[i]
			status[g.status]++
			if g.status != int64(w.status) {
				t.Errorf("line %d: status %d, want %d", i+1, g.status, w.status)
			}
			if !g.hasRT || g.rt != w.rt {
				t.Errorf("line %d: request_time %v (%v), want %v", i+1, g.rt, g.hasRT, w.rt)
			}
			if g.hasURT != w.hasURT || g.hasURT && g.urt != w.urt {
				t.Errorf("line %d: upstream_response_time %v (%v), want %v (%v)", i+1, g.urt, g.hasURT, w.urt, w.hasURT)
			}
			if g.hasURT {
				withURT++
			}
			if !g.hasTime || g.client == "" || g.method == "" || g.uri == "" {
				t.Errorf("line %d: time, client, method or uri missing: %+v", i+1, g)
			}
		}
		if withURT != 27 {
			t.Errorf("%d records with an upstream time, want 27", withURT)
		}
		if status[200] != 25 || status[400] != 2 || status[502] != 2 || len(status) != 3 {
			t.Errorf("status counts %v, want 25×200, 2×400, 2×502", status)
		}
	}
}

// generated writes n generated requests, some of them retried on a second
// upstream, as nginx text and JSON lines.
func generated(t *testing.T, n, badEvery int) (reqs []gen.Request, nginxPath, jsonlPath string, nginxBad, jsonlBad int) {
	t.Helper()
	reqs = gen.Generate(gen.Config{Seed: 7, N: n, Plants: gen.All})
	retried := 0
	for i := range reqs {
		if i%7 == 3 && len(reqs[i].UpstreamTimes) == 1 {
			reqs[i].UpstreamTimes = []float64{0.003, reqs[i].UpstreamTimes[0]}
			retried++
		}
	}
	if retried < n/10 {
		t.Fatalf("only %d requests retried", retried)
	}
	dir := t.TempDir()
	nginxPath, jsonlPath = filepath.Join(dir, "gen.log"), filepath.Join(dir, "gen.jsonl")
	write := func(path string, w func(*os.File) (int, error)) int {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		bad, err := w(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return bad
	}
	nginxBad = write(nginxPath, func(f *os.File) (int, error) { return gen.WriteNginx(f, reqs, gen.WriteOptions{BadEvery: badEvery}) })
	jsonlBad = write(jsonlPath, func(f *os.File) (int, error) { return gen.WriteJSONL(f, reqs, gen.WriteOptions{BadEvery: badEvery}) })
	return
}

func genSize() int {
	if testing.Short() {
		return 20000
	}
	return 100000
}

// Generated nginx text (some requests retried on a second upstream) and
// the same requests as JSON lines, with bad lines among them.
func TestNginxGenerated(t *testing.T) {
	reqs, nginxPath, jsonlPath, nginxBad, jsonlBad := generated(t, genSize(), 997)
	t.Run("records", func(t *testing.T) { testGeneratedRecords(t, reqs, nginxPath, nginxBad) })
	t.Run("quantiles", func(t *testing.T) {
		testGeneratedQuantiles(t, reqs, nginxPath, jsonlPath, nginxBad, jsonlBad)
	})
}

// Every generated request is read back exactly, in order.
func testGeneratedRecords(t *testing.T, reqs []gen.Request, nginxPath string, nginxBad int) {
	got, res := nginxCollect(t, []string{nginxPath}, ingest.Options{LogFormats: []string{gen.NginxLogFormat}})
	if res.Records() != int64(len(reqs)) || res.BadLines() != int64(nginxBad) || nginxBad == 0 {
		t.Fatalf("%d records, %d bad lines; want %d and %d", res.Records(), res.BadLines(), len(reqs), nginxBad)
	}
	for i := range reqs {
		r, g := &reqs[i], got[i]
		urt, hasURT := r.UpstreamTime()
		ok := g.hasTime && g.timeNS == r.Time.Truncate(1e9).UnixNano() &&
			g.client == r.AppID && g.addr == r.RemoteAddr && g.region == r.Region &&
			g.model == r.Model && g.method == r.Method && g.uri == r.URI &&
			g.status == int64(r.Status) && g.hasRT && g.rt == r.RequestTime &&
			g.hasURT == hasURT && (!hasURT || g.urt == urt) &&
			g.hasTTFT == !math.IsNaN(r.TTFTms) && (!g.hasTTFT || g.ttft == r.TTFTms) &&
			g.hasRA == (r.RetryAfter > 0) && (!g.hasRA || g.ra == float64(r.RetryAfter)) &&
			g.rtt == float64(r.TCPRTTus) && g.conn == int64(r.Connection) &&
			g.connReqs == int64(r.ConnectionRequests) &&
			g.hasStream == (r.Model != "") && g.stream == (r.Stream && r.Model != "")
		if !ok {
			t.Fatalf("request %d read as %+v, want %+v", i, g, *r)
		}
	}
	// Every kind of bad line is reported with a reason.
	kinds := map[string]bool{}
	for _, p := range res.Problems {
		kinds[strings.SplitN(p.Reason, " ", 2)[0]] = true
	}
	if len(res.Problems) == 0 || len(kinds) < 3 {
		t.Errorf("problems %v: want the rotation of bad lines, each with its reason", res.Problems)
	}
}

// Quantiles of generated nginx text and JSON lines are within 1 % of a
// sorted slice of the generated values.
func testGeneratedQuantiles(t *testing.T, reqs []gen.Request, nginxPath, jsonlPath string, nginxBad, jsonlBad int) {
	var rt, urt, ttft []float64
	for i := range reqs {
		rt = append(rt, reqs[i].RequestTime*1000)
		if v, ok := reqs[i].UpstreamTime(); ok {
			urt = append(urt, v*1000)
		}
		if !math.IsNaN(reqs[i].TTFTms) {
			ttft = append(ttft, reqs[i].TTFTms)
		}
	}
	oracle := map[int][]float64{aggregate.RequestTime: rt, aggregate.UpstreamResponseTime: urt, aggregate.TTFT: ttft}
	for _, in := range []struct {
		path string
		bad  int
	}{{nginxPath, nginxBad}, {jsonlPath, jsonlBad}} {
		acc, res := aggregateFiles(t, []string{in.path}, ingest.Options{LogFormats: []string{gen.NginxLogFormat}})
		if res.Records() != int64(len(reqs)) || res.BadLines() != int64(in.bad) {
			t.Fatalf("%s: %d records, %d bad lines; want %d and %d", in.path, res.Records(), res.BadLines(), len(reqs), in.bad)
		}
		for metric, vals := range oracle {
			sort.Float64s(vals)
			s := acc.Set.All.Metric(metric)
			if s.Count() != int64(len(vals)) {
				t.Errorf("%s %s: %d values, want %d", filepath.Base(in.path), aggregate.MetricNames[metric], s.Count(), len(vals))
			}
			for _, q := range nginxQuantiles {
				want := vals[int(q*float64(len(vals)-1))]
				if got := s.Quantile(q); !within(got, want) {
					t.Errorf("%s %s p%v = %v, want %v", filepath.Base(in.path), aggregate.MetricNames[metric], q*100, got, want)
				}
			}
		}
	}
}

// TestUnquotedRequest: a request line the format writes without quotes
// (nginx's $request, gunicorn's %(r)s as Hypercorn's docs give it) is
// read by its words: a method, a path, and a version (HTTP's, or ASGI's
// "1.1" as Hypercorn writes it) or none; a request nginx could not read
// ("-", a TLS handshake's bytes) is one word.
func TestUnquotedRequest(t *testing.T) {
	lines := []struct {
		line, method, uri string
		status            int64
		rt                float64
	}{
		{"10.0.0.1 POST /v1/chat/completions HTTP/1.1 200 1.250", "POST", "/v1/chat/completions", 200, 1.25},
		{"10.0.0.2 POST /v1/embeddings 1.1 429 0.004", "POST", "/v1/embeddings", 429, 0.004},
		{"10.0.0.3 GET /healthz 200 0.001", "GET", "/healthz", 200, 0.001},
		{"10.0.0.4 - 400 0.000", "", "", 400, 0},
		{"10.0.0.5 \\x16\\x03\\x01\\x02\\x00 400 0.002", "", "", 400, 0.002},
		{"10.0.0.6 GET /v1/models?a=b HTTP/2.0 200 0.010", "GET", "/v1/models?a=b", 200, 0.01},
	}
	var text strings.Builder
	for _, l := range lines {
		text.WriteString(l.line + "\n")
	}
	path := writeTemp(t, "unquoted.log", text.String())
	for _, format := range []string{"$remote_addr $request $status $request_time", "%(h)s %(r)s %(s)s %(L)s"} {
		got, res := nginxCollect(t, []string{path}, ingest.Options{LogFormats: []string{format}, Location: time.UTC})
		if len(got) != len(lines) || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines %v; want %d, none", format, len(got), res.BadLines(), res.Problems, len(lines))
		}
		for i, l := range lines {
			g := got[i]
			if g.method != l.method || g.uri != l.uri || g.status != l.status || !g.hasRT || math.Abs(g.rt-l.rt) > 1e-9 {
				t.Errorf("%s: line %d %q: method %q uri %q status %d rt %v; want %q %q %d %v", format, i+1, l.line, g.method, g.uri, g.status, g.rt, l.method, l.uri, l.status, l.rt)
			}
		}
	}
}
