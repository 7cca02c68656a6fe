package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// wrapped is a log's lines in an envelope: the file, and the numbers of
// the lines in it that are the runtime's noise (stderr), from 1. own: the
// noise is the server's own log lines (klog's), passed over, not bad.
type wrapped struct {
	data  []byte
	noise []int64
	own   bool
}

// stampAt is the envelope's time of line i.
func stampAt(i int) string {
	return time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * 1500 * time.Millisecond).Format(time.RFC3339Nano)
}

// wrapCRI wraps each line as containerd writes it: every fifth cut in
// three parts (tag P, P, F), and a line of the program's own on stderr
// after every seventh.
func wrapCRI(lines []string) wrapped {
	var w wrapped
	var b bytes.Buffer
	n := int64(0)
	put := func(stream, tag, text string, i int) {
		fmt.Fprintf(&b, "%s %s %s %s\n", stampAt(i), stream, tag, text)
		n++
	}
	for i, l := range lines {
		if i%5 == 2 && len(l) >= 3 {
			a, c := len(l)/3, 2*len(l)/3
			put("stdout", "P", l[:a], i)
			put("stdout", "P", l[a:c], i)
			put("stdout", "F", l[c:], i)
		} else {
			put("stdout", "F", l, i)
		}
		if i%7 == 6 {
			put("stderr", "F", `I1204 10:00:00.000000       7 controller.go:190] "Configuration changes detected"`, i)
			w.noise = append(w.noise, n)
		}
	}
	w.data, w.own = b.Bytes(), true
	return w
}

// wrapDocker wraps each line as Docker's json-file driver writes it,
// escaped: every fifth cut in two parts (the first without its "\n"),
// and a line of the program's own on stderr after every seventh.
func wrapDocker(t *testing.T, lines []string) wrapped {
	var w wrapped
	var b bytes.Buffer
	n := int64(0)
	put := func(stream, text string, i int) {
		j, err := json.Marshal(map[string]string{"log": text, "stream": stream, "time": stampAt(i)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
		n++
	}
	for i, l := range lines {
		if i%5 == 2 && len(l) >= 2 {
			put("stdout", l[:len(l)/2], i)
			put("stdout", l[len(l)/2:]+"\n", i)
		} else {
			put("stdout", l+"\n", i)
		}
		if i%7 == 6 {
			put("stderr", "panic: runtime error: index out of range [3] with length 3\n", i)
			w.noise = append(w.noise, n)
		}
	}
	w.data = b.Bytes()
	return w
}

// wrapStamped puts each line behind its time, as kubectl logs
// --timestamps and a CloudWatch export to S3 write; every third as aws
// logs tail does, with the log stream's name between, and some as
// Fluentd's out_file does, with tabs and the tag between.
func wrapStamped(lines []string) wrapped {
	var b bytes.Buffer
	for i, l := range lines {
		switch {
		case i%3 == 1:
			fmt.Fprintf(&b, "%s gateway/abc123 %s\n", stampAt(i), l)
		case i%5 == 2: // Fluentd's out_file
			fmt.Fprintf(&b, "%s\tnginx.access\t%s\n", stampAt(i), l)
		default:
			fmt.Fprintf(&b, "%s %s\n", stampAt(i), l)
		}
	}
	return wrapped{data: b.Bytes()}
}

// wrapSyslog puts each line behind a syslog header: RFC 3164's as
// rsyslog stores it (without the priority) and as sent (with it), and
// RFC 5424's, with and without structured data; RFC 3164's with an RFC
// 3339 time as rsyslog's RSYSLOG_FileFormat and syslog-ng's ISO time
// write it, and as journalctl -o short-iso prints it (its zone +0800
// before systemd 255); and journalctl -o short-precise's, RFC 3164's
// with the seconds' fraction.
func wrapSyslog(lines []string) wrapped {
	var b bytes.Buffer
	for i, l := range lines {
		switch i % 8 {
		case 0:
			fmt.Fprintf(&b, "Dec  4 10:00:%02d gw-1 nginx: %s\n", i%60, l)
		case 1:
			fmt.Fprintf(&b, "<190>Dec 14 10:00:%02d gw-1 envoy[812]: %s\n", i%60, l)
		case 2:
			fmt.Fprintf(&b, "<165>1 %s gw-1.example.com nginx 812 ID47 - %s\n", stampAt(i), l)
		case 3:
			fmt.Fprintf(&b, `<165>1 %s gw-1 nginx - - [exampleSDID@32473 iut="3" note="a ] \" in it"][x@1 y="z"] %s`+"\n", stampAt(i), l)
		case 4:
			fmt.Fprintf(&b, "%s gw-1 nginx: %s\n", stampAt(i), l)
		case 5:
			fmt.Fprintf(&b, "2026-12-04T10:00:%02d+0800 gw-1 nginx[812]: %s\n", i%60, l)
		case 6:
			fmt.Fprintf(&b, "2026-12-04T10:00:%02d.125000+08:00 gw-1 nginx[812]: %s\n", i%60, l)
		case 7:
			fmt.Fprintf(&b, "Dec 04 10:00:%02d.125000 gw-1 nginx[812]: %s\n", i%60, l)
		}
	}
	return wrapped{data: b.Bytes()}
}

// wrapShipper puts each line in a log shipper's record, in turn as
// Filebeat, Logstash, Vector and Fluent Bit (two ways) write theirs.
func wrapShipper(t *testing.T, lines []string) wrapped {
	var b bytes.Buffer
	for i, l := range lines {
		var rec any
		switch i % 6 {
		case 0:
			rec = map[string]any{"@timestamp": stampAt(i), "@metadata": map[string]any{"beat": "filebeat"},
				"log":     map[string]any{"offset": i * 200, "file": map[string]any{"path": "/var/log/nginx/access.log"}},
				"message": l, "input": map[string]any{"type": "filestream"}, "ecs": map[string]any{"version": "8.0.0"},
				"host": map[string]any{"name": "gw-1"}, "agent": map[string]any{"type": "filebeat"}}
		case 1:
			rec = map[string]any{"@version": "1", "@timestamp": stampAt(i), "message": l, "path": "/var/log/nginx/access.log", "host": "gw-1"}
		case 2:
			rec = map[string]any{"file": "/var/log/nginx/access.log", "host": "gw-1", "message": l, "source_type": "file", "timestamp": stampAt(i)}
		case 3: // Fluent Bit's json_lines: the time in epoch seconds
			at, _ := time.Parse(time.RFC3339Nano, stampAt(i))
			rec = map[string]any{"date": float64(at.UnixMilli()) / 1000, "log": l}
		case 4: // Fluent Bit's plain format
			rec = map[string]any{"log": l}
		case 5: // Fly.io's log shipper: Vector's record of the NATS stream
			rec = map[string]any{"event": map[string]any{"provider": "app"}, "fly": map[string]any{"app": map[string]any{"instance": "0e286039f42e86", "name": "llm-gw"}, "region": "iad"},
				"host": "a1b2", "log": map[string]any{"level": "info"}, "message": l, "timestamp": stampAt(i)}
		}
		writeJSONLine(t, &b, rec)
	}
	return wrapped{data: b.Bytes()}
}

// wrapVector puts each line in a log event of Vector's native_json
// codec, as its file source reads a line, and a metric event of its
// internal_metrics after every seventh, which is no request.
func wrapVector(t *testing.T, lines []string) wrapped {
	var w wrapped
	var b bytes.Buffer
	n := int64(0)
	for i, l := range lines {
		writeJSONLine(t, &b, map[string]any{"log": map[string]any{
			"file": "/var/log/nginx/access.log", "host": "gw-1", "message": l, "source_type": "file", "timestamp": stampAt(i)}})
		n++
		if i%7 == 6 {
			writeJSONLine(t, &b, map[string]any{"metric": map[string]any{
				"name": "component_received_events_total", "namespace": "vector", "tags": map[string]string{"component_id": "nginx"},
				"timestamp": stampAt(i), "kind": "absolute", "counter": map[string]float64{"value": float64(i + 1)}}})
			n++
			w.noise = append(w.noise, n)
		}
	}
	w.data, w.own = b.Bytes(), true
	return w
}

// writeJSONLine writes rec to b as one JSON line.
func writeJSONLine(t *testing.T, b *bytes.Buffer, rec any) {
	t.Helper()
	j, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	b.Write(j)
	b.WriteByte('\n')
}

// wrapJournald puts each line in journald's export, as journalctl -o
// json prints it.
func wrapJournald(t *testing.T, lines []string) wrapped {
	var b bytes.Buffer
	for i, l := range lines {
		us := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC).UnixMicro() + int64(i)*1500000
		j, err := json.Marshal(map[string]string{
			"__CURSOR": fmt.Sprintf("s=5d1e;i=%x;b=9f2c;m=%x;t=%x;x=77", i+1, i, us), "__REALTIME_TIMESTAMP": fmt.Sprint(us),
			"__MONOTONIC_TIMESTAMP": fmt.Sprint(i * 1000), "_BOOT_ID": "9f2c", "PRIORITY": "6", "_SYSTEMD_UNIT": "ollama.service",
			"SYSLOG_IDENTIFIER": "ollama", "_PID": "812", "MESSAGE": l,
		})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return wrapped{data: b.Bytes()}
}

// wrapSplunk puts each line in a row of Splunk's JSON search export,
// its members in the order the REST API writes them: the line in
// result._raw beside fields Splunk extracted, _time in RFC 3339 (every
// third in the "… GMT" form some clients write, which is not taken as a
// time), every fifth a preview row, lastrow on the last row, and the
// export's last line, without a result, after it.
func wrapSplunk(t *testing.T, lines []string) wrapped {
	var b bytes.Buffer
	for i, l := range lines {
		at, err := time.Parse(time.RFC3339Nano, stampAt(i))
		if err != nil {
			t.Fatal(err)
		}
		when := at.Format("2006-01-02T15:04:05.000-07:00")
		if i%3 == 2 {
			when = at.UTC().Format("2006-01-02 15:04:05.000 GMT")
		}
		raw, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		last := ""
		if i == len(lines)-1 {
			last = `"lastrow":true,`
		}
		fmt.Fprintf(&b, `{"preview":%t,"offset":%d,%s"result":{"_bkt":"main~12~0A1B","_cd":"12:%d","_raw":%s,"_time":%q,"host":"gw-1","index":"main","linecount":"1","source":"/var/log/gw/access.log","sourcetype":"gw:access","splunk_server":"idx-1"}}`+"\n",
			i%5 == 4, i, last, i, raw, when)
	}
	b.WriteString(`{"preview":false,"lastrow":true}` + "\n")
	return wrapped{data: b.Bytes()}
}

// wrapLoki puts each line in a line of logcli query --output=jsonl, as
// Go's encoding/json writes it (keys sorted, the time in RFC 3339 with
// ns, in a zone of its own); every fourth without labels, as
// --no-labels writes it.
func wrapLoki(t *testing.T, lines []string) wrapped {
	var b bytes.Buffer
	zone := time.FixedZone("", 8*3600)
	for i, l := range lines {
		at, err := time.Parse(time.RFC3339Nano, stampAt(i))
		if err != nil {
			t.Fatal(err)
		}
		rec := map[string]any{"line": l, "timestamp": at.Add(123456789).In(zone)}
		if i%4 != 3 {
			rec["labels"] = map[string]string{"job": "ingress-nginx/controller", "namespace": "ingress-nginx", "pod": "ingress-nginx-controller-7d9f-abcde", "stream": "stdout"}
		}
		writeJSONLine(t, &b, rec)
	}
	return wrapped{data: b.Bytes()}
}

// encodedRun reads path into accumulators and returns their merge's
// encoding, with what the run read.
func encodedRun(t *testing.T, path string, opts ingest.Options) ([]byte, *ingest.Result) {
	t.Helper()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	accs, res, err := ingest.Run([]string{path}, opts, func() *aggregate.Accumulator {
		return aggregate.New(aggregate.Options{Mapping: m, Top: 1000})
	})
	if err != nil {
		t.Fatal(err)
	}
	return aggregate.MergeAll(accs).AppendBinary(nil), res
}

// TestEnvelopes: a log's lines in a container runtime's or a log
// shipper's envelope, with no flag, give the records the log gives
// alone, whatever the workers and wherever the blocks cut the file; the
// runtime's own lines are bad lines, each at its line.
func TestEnvelopes(t *testing.T) {
	sources := []struct {
		path    string
		stamped bool // JSON lines and LTSV: also behind a syslog header (JSON lines behind their time)
	}{
		{"../testdata/shared/examples/tokenhub-sample.jsonl", true},
		{"../testdata/shared/examples/tokenhub-sample-nginx.log", false},
		{"../testdata/shared/real/ingress-nginx-upstreaminfo.log", false},
		{"../testdata/shared/real/alp-ltsv/access.log", true},
		{"testdata/text/traefik-clf.log", false},
		{"testdata/text/envoy-default.log", false},
		{"gin", false}, // written below
	}
	run := func(path string, opts ingest.Options) ([]byte, *ingest.Result) {
		t.Helper()
		return encodedRun(t, path, opts)
	}
	dir := t.TempDir()
	gin := "[GIN] 2026/12/04 - 10:00:01 | 200 |    3.410221s |       127.0.0.1 | POST     \"/api/chat\"\n" +
		"[GIN] 2026/12/04 - 10:00:02 | 200 |      612.3µs |       127.0.0.1 | GET      \"/api/tags\"\n" +
		"time=2026-12-04T10:00:03.000+08:00 level=INFO source=server.go:619 msg=\"llama runner started in 2.01 seconds\"\n" +
		"[GIN] 2026/12/04 - 10:00:09 | 500 |    7.004118s |       127.0.0.1 | POST     \"/v1/chat/completions\"\n"
	if err := os.WriteFile(filepath.Join(dir, "gin"), []byte(gin), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range sources {
		if src.path == "gin" {
			src.path = filepath.Join(dir, "gin")
		}
		raw, err := os.ReadFile(src.path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
		want, base := run(src.path, ingest.Options{Workers: 1, MaxProblems: 1000})
		f0 := base.Files[0]
		if f0.Records == 0 {
			t.Fatalf("%s: no records alone", src.path)
		}
		envs := map[ingest.Envelope]wrapped{ingest.EnvCRI: wrapCRI(lines), ingest.EnvDocker: wrapDocker(t, lines),
			ingest.EnvShipper: wrapShipper(t, lines), ingest.EnvJournald: wrapJournald(t, lines), ingest.EnvLoki: wrapLoki(t, lines),
			ingest.EnvSplunk: wrapSplunk(t, lines), ingest.EnvVector: wrapVector(t, lines)}
		if src.stamped {
			if strings.HasPrefix(lines[0], "{") {
				envs[ingest.EnvStamped] = wrapStamped(lines)
			}
			envs[ingest.EnvSyslog] = wrapSyslog(lines)
		}
		for env, w := range envs {
			path := filepath.Join(dir, string(env)+"-"+filepath.Base(src.path))
			if err := os.WriteFile(path, w.data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 3} {
				for _, block := range []int{0, 1000} {
					opts := ingest.WithBlockSize(ingest.Options{Workers: workers, MaxProblems: 1000}, block)
					got, res := run(path, opts)
					f := res.Files[0]
					what := fmt.Sprintf("%s in %s, %d workers, blocks of %d", filepath.Base(src.path), env, workers, block)
					if f.Envelope != env || f.Format != f0.Format || f.Source != f0.Source {
						t.Fatalf("%s: read as %q %s (%s), alone as %s (%s)", what, f.Envelope, f.Format, f.Source, f0.Format, f0.Source)
					}
					bad, passed := int64(len(w.noise)), int64(0)
					if w.own {
						bad, passed = 0, bad
					}
					if f.Records != f0.Records || f.BadLines != f0.BadLines+bad || f.PassedOver != f0.PassedOver+passed {
						t.Fatalf("%s: %d records, %d bad lines, %d passed over; want %d, %d + %d, %d + %d noise",
							what, f.Records, f.BadLines, f.PassedOver, f0.Records, f0.BadLines, bad, f0.PassedOver, passed)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s: the accumulator differs from the log's alone", what)
					}
					var noise []int64
					for _, p := range res.Problems {
						if strings.Contains(p.Reason, "cut in parts") {
							t.Errorf("%s: %s", what, p)
						}
						for _, n := range w.noise {
							if p.Line == n && strings.HasPrefix(p.Reason, "a line on stderr, not a request") {
								noise = append(noise, n)
							}
						}
					}
					if len(noise) != int(bad) {
						t.Errorf("%s: bad lines at %v of the noise at %v", what, noise, w.noise)
					}
				}
			}
		}
	}
}

// TestEnvelopeTime: a record whose line has no time of its own takes
// its envelope's; one with its own keeps it.
func TestEnvelopeTime(t *testing.T) {
	dir := t.TempDir()
	cri := "2026-12-04T10:00:01.25Z stdout F {\"request_time\":0.5,\"status\":200,\"uri\":\"/v1/chat/completions\"}\n" +
		"2026-12-04T10:00:02.5Z stdout F {\"time\":\"2026-12-04T09:59:59Z\",\"request_time\":0.25,\"status\":200,\"uri\":\"/v1/chat/completions\"}\n"
	path := filepath.Join(dir, "app.log")
	if err := os.WriteFile(path, []byte(cri), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1})
	if len(rows) != 2 || res.Files[0].Envelope != ingest.EnvCRI {
		t.Fatalf("%d rows, %+v", len(rows), res.Files)
	}
	wantNS := []int64{
		time.Date(2026, 12, 4, 9, 59, 59, 0, time.UTC).UnixNano(),
		time.Date(2026, 12, 4, 10, 0, 1, 250e6, time.UTC).UnixNano(),
	}
	for i, r := range rows {
		if !r.hasTime || r.timeNS != wantNS[i] {
			t.Errorf("row %d: time %d (%v), want %d", i, r.timeNS, r.hasTime, wantNS[i])
		}
	}
	// logcli's jsonl: its timestamp in the zone logcli was told.
	loki := `{"labels":{"job":"gw"},"line":"{\"request_time\":0.5,\"status\":200,\"uri\":\"/v1/chat/completions\"}","timestamp":"2026-12-04T18:00:01.000000250+08:00"}` + "\n" +
		`{"line":"{\"time\":\"2026-12-04T09:59:59Z\",\"request_time\":0.25,\"status\":200,\"uri\":\"/v1/chat/completions\"}","timestamp":"2026-12-04T10:00:02.5Z"}` + "\n"
	path = filepath.Join(dir, "loki.jsonl")
	if err := os.WriteFile(path, []byte(loki), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res = collect(t, []string{path}, ingest.Options{Workers: 1})
	if len(rows) != 2 || res.Files[0].Envelope != ingest.EnvLoki {
		t.Fatalf("loki: %d rows, %+v", len(rows), res.Files)
	}
	wantNS = []int64{
		time.Date(2026, 12, 4, 9, 59, 59, 0, time.UTC).UnixNano(),
		time.Date(2026, 12, 4, 10, 0, 1, 250, time.UTC).UnixNano(),
	}
	for i, r := range rows {
		if !r.hasTime || r.timeNS != wantNS[i] {
			t.Errorf("loki row %d: time %d (%v), want %d", i, r.timeNS, r.hasTime, wantNS[i])
		}
	}
	// Splunk's JSON export: _time when it is RFC 3339; not in the form
	// "… GMT", and then a line without a time of its own has none. The
	// last line, without a result, is neither a record nor a bad line.
	splunk := `{"preview":false,"offset":0,"result":{"_raw":"{\"request_time\":0.5,\"status\":200,\"uri\":\"/v1/chat/completions\"}","_time":"2026-12-04T18:00:01.250+08:00","host":"gw-1"}}` + "\n" +
		`{"preview":false,"offset":1,"result":{"_raw":"{\"time\":\"2026-12-04T09:59:59Z\",\"request_time\":0.25,\"status\":200,\"uri\":\"/v1/chat/completions\"}","_time":"2026-12-04T10:00:02.500+00:00"}}` + "\n" +
		`{"preview":false,"offset":2,"lastrow":true,"result":{"_time":"2026-12-04 10:00:03.000 GMT","_raw":"{\"request_time\":0.75,\"status\":200,\"uri\":\"/v1/chat/completions\"}"}}` + "\n" +
		`{"preview":false,"lastrow":true}` + "\n"
	path = filepath.Join(dir, "splunk.json")
	if err := os.WriteFile(path, []byte(splunk), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res = collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	if len(rows) != 3 || res.Files[0].Envelope != ingest.EnvSplunk || res.Files[0].BadLines != 0 {
		t.Fatalf("splunk: %d rows, %+v, %+v", len(rows), res.Files, res.Problems)
	}
	// The rows by their request_time: a time from the line, from _time,
	// and none.
	want := map[float64]int64{
		0.25: time.Date(2026, 12, 4, 9, 59, 59, 0, time.UTC).UnixNano(),
		0.5:  time.Date(2026, 12, 4, 10, 0, 1, 250e6, time.UTC).UnixNano(),
	}
	checkTimesByRT(t, "splunk", rows, want)
}

// checkTimesByRT checks each row's time against want, by its
// request_time: a row whose request_time want has not has no time.
func checkTimesByRT(t *testing.T, name string, rows []row, want map[float64]int64) {
	t.Helper()
	for _, r := range rows {
		ns, ok := want[r.rt]
		if r.hasTime != ok || ok && r.timeNS != ns {
			t.Errorf("%s: row of request_time %g: time %d (%v), want %d (%v)", name, r.rt, r.timeNS, r.hasTime, ns, ok)
		}
	}
}

// TestEnvelopeOf: each envelope is told from its first line, and the
// lines that only look like one are not taken for it.
func TestEnvelopeOf(t *testing.T) {
	cases := []struct {
		line string
		want ingest.Envelope
	}{
		{`2026-12-04T10:00:00.123456789Z stdout F {"a":1}`, ingest.EnvCRI},
		{`2026-12-04T10:00:00.123456789+08:00 stderr P 10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] "GET / HTTP/1.1"`, ingest.EnvCRI},
		{`2026-12-04T10:00:00Z stdout F`, ingest.EnvCRI},
		{`{"log":"{\"status\":200}\n","stream":"stdout","time":"2026-12-04T10:00:00.1Z"}`, ingest.EnvDocker},
		{`{"time":"2026-12-04T10:00:00Z","stream":"stderr","log":"x\n","kubernetes":{"pod_name":"p"}}`, ingest.EnvDocker},
		{`2026-12-04T10:00:00.123Z {"status":200}`, ingest.EnvStamped},
		{`2026-12-04T10:00:00.123000+00:00 gateway/abc {"status":200}`, ingest.EnvStamped},
		{"2026-12-04T10:00:00+00:00\tnginx.access\t{\"status\":200}", ingest.EnvStamped},
		{`Dec  4 10:00:00 gw-1 nginx: {"status":200}`, ingest.EnvSyslog},
		{`<190>Dec 14 10:00:00 gw-1 envoy[812]: {"status":200}`, ingest.EnvSyslog},
		{`<165>1 2026-12-04T10:00:00.003Z gw-1 nginx 812 ID47 - {"status":200}`, ingest.EnvSyslog},
		{`<165>1 2026-12-04T10:00:00.003Z gw-1 nginx - - [a b="]"] {"status":200}`, ingest.EnvSyslog},
		{`2026-12-04T10:00:01.125000+08:00 gw-1 nginx: {"status":200}`, ingest.EnvSyslog},
		{`2026-12-04T10:00:01+0800 gw-1 nginx[812]: {"status":200}`, ingest.EnvSyslog},
		{`Dec 04 10:00:01.125000 gw-1 nginx[812]: {"status":200}`, ingest.EnvSyslog},
		{`2026-12-04T10:00:01+08:00 gw-1 nginx {"status":200}`, ingest.NoEnvelope},
		// WSO2 API Manager's analytics log: an event after log4j2's layout
		// (or any other: the message is the reporter's); the reporter's
		// own line, the message without its object, or with text after
		// it, is none.
		{`08:23:34,898 [-] [PassThroughMessageProcessor-188]  INFO ELKCounterMetric apimMetrics: apim:response, properties :{"proxyResponseCode":200}`, ingest.EnvAPIMMetrics},
		{`[2026-12-04 10:00:00,125]  INFO {org.wso2.am.analytics.publisher.reporter.elk.ELKCounterMetric} - apimMetrics: apim:faulty, properties :{"proxyResponseCode":429}`, ingest.EnvAPIMMetrics},
		{`08:23:10,412 [-] [main]  INFO ELKMetricReporter LogMetricReporter successfully initialized`, ingest.NoEnvelope},
		{`08:23:34,898 [-] [t]  INFO ELKCounterMetric apimMetrics: apim:response, properties :`, ingest.NoEnvelope},
		{`08:23:34,898 [-] [t]  INFO ELKCounterMetric apimMetrics: apim:response, properties :{"a":1} and more`, ingest.NoEnvelope},
		{`{"message":"x apimMetrics:apim:response, properties :{}"}`, ingest.NoEnvelope},
		{`{"@timestamp":"2026-12-04T10:00:00.000Z","message":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1","log":{"offset":0}}`, ingest.EnvShipper},
		{`{"@version":"1","message":"{\"status\":200}"}`, ingest.EnvShipper},
		{`{"message":"x","source_type":"file","timestamp":"2026-12-04T10:00:00Z"}`, ingest.EnvShipper},
		{`{"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1796378400000000","MESSAGE":"[GIN] 2026/12/04 - 10:00:01 | 200 | 3.4s | 127.0.0.1 | POST \"/api/chat\""}`, ingest.EnvJournald},
		{`{"MESSAGE":"x","PRIORITY":"6"}`, ingest.NoEnvelope},
		// Fluent Bit's record of a line: its json_lines outputs', its
		// file output's plain format; a log's own JSON with a "log" and
		// more, or a "log" that is no string, is none.
		{`{"date":1796378400.123,"log":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1"}`, ingest.EnvShipper},
		{`{"log":"{\"status\":200}"}`, ingest.EnvShipper},
		{`{"date":"2026-12-04T10:00:00Z","log":"x"}`, ingest.EnvShipper},
		{`{"log":"x","level":"info"}`, ingest.NoEnvelope},
		{`{"log":{"file":"/var/log/x"},"date":1796378400}`, ingest.NoEnvelope},
		// Vector's native_json events: a log's, a metric's, a trace's;
		// a log's own JSON with a "log" object and more, or a "metric"
		// of no name and kind, is none.
		{`{"log":{"file":"/var/log/nginx/access.log","host":"gw-1","message":"x","source_type":"file","timestamp":"2026-12-04T02:00:01.125Z"}}`, ingest.EnvVector},
		{`{"log":{"status":200,"request_time":0.5}}`, ingest.EnvVector},
		{`{"metric":{"name":"utilization","namespace":"vector","kind":"absolute","gauge":{"value":0.5}}}`, ingest.EnvVector},
		{`{"trace":{"trace_id":1,"spans":[]}}`, ingest.EnvVector},
		{`{"log":{"level":"info"},"message":"x"}`, ingest.NoEnvelope},
		{`{"metric":{"value":0.5}}`, ingest.NoEnvelope},
		{`{"metric":{"name":"x","kind":"absolute"},"log":{}}`, ingest.NoEnvelope},
		{`{"labels":{"job":"nginx"},"line":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1","timestamp":"2026-12-04T10:00:00.123456789+08:00"}`, ingest.EnvLoki},
		{`{"line":"{\"status\":200}","timestamp":"2026-12-04T02:00:00Z"}`, ingest.EnvLoki},
		{` { "timestamp" : "2026-12-04T02:00:00.5Z" , "labels" : { } , "line" : "" } `, ingest.EnvLoki},
		// Look-alikes of logcli's jsonl: a log's own lines with a "line".
		{`{"labels":{"job":"nginx"},"line":"x","timestamp":"2026-12-04T10:00:00Z","status":200}`, ingest.NoEnvelope},
		{`{"line":"x","timestamp":"2026-12-04 10:00:00"}`, ingest.NoEnvelope},
		{`{"line":"x","timestamp":1796378400}`, ingest.NoEnvelope},
		{`{"line":42,"timestamp":"2026-12-04T10:00:00Z"}`, ingest.NoEnvelope},
		{`{"line":"x","labels":{"a":"b"}}`, ingest.NoEnvelope},
		{`{"line":"x","timestamp":"2026-12-04T10:00:00Z","labels":"job=nginx"}`, ingest.NoEnvelope},
		{`{"line":"x","timestamp":"2026-12-04T10:00:00Z junk"}`, ingest.NoEnvelope},
		{`{"preview":false,"offset":0,"result":{"_raw":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1","_time":"2024-04-30T10:00:00.000+00:00","host":"gw-1"}}`, ingest.EnvSplunk},
		{`{"preview":true,"offset":7,"lastrow":true,"result":{"_time":"2026-10-08 13:48:34.000 GMT","_raw":"{\"status\":200}","x":["1","2"]}}`, ingest.EnvSplunk},
		{` { "result" : { "_raw" : "" } , "preview" : false } `, ingest.EnvSplunk},
		// Look-alikes of Splunk's export: a log's own lines with a
		// "result", Cloudflare's API answer (a JSON document), a row of
		// a search without _raw (stats), and the export's last line,
		// which tells nothing of the lines.
		{`{"preview":false,"lastrow":true}`, ingest.NoEnvelope},
		{`{"preview":false,"offset":0,"result":{"count":"120","resultado":"ok"}}`, ingest.NoEnvelope},
		{`{"preview":false,"offset":0,"result":{"_raw":"x"},"status":200}`, ingest.NoEnvelope},
		{`{"preview":"false","offset":0,"result":{"_raw":"x"}}`, ingest.NoEnvelope},
		{`{"preview":false,"offset":"0","result":{"_raw":"x"}}`, ingest.NoEnvelope},
		{`{"preview":false,"offset":0,"lastrow":1,"result":{"_raw":"x"}}`, ingest.NoEnvelope},
		{`{"offset":0,"result":{"_raw":"x"}}`, ingest.NoEnvelope},
		{`{"preview":false,"result":"x"}`, ingest.NoEnvelope},
		{`{"preview":false,"result":{"_raw":42}}`, ingest.NoEnvelope},
		{`{"result":"ok","status":200,"request_time":0.5,"uri":"/v1/chat/completions"}`, ingest.NoEnvelope},
		{`{"success":true,"errors":[],"messages":[],"result":[{"a":1}],"result_info":{"page":1}}`, ingest.NoEnvelope},
		{`{"result":{"_raw":"x"},"success":true}`, ingest.NoEnvelope},
		// Look-alikes: a log's own lines.
		{`{"message":"model loaded","level":"info","time":"2026-12-04T10:00:00Z"}`, ingest.NoEnvelope},
		{`{"@timestamp":"2026-12-04T10:00:00Z","message":{"a":1}}`, ingest.NoEnvelope},
		{`Dec  4 10:00:00 gw-1 haproxy[1]: 10.0.0.1:5000 [04/Dec/2026:10:00:00.000] fe be/s 0/0/0/1/1 200 1 - - ---- 1/1/0/0/0 0/0 "GET / HTTP/1.1"`, ingest.NoEnvelope},
		{`Dec  4 10:00:00 gw-1 some text: {"status":200}`, ingest.NoEnvelope},
		{`<165>1 2026-12-04T10:00:00.003Z gw-1 nginx - - [a b="]" {"status":200}`, ingest.NoEnvelope},
		{`<1650>Dec  4 10:00:00 gw-1 nginx: {"status":200}`, ingest.NoEnvelope},
		{`{"log":"x","stream":"other"}`, ingest.NoEnvelope},
		{`{"log":{"a":1},"stream":"stdout"}`, ingest.NoEnvelope},
		{`{"time":"2026-12-04T10:00:00Z","status":200,"stream":true}`, ingest.NoEnvelope},
		{`2026-12-04 10:00:00 stdout F {"a":1}`, ingest.NoEnvelope},
		{`2026-12-04T10:00:00Z 10.0.0.1 GET /v1/chat 200 0.5`, ingest.NoEnvelope},
		{`2026-12-04T10:00:00Z stdout X {"a":1}`, ingest.NoEnvelope},
		{`2026-12-04T10:00:00Z stdout Fx {"a":1}`, ingest.NoEnvelope},
		{`10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" "-"`, ingest.NoEnvelope},
		// The AWS CLI's text output of log events: filter-log-events'
		// and get-log-events' events, searched streams, tokens; rows of
		// other shapes are none.
		{"EVENTS	37516444111055343347641349063442428475868536476094283776	1796349602010	gw-1	{\"status\":200}	1796349601251", ingest.EnvCloudWatchText},
		{"EVENTS	1796349602010	10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1	1796349601251", ingest.EnvCloudWatchText},
		{"SEARCHEDLOGSTREAMS	gw-1	True", ingest.EnvCloudWatchText},
		{"NEXTTOKEN	eyJuZXh0VG9rZW4iOiBudWxsfQ==", ingest.EnvCloudWatchText},
		{"b/3751644411105534/s\tf/3751644418601234/s", ingest.EnvCloudWatchText},
		{"EVENTS	x	1796349601251", ingest.NoEnvelope},
		{"EVENTS	37516444111055343347641349063442428475868536476094283776	1796349602010	{}	1796349601251", ingest.NoEnvelope},
		{"EVENTS	1796349602010	{}	soon", ingest.NoEnvelope},
		{"b/1 f/2", ingest.NoEnvelope},
		// Papertrail's log archive: ten fields cut by tabs, no header; a
		// TSV's header of its names, and a row of another id, are none.
		{"50342052\t2011-02-10 00:19:36 -0800\t2011-02-10 00:19:36 -0800\t42424\tmysystem\t208.122.34.202\tUser\tInfo\ttestprogram\tLorem ipsum", ingest.EnvPapertrail},
		{"50342052\t2011-02-10 00:19:36 -0800\t2011-02-10 00:19:37 +0000\t42424\t\t\t\t\t\t", ingest.EnvPapertrail},
		{"id\tgenerated_at\treceived_at\tsource_id\tsource_name\tsource_ip\tfacility_name\tseverity_name\tprogram\tmessage", ingest.NoEnvelope},
		{"5034x052\t2011-02-10 00:19:36 -0800\t2011-02-10 00:19:36 -0800\t42424\th\t1.2.3.4\tUser\tInfo\tp\tm", ingest.NoEnvelope},
		{"50342052\t2011-02-10T00:19:36Z\t2011-02-10 00:19:36 -0800\t42424\th\t1.2.3.4\tUser\tInfo\tp\tm", ingest.NoEnvelope},
		{"50342052\t2011-02-10 00:19:36 -0800\t2011-02-10 00:19:36 -0800\t42424\th\t1.2.3.4\tUser\tInfo\tp", ingest.NoEnvelope},
		// Mezmo's export: _line beside _ts (epoch ms) and _host or _app.
		{`{"_account":"a1","_app":"nginx","_host":"gw-1","_ts":1796353297685,"_line":"{\"status\":200}","level":"INFO","_id":"1"}`, ingest.EnvMezmo},
		{`{"_host":"gw-1","_ts":"1796353297685","_line":"x"}`, ingest.EnvMezmo},
		{`{"_ts":1796353297685,"_line":"x"}`, ingest.NoEnvelope},
		{`{"_app":"gw","_ts":"soon","_line":"x"}`, ingest.NoEnvelope},
		{`{"_app":"gw","_ts":1796353297685,"_line":{"status":200}}`, ingest.NoEnvelope},
		// Better Stack's SQL API's row: a raw JSON object in a string
		// beside dt; its Query API v1's: a message beside dt and
		// source_id.
		{`{"dt":"2026-12-04 03:01:37.685072","raw":"{\"dt\":\"2026-12-04T03:01:37.685072Z\",\"message\":\"x\"}"}`, ingest.EnvBetterStack},
		{`{"dt":"2026-12-04 03:01:37.685072","raw":" {\"status\":200}"}`, ingest.EnvBetterStack},
		{`{"app":"gw","source_id":"123","dt":"2026-12-04 03:01:37.685072","message":"x","level":"info"}`, ingest.EnvBetterStack},
		{`{"dt":"2026-12-04 03:01:37.685072","raw":"x"}`, ingest.NoEnvelope},
		{`{"dt":"2026-12-04 03:01:37.685072","raw":{"message":"x"}}`, ingest.NoEnvelope},
		{`{"dt":"2026-12-04 03:01:37.685072","message":"x","level":"info"}`, ingest.NoEnvelope},
	}
	for _, c := range cases {
		if got := ingest.EnvelopeOf([]byte(c.line)); got != c.want {
			t.Errorf("%s: envelope %q, want %q", c.line, got, c.want)
		}
	}
}

// TestCloudWatchEvents: a JSON document of CloudWatch Logs events, as
// aws logs filter-log-events writes it, gives the records of the JSON
// lines in its messages; an event whose message is not a JSON line (a
// Lambda's START line) is a bad line.
func TestCloudWatchEvents(t *testing.T) {
	run := func(path string) ([]byte, *ingest.Result) {
		t.Helper()
		return encodedRun(t, path, ingest.Options{Workers: 2, MaxProblems: 100})
	}
	dir := t.TempDir()
	for _, src := range []string{"testdata/sources/aws-apigateway.json", "testdata/sources/aws-apigateway-http.json",
		"testdata/sources/litellm.json", "testdata/sources/traefik.json",
		// nginx's text, as the CloudWatch agent sends an access log.
		"../testdata/shared/examples/tokenhub-sample-nginx.log", "../testdata/shared/real/ingress-nginx-upstreaminfo.log"} {
		name := filepath.Base(src)
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		type event struct {
			LogStreamName string `json:"logStreamName"`
			Timestamp     int64  `json:"timestamp"`
			Message       string `json:"message"`
			IngestionTime int64  `json:"ingestionTime"`
			EventID       string `json:"eventId"`
		}
		var events []event
		noise := 0
		for i, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
			if i == 1 {
				events = append(events, event{"2026/12/04/[$LATEST]ab", 1796392800000, "START RequestId: 8f5a Version: $LATEST\n", 1796392800100, "0"})
				noise++
			}
			events = append(events, event{"2026/12/04/[$LATEST]ab", 1796392800000 + int64(i), l, 1796392800100, fmt.Sprint(i + 1)})
		}
		doc, err := json.MarshalIndent(map[string]any{"events": events, "searchedLogStreams": []any{}}, "", "    ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "cw-"+name)
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		want, base := run(src)
		got, res := run(path)
		f0, f := base.Files[0], res.Files[0]
		if f0.Records == 0 || f.Envelope != ingest.EnvCloudWatch || f.Format != f0.Format || f.Source != f0.Source {
			t.Fatalf("%s: read as %q %s (%s), alone %s (%s), %d records", name, f.Envelope, f.Format, f.Source, f0.Format, f0.Source, f0.Records)
		}
		if f.Records != f0.Records || f.BadLines != f0.BadLines+int64(noise) {
			t.Fatalf("%s: %d records and %d bad lines, want %d and %d + %d", name, f.Records, f.BadLines, f0.Records, f0.BadLines, noise)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the accumulator differs from the lines' alone", name)
		}
		if int64(len(res.Problems)) != f.BadLines || len(res.Problems) == 0 {
			t.Errorf("%s: problems %v", name, res.Problems)
		}
	}
}

// TestShipperParsed: a shipper's record that carries request fields of
// its own (an ingest pipeline parsed the line) is read as it is, not as
// the line in its message.
func TestShipperParsed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parsed.jsonl")
	line := `{"@timestamp":"2026-12-04T10:00:00Z","message":"GET /v1/models 404","status":200,"uri":"/v1/chat/completions","request_time":0.5}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1})
	if len(rows) != 1 || res.Files[0].Envelope != ingest.NoEnvelope || rows[0].status != 200 || rows[0].rt != 0.5 || rows[0].uri != "/v1/chat/completions" {
		t.Fatalf("%+v, %+v", rows, res.Files)
	}
}

// TestEnvelopeLongFirstLine: a wrapper is told from a first line longer
// than the head the format is sniffed from.
func TestEnvelopeLongFirstLine(t *testing.T) {
	var b bytes.Buffer
	for i := range 3 {
		line, err := json.Marshal(map[string]any{"time": stampAt(i), "request_time": 0.5, "status": 200, "note": strings.Repeat("x", 6000)})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := json.Marshal(map[string]string{"log": string(line) + "\n", "stream": "stdout", "time": stampAt(i)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(rec, '\n'))
	}
	path := filepath.Join(t.TempDir(), "long.log")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1})
	if len(rows) != 3 || res.Files[0].Envelope != ingest.EnvDocker || rows[0].rt != 0.5 {
		t.Fatalf("%d rows, %+v", len(rows), res.Files)
	}
}

// TestEnvelopeStderrFirst: a container log that starts with the
// server's own messages on stderr (an ingress controller's start) is
// read by the format of the lines it writes on stdout, the requests.
func TestEnvelopeStderrFirst(t *testing.T) {
	src := "../testdata/shared/real/ingress-nginx-upstreaminfo.log"
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	_, alone := collect(t, []string{src}, ingest.Options{Workers: 1})
	var b bytes.Buffer
	const noise = 600 // about 75 KB: past the 64 KB a JSON line's keys are peeked from
	for i := range noise {
		fmt.Fprintf(&b, "%s stderr F I1204 10:00:00.%06d       7 store.go:%d] \"Found valid configuration\" ingress=\"default/web\" class=\"nginx\"\n", stampAt(i), i, 400+i)
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	for i, l := range lines {
		fmt.Fprintf(&b, "%s stdout F %s\n", stampAt(noise+i), l)
	}
	path := filepath.Join(t.TempDir(), "controller.log")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, res := collect(t, []string{path}, ingest.Options{Workers: 2})
	f, f0 := res.Files[0], alone.Files[0]
	// The controller's klog lines are its own: passed over.
	if f.Envelope != ingest.EnvCRI || f.Format != f0.Format || f.Source != f0.Source || f.Records != f0.Records || f.BadLines != f0.BadLines || f.PassedOver != f0.PassedOver+noise {
		t.Fatalf("read as %+v; alone %+v, with %d lines of noise", f, f0, noise)
	}
}

// TestShipperHits: an Elasticsearch search's hits of a shipper's records
// (a Kibana or OpenSearch export of a raw access log) give the records
// of the lines in their messages, text or JSON.
func TestShipperHits(t *testing.T) {
	run := func(path string) ([]byte, *ingest.Result) {
		t.Helper()
		return encodedRun(t, path, ingest.Options{Workers: 2, MaxProblems: 100})
	}
	dir := t.TempDir()
	for _, src := range []string{"../testdata/shared/real/ingress-nginx-upstreaminfo.log", "testdata/sources/traefik.json", "../testdata/shared/real/alp-ltsv/access.log"} {
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		var hits []any
		for i, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
			hits = append(hits, map[string]any{"_index": "filebeat-8.15.0", "_id": fmt.Sprint(i), "_score": nil,
				"_source": map[string]any{"@timestamp": stampAt(i), "message": l, "log": map[string]any{"file": map[string]any{"path": "/var/log/nginx/access.log"}},
					"agent": map[string]any{"type": "filebeat"}, "ecs": map[string]any{"version": "8.0.0"}}})
		}
		doc, err := json.MarshalIndent(map[string]any{"took": 5, "timed_out": false, "hits": map[string]any{"total": map[string]any{"value": len(hits)}, "hits": hits}}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "hits-"+filepath.Base(src)+".json")
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		want, base := run(src)
		got, res := run(path)
		f0, f := base.Files[0], res.Files[0]
		if f0.Records == 0 || f.Envelope != ingest.EnvShipper || f.Format != f0.Format || f.Source != f0.Source ||
			f.Records != f0.Records || f.BadLines != f0.BadLines {
			t.Fatalf("%s: read as %+v, alone %+v", src, f, f0)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the accumulator differs from the lines' alone", src)
		}
	}
}

// fluentBitLine is what a test reads of a Fluent Bit record of an nginx
// line in testdata: its stream, and the line's status, request_time and
// time, decoded here with encoding/json and the nginx line split by hand.
type fluentBitLine struct {
	stderr bool
	status int64
	rt     float64
	timeNS int64
}

// readFluentBitCRI decodes the records of a file of Fluent Bit's records
// of CRI lines, each line in the member logKey; a record whose "logtag"
// is P (the classic cri parser's, which does not join parts) is a part
// of the line the next records end.
func readFluentBitCRI(t *testing.T, path, logKey string) (recs []map[string]any, want []fluentBitLine) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	part := ""
	for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
		line := part + rec[logKey].(string)
		if part = ""; rec["logtag"] == "P" {
			part = line
			continue
		}
		if rec["stream"] == "stderr" {
			want = append(want, fluentBitLine{stderr: true})
			continue
		}
		want = append(want, nginxMainLine(t, line))
	}
	return recs, want
}

// nginxMainLine splits by hand an nginx line of the format main with
// $request_time $upstream_response_time after it.
func nginxMainLine(t *testing.T, line string) fluentBitLine {
	t.Helper()
	// REMOTE - - [TIME] "REQUEST" STATUS BYTES "REF" "UA" "XFF" RT URT
	at, err := time.Parse("02/Jan/2006:15:04:05 -0700", line[strings.IndexByte(line, '[')+1:strings.IndexByte(line, ']')])
	if err != nil {
		t.Fatal(err)
	}
	after := strings.Fields(line[strings.LastIndex(line, `HTTP/1.1"`)+len(`HTTP/1.1"`):])
	status, err := strconv.ParseInt(after[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := strconv.ParseFloat(after[len(after)-2], 64)
	if err != nil {
		t.Fatal(err)
	}
	return fluentBitLine{status: status, rt: rt, timeNS: at.UnixNano()}
}

// checkFluentBitRows compares the rows read of a file of Fluent Bit's
// records with what the records hold: a record of each stdout line, and
// the stderr ones (nginx's own error lines) passed over.
func checkFluentBitRows(t *testing.T, what string, rows []row, res *ingest.Result, want []fluentBitLine, env ingest.Envelope) {
	t.Helper()
	var requests []fluentBitLine
	stderr := int64(0)
	for _, w := range want {
		if w.stderr {
			stderr++
		} else {
			requests = append(requests, w)
		}
	}
	sort.Slice(requests, func(i, j int) bool { return requests[i].timeNS < requests[j].timeNS })
	f := res.Files[0]
	if f.Envelope != env || f.BadLines != 0 || f.PassedOver != stderr || len(rows) != len(requests) {
		t.Fatalf("%s: %d rows, %+v, %+v; want %d rows, %d passed over", what, len(rows), f, res.Problems, len(requests), stderr)
	}
	for i, r := range rows {
		w := requests[i]
		if !r.hasTime || r.timeNS != w.timeNS || r.status != w.status || r.rt != w.rt {
			t.Errorf("%s: row %d: %+v; want %+v", what, i, r, w)
		}
	}
}

// TestFluentBitCRI: Fluent Bit's record of a CRI line, as its tail
// input's cri multiline parser makes it ({"time":…,"stream":…,"_p":"F",
// "log":"LINE"}), holds a whole line, also when its _p is P (the record
// of a line the runtime cut, joined by Fluent Bit), as stored, and as a
// Loki line (out_loki's line_format json).
func TestFluentBitCRI(t *testing.T) {
	const path = "testdata/text/fluentbit-cri.log"
	recs, want := readFluentBitCRI(t, path, "log")
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	checkFluentBitRows(t, path, rows, res, want, ingest.EnvDocker)

	var b bytes.Buffer
	for _, rec := range recs {
		delete(rec, "kubernetes")
		line, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		writeJSONLine(t, &b, map[string]any{"labels": map[string]string{"job": "fluent-bit"}, "line": string(line), "timestamp": rec["time"]})
	}
	loki := filepath.Join(t.TempDir(), "loki.jsonl")
	if err := os.WriteFile(loki, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res = collect(t, []string{loki}, ingest.Options{Workers: 1, MaxProblems: 10})
	checkFluentBitRows(t, "in Loki", rows, res, want, ingest.EnvLoki)
}

// TestFluentBitCRISources: logs of several formats in Fluent Bit's
// records of CRI lines give the records they give alone, whatever the
// workers and wherever the blocks cut the file.
func TestFluentBitCRISources(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"../testdata/shared/examples/tokenhub-sample.jsonl", "../testdata/shared/real/ingress-nginx-upstreaminfo.log", "testdata/text/envoy-default.log"} {
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for i, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
			tag := "F"
			if i%5 == 2 {
				tag = "P" // a line cut by the runtime, joined by Fluent Bit: its first part's tag
			}
			writeJSONLine(t, &b, map[string]any{"time": stampAt(i), "stream": "stdout", "_p": tag, "log": l,
				"kubernetes": map[string]any{"pod_name": "gw-0", "labels": map[string]string{"app": "gw"}}})
		}
		path := filepath.Join(dir, filepath.Base(src))
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		want, base := encodedRun(t, src, ingest.Options{Workers: 1, MaxProblems: 1000})
		for _, workers := range []int{1, 3} {
			for _, block := range []int{0, 1000} {
				got, res := encodedRun(t, path, ingest.WithBlockSize(ingest.Options{Workers: workers, MaxProblems: 1000}, block))
				f0, f := base.Files[0], res.Files[0]
				if f0.Records == 0 || f.Envelope != ingest.EnvDocker || f.Format != f0.Format || f.Source != f0.Source ||
					f.Records != f0.Records || f.BadLines != f0.BadLines {
					t.Fatalf("%s, %d workers, blocks of %d: read as %+v, alone %+v", src, workers, block, f, f0)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s, %d workers, blocks of %d: the accumulator differs from the log's alone", src, workers, block)
				}
			}
		}
	}
}

// TestLokiDockerCut: a Docker record in a Loki line that is the first
// part of a line whose end is not in the file is a bad line, as it is
// outside Loki.
func TestLokiDockerCut(t *testing.T) {
	var b bytes.Buffer
	parts := []string{`{"request_time":0.5,"status":200}` + "\n", `{"request_time":0.25,`}
	for i, p := range parts {
		rec, err := json.Marshal(map[string]string{"log": p, "stream": "stdout", "time": stampAt(i)})
		if err != nil {
			t.Fatal(err)
		}
		writeJSONLine(t, &b, map[string]any{"labels": map[string]string{"job": "gw"}, "line": string(rec), "timestamp": stampAt(i)})
	}
	path := filepath.Join(t.TempDir(), "loki.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	if f := res.Files[0]; len(rows) != 1 || f.Envelope != ingest.EnvLoki || f.BadLines != 1 ||
		len(res.Problems) != 1 || res.Problems[0].Line != 2 || !strings.Contains(res.Problems[0].Reason, "cut in parts") {
		t.Fatalf("%d rows, %+v, %+v", len(rows), f, res.Problems)
	}
}

// TestFluentBitHits: an Elasticsearch search's hits of Fluent Bit's
// records of a container's lines (its es output, the EFK stack), of a
// CRI log's or of Docker's, give the records of the lines they hold.
func TestFluentBitHits(t *testing.T) {
	recs, want := readFluentBitCRI(t, "testdata/text/fluentbit-cri.log", "log")
	dir := t.TempDir()
	for _, runtime := range []string{"cri", "docker"} {
		var hits []any
		for i, rec := range recs {
			src := map[string]any{"@timestamp": rec["time"]}
			for k, v := range rec {
				src[k] = v
			}
			if runtime == "docker" {
				delete(src, "_p")
				src["log"] = rec["log"].(string) + "\n"
			}
			hits = append(hits, map[string]any{"_index": "logstash-2026.12.04", "_id": fmt.Sprint(i), "_source": src})
		}
		doc, err := json.MarshalIndent(map[string]any{"took": 3, "timed_out": false, "hits": map[string]any{"total": map[string]any{"value": len(hits)}, "hits": hits}}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, runtime+".json")
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		rows, res := collect(t, []string{path}, ingest.Options{Workers: 2, MaxProblems: 10})
		checkFluentBitRows(t, runtime+" hits", rows, res, want, ingest.EnvDocker)
	}
}

// TestFluentBitCRIClassic: Fluent Bit's record of a CRI line read by the
// cri parser of its parsers.conf ({"time":…,"stream":…,"logtag":"F",
// "message":"LINE"}) holds the line; a line cut in parts (logtag P, then
// F) is joined; the time of Fluent Bit's JSON output (date) is the
// record's when the parser dropped "time" and the line has none.
func TestFluentBitCRIClassic(t *testing.T) {
	const path = "testdata/text/fluentbit-cri-classic.log"
	_, want := readFluentBitCRI(t, path, "message")
	for _, workers := range []int{1, 2} {
		for _, block := range []int{0, 700} {
			rows, res := collect(t, []string{path}, ingest.WithBlockSize(ingest.Options{Workers: workers, MaxProblems: 10}, block))
			checkFluentBitRows(t, fmt.Sprintf("%s, %d workers, blocks of %d", path, workers, block), rows, res, want, ingest.EnvDocker)
		}
	}
	dated := `{"date":1796349601.125,"stream":"stdout","logtag":"F","message":"{\"request_time\":0.5,\"status\":200,\"uri\":\"/v1/chat/completions\"}"}` + "\n"
	dpath := filepath.Join(t.TempDir(), "dated.log")
	if err := os.WriteFile(dpath, []byte(dated), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{dpath}, ingest.Options{Workers: 1, MaxProblems: 10})
	if len(rows) != 1 || res.Files[0].Envelope != ingest.EnvDocker || !rows[0].hasTime || rows[0].timeNS != 1796349601125e6 || rows[0].rt != 0.5 {
		t.Fatalf("%+v, %+v, %+v", rows, res.Files, res.Problems)
	}
}

// TestFluentBitFile: the lines of Fluent Bit's file output in its
// default format, "TAG: [TIME, RECORD]" (nine decimals since v2.0, six
// before), give the records of the lines they hold, as Fluent Bit's
// record of a line ({"log":"LINE"}), and of the records a parser made,
// TIME their time when they have none.
func TestFluentBitFile(t *testing.T) {
	const path = "testdata/text/fluentbit-outfile.log"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []fluentBitLine
	for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		rec := l[strings.Index(l, ", {")+2 : len(l)-1]
		var r struct{ Log string }
		if err := json.Unmarshal([]byte(rec), &r); err != nil {
			t.Fatal(err)
		}
		want = append(want, nginxMainLine(t, r.Log))
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 2, MaxProblems: 10})
	checkFluentBitRows(t, path, rows, res, want, ingest.EnvStamped)

	parsed := `kube.var.log.containers.gw-0_ai-gw_nginx-0123.log: [1796349601.125000000, {"request_time":"0.188","status":"200","uri":"/v1/chat/completions"}]` + "\n" +
		`kube.var.log.containers.gw-0_ai-gw_nginx-0123.log: [1796349609.301000, {"request_time":"2.5","status":"504","uri":"/v1/chat/completions"}]` + "\n"
	ppath := filepath.Join(t.TempDir(), "parsed.log")
	if err := os.WriteFile(ppath, []byte(parsed), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res = collect(t, []string{ppath}, ingest.Options{Workers: 1, MaxProblems: 10})
	wantNS := []int64{1796349601125e6, 1796349609301e6}
	if len(rows) != 2 || res.Files[0].Envelope != ingest.EnvStamped || res.Files[0].BadLines != 0 {
		t.Fatalf("%+v, %+v, %+v", rows, res.Files, res.Problems)
	}
	for i, r := range rows {
		if !r.hasTime || r.timeNS != wantNS[i] {
			t.Errorf("parsed row %d: time %d (%v), want %d", i, r.timeNS, r.hasTime, wantNS[i])
		}
	}
}

// TestSyslogISOTime: a JSON line without a time of its own behind an RFC
// 3164 header with an RFC 3339 time (journalctl -o short-iso's +0800 or
// +08:00, rsyslog's RSYSLOG_FileFormat) takes the header's time; behind
// journalctl -o short-precise's, which has no year, it has none.
func TestSyslogISOTime(t *testing.T) {
	const rec = `{"request_time":%s,"status":200,"uri":"/v1/chat/completions"}`
	lines := "2026-12-04T10:00:01+0800 gw-1 nginx[812]: " + fmt.Sprintf(rec, "0.5") + "\n" +
		"2026-12-04T10:00:02.250000+08:00 gw-1 nginx: " + fmt.Sprintf(rec, "0.25") + "\n" +
		"Dec 04 10:00:03.125000 gw-1 nginx[812]: " + fmt.Sprintf(rec, "0.75") + "\n"
	path := filepath.Join(t.TempDir(), "syslog.log")
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	if len(rows) != 3 || res.Files[0].Envelope != ingest.EnvSyslog || res.Files[0].BadLines != 0 {
		t.Fatalf("%+v, %+v, %+v", rows, res.Files, res.Problems)
	}
	want := map[float64]int64{
		0.5:  time.Date(2026, 12, 4, 2, 0, 1, 0, time.UTC).UnixNano(),
		0.25: time.Date(2026, 12, 4, 2, 0, 2, 250e6, time.UTC).UnixNano(),
	}
	checkTimesByRT(t, "syslog", rows, want)
}

// TestFluentdOutFileNone: Fluentd's out_file lines of the records its
// in_tail made with the none parser ("TIME⇥TAG⇥{"message":"LINE"}"),
// give the records of the lines they hold.
func TestFluentdOutFileNone(t *testing.T) {
	const path = "testdata/text/fluentd-outfile-none.log"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []fluentBitLine
	for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		var r struct{ Message string }
		if err := json.Unmarshal([]byte(strings.SplitN(l, "\t", 3)[2]), &r); err != nil {
			t.Fatal(err)
		}
		want = append(want, nginxMainLine(t, r.Message))
	}
	for _, workers := range []int{1, 2} {
		rows, res := collect(t, []string{path}, ingest.Options{Workers: workers, MaxProblems: 10})
		checkFluentBitRows(t, path, rows, res, want, ingest.EnvStamped)
	}
	// A JSON log's own record of a message alone is no Fluentd record.
	lone := filepath.Join(t.TempDir(), "lone.jsonl")
	if err := os.WriteFile(lone, []byte(`{"message":"10.0.1.3 - - [04/Dec/2026:10:00:01 +0800] \"POST /v1/chat/completions HTTP/1.1\" 200 7204 \"-\" \"python-httpx/0.27.0\" \"-\" 0.188 0.186"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, res := collect(t, []string{lone}, ingest.Options{Workers: 1}); res.Files[0].Envelope != ingest.NoEnvelope {
		t.Errorf("a message alone read in %q", res.Files[0].Envelope)
	}
}
