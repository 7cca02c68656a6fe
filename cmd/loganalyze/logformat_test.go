package main

import (
	"bytes"
	"loganalyze/internal/sharedtest"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// repoShared returns the shared sample folder beside the repository root.
func repoShared(t *testing.T) string { return sharedtest.Dir(t) }

// A --log-format that cannot be compiled is bad usage, named before any
// input is read.
func TestBadLogFormatIsUsage(t *testing.T) {
	for format, msg := range map[string]string{
		`$remote_addr$status`:             "--log-format: $remote_addr and $status are not separated",
		`%ci [%tr] %Tx %ST`:               `--log-format: "%ci [%tr] %Tx %ST": %Tx at column 11 is not an alias of HAProxy's log-format`,
		`%ci %HM%HU %ST %Ta`:              `--log-format: "%ci %HM%HU %ST %Ta": %HM and %HU are not separated by any text`,
		`%(h)s %(t)s "%(r)s" %(s)s %(x)s`: `--log-format: "%(h)s %(t)s \"%(r)s\" %(s)s %(x)s": %(x)s at column 27 is not one of gunicorn's atoms`,
		`%(h)s %(s)s %D`:                  `--log-format: "%(h)s %(s)s %D": the % at column 13 starts no atom`,
		`:method :url :status :resp-time`: `--log-format: ":method :url :status :resp-time": :resp-time at column 22 is not one of morgan's tokens`,
		`combind`:                         `--log-format: "combind" has no $variable, gunicorn atom, HAProxy alias, Envoy operator, Apache directive or morgan token and is not a known format name`,
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"--log-format", format, "does-not-exist.log"}, nil, &stdout, &stderr, time.Now)
		if code != exitUsage || !strings.Contains(stderr.String(), msg) {
			t.Errorf("--log-format %q: exit %d, stderr %q; want %d and %q", format, code, stderr.String(), exitUsage, msg)
		}
	}
}

// A known format's name is accepted and used.
func TestNamedLogFormat(t *testing.T) {
	path := filepath.Join(repoShared(t), "real", "ingress-nginx-upstreaminfo.log")
	rep := reportOf(t, "--log-format", "upstreaminfo", "--json", "-", path)
	if rep.Input.Records != 29 || rep.Input.BadLines != 0 {
		t.Errorf("%d records, %d bad lines; want 29 and 0", rep.Input.Records, rep.Input.BadLines)
	}
}

// --log-format is repeatable: every value is checked before any input is
// read, and each file is read with the format its lines follow.
func TestRepeatedLogFormat(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"--log-format", "combined", "--log-format", "$request_time$status", "does-not-exist.log"}, nil, &stdout, &stderr, time.Now)
	if code != exitUsage || !strings.Contains(stderr.String(), "--log-format: $request_time and $status are not separated") {
		t.Errorf("exit %d, stderr %q; want %d naming the second format", code, stderr.String(), exitUsage)
	}

	dir := t.TempDir()
	a := filepath.Join(dir, "a.log")
	b := filepath.Join(dir, "b.log")
	if err := os.WriteFile(a, []byte("rt=0.500 st=200\nrt=0.250 st=429\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("200|1.5\n504|60\n503|0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := reportOf(t, "--log-format", "rt=$request_time st=$status", "--log-format", "$status|$request_time", "--json", "-", a, b)
	if rep.Input.Records != 5 || rep.Input.BadLines != 0 || rep.Status["504"] != 1 || rep.Status["429"] != 1 {
		t.Errorf("%d records, %d bad lines, status %v; want 5, 0, one 504 and one 429", rep.Input.Records, rep.Input.BadLines, rep.Status)
	}
}

// LTSV is read by --input-format ltsv whatever the file is called.
func TestInputFormatLTSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "access.log")
	if err := os.WriteFile(path, []byte("status:200\treqtime:0.100\nstatus:500\treqtime:0.200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := reportOf(t, "--input-format", "ltsv", "--json", "-", path)
	if f := rep.Input.Files; len(f) != 1 || f[0].Format != "ltsv" || f[0].Records != 2 {
		t.Errorf("files %+v, want one ltsv file of 2 records", f)
	}
}

// An HAProxy log-format given with --log-format: testdata/haproxy-custom.log
// is read with it, behind its syslog headers, its source named haproxy;
// the request times are the lines' Ta in ms (a "+" one, option logasap,
// absent), worked out here from the lines' timers, and --map reads a
// sample expression's column.
func TestHAProxyLogFormat(t *testing.T) {
	const format = `%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %tsc %{+Q}r %ID %[capture.req.hdr(0)]`
	path := filepath.Join("testdata", "haproxy-custom.log")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The oracle: each request line's five timers and status, Ta the
	// last timer.
	timers := regexp.MustCompile(` -?\d+/-?\d+/-?\d+/-?\d+/(\+?-?\d+) (-?\d+) `)
	var requests, timed int64
	var sumMS, maxMS float64
	status := map[string]int64{}
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		m := timers.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		requests++
		status[m[2]]++
		if ta, err := strconv.ParseFloat(m[1], 64); err == nil && !strings.HasPrefix(m[1], "+") && ta >= 0 {
			timed++
			sumMS += ta
			maxMS = max(maxMS, ta)
		}
	}
	if requests != 6 || timed != 5 {
		t.Fatalf("the oracle finds %d requests, %d timed; the fixture has 6 and 5", requests, timed)
	}

	rep := reportOf(t, "--tz", "UTC", "--log-format", format, "--map", "host=capture.req.hdr(0)", "--json", "-", path)
	in := rep.Input
	if in.Records != requests || in.BadLines != 0 || len(in.Files) != 1 || in.Files[0].Source != "haproxy" || in.Files[0].PassedOver != 1 {
		t.Errorf("%d records, %d bad lines, files %+v; want %d, 0, one of source haproxy with one line passed over (the proxy's start)", in.Records, in.BadLines, in.Files, requests)
	}
	all := rep.Latency.RequestTime.All
	if all.Count != timed || all.MaxMS != maxMS || math.Abs(all.MeanMS-sumMS/float64(timed)) > 0.05 {
		t.Errorf("request_time: %d timed, mean %v ms, max %v ms; want %d, %v, %v", all.Count, all.MeanMS, all.MaxMS, timed, sumMS/float64(timed), maxMS)
	}
	if !maps.Equal(rep.Status, status) {
		t.Errorf("status %v, want %v", rep.Status, status)
	}
	// The first request's %tr, 29/Nov/2026:10:00:01.100, in UTC; the
	// host of the five lines whose capture is not "-".
	if rep.Window.From != "2026-11-29T10:00:01.1Z" || in.Fields["host"] != 5 {
		t.Errorf("window from %q, %d hosts; want 2026-11-29T10:00:01.1Z and 5", rep.Window.From, in.Fields["host"])
	}
}

// TestAppServerLogs reads the access logs of Python and Node.js app
// servers end to end, as a user would: gunicorn's with its
// access_log_format given (timed with %(L)s, and its default, which has
// no request time), morgan's dev and uvicorn's without a flag. The
// oracle reads each fixture's request times from its lines: the last
// field of gunicorn's (s), the number before " ms" of morgan's (ms).
func TestAppServerLogs(t *testing.T) {
	const gunicornDefault = `%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"`
	tests := []struct {
		file, format string
		times        *regexp.Regexp // the request time, group 1
		unitMS       float64        // ms per unit of the times
		source       string
		records, bad int64
		verdict      string
	}{
		{"gunicorn-timed.log", gunicornDefault + ` %(L)s`, regexp.MustCompile(`" (\d+\.\d{6})$`), 1e3, "gunicorn", 6, 0, ""}, // its error log's start lines passed over
		{"gunicorn-default.log", gunicornDefault, nil, 0, "gunicorn", 6, 0, "no_data"},
		{"morgan-dev.log", "", regexp.MustCompile(` (\d+\.\d{3}) ms - `), 1, "morgan", 6, 1, ""},
		{"uvicorn.log", "", nil, 0, "uvicorn", 4, 0, "no_data"}, // its start messages passed over
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			var count int64
			var sumMS, maxMS float64
			if tc.times != nil {
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
					if m := tc.times.FindStringSubmatch(l); m != nil {
						v, _ := strconv.ParseFloat(m[1], 64)
						count++
						sumMS += v * tc.unitMS
						maxMS = max(maxMS, v*tc.unitMS)
					}
				}
				if count == 0 {
					t.Fatal("the oracle finds no request time")
				}
			}
			args := []string{"--tz", "UTC", "--json", "-", path}
			if tc.format != "" {
				args = append([]string{"--log-format", tc.format}, args...)
			}
			rep := reportOf(t, args...)
			in := rep.Input
			if in.Records != tc.records || in.BadLines != tc.bad || len(in.Files) != 1 || in.Files[0].Source != tc.source {
				t.Errorf("%d records, %d bad lines, files %+v; want %d, %d, source %s", in.Records, in.BadLines, in.Files, tc.records, tc.bad, tc.source)
			}
			if tc.verdict != "" {
				if rep.Verdict != tc.verdict || len(rep.Reason.Files) != 1 || !strings.Contains(rep.Reason.Files[0].Why, "without request_time") {
					t.Errorf("verdict %q, reason %+v; want %s, the file without request_time", rep.Verdict, rep.Reason, tc.verdict)
				}
				return
			}
			all := rep.Latency.RequestTime.All
			if rep.Verdict == "no_data" || all.Count != count || math.Abs(all.MaxMS-maxMS) > 1e-6 || math.Abs(all.MeanMS-sumMS/float64(count)) > 0.05 {
				t.Errorf("verdict %s, request_time: %d timed, mean %v ms, max %v ms; want %d, %v, %v",
					rep.Verdict, all.Count, all.MeanMS, all.MaxMS, count, sumMS/float64(count), maxMS)
			}
		})
	}
}

// An HAProxy log-format that encodes its line as JSON (%{+json}o) is
// no usage error: its lines are read as JSON lines, each member by its
// item's alias (%(time_active)Ta the request time, in ms).
func TestHAProxyJSONLogFormat(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "haproxy.log")
	var b strings.Builder
	for i := range 10 {
		b.WriteString(`{"client_ip":"192.0.2.7","request_date":"20/Nov/2026:10:00:0` + strconv.Itoa(i) + `.464","time_active":` + strconv.Itoa(1000+100*i) + `,"status_code":200}` + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := reportOf(t, "--tz", "UTC", "--log-format", "%{+json}o %(client_ip)ci %(request_date)tr %(time_active)Ta %(status_code)ST", "--json", "-", path)
	if rep.Input.Records != 10 || rep.Input.BadLines != 0 || rep.Verdict == "no_data" {
		t.Errorf("%d records, %d bad lines, verdict %s; want 10, 0, judged", rep.Input.Records, rep.Input.BadLines, rep.Verdict)
	}
}
