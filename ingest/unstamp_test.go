package ingest_test

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestKubectlTimestampsAnyLog: a program's log as kubectl logs prints
// it, each line behind the time the runtime took it (--timestamps: RFC
// 3339, ns, UTC, and a space; an empty line as the time and the space),
// behind its source (--prefix: "[pod/NAME/CONTAINER] "), or both, and as
// docker compose logs prints it (behind "SERVICE  | ", the time after it
// with --timestamps, in colour or not), reads
// as the program's own file: the same records, each with its own time,
// status, request time and caller; a record whose line has no time of
// its own (Fiber's default, ASP.NET Core's console) takes kubectl's, the
// time its line was written. Before, the programs' logs up to Squid's
// read no record (or, Squid's, wrong times) behind kubectl's time, zap's
// console lines, agentgateway's and one-hub's as tables of no known
// field, Fiber's as bad lines, lograge's behind Ruby's Logger and ASP.NET
// Core's console lines as no known format; and no log read behind
// kubectl's source.
func TestKubectlTimestampsAnyLog(t *testing.T) {
	for _, name := range []string{
		"fiber-default.log", "agentgateway.log", "one-hub.log", "ginzap-development.log",
		"lograge-rubylogger.log", "aspnetcore-console.log", "koa.log", "hono.log",
		// W3C logs, read as their own files are: their directives say
		// their fields.
		"iis.log", "cloudfront.log", "aspnetcore-w3c.log",
		// Squid's line begins with its own epoch time: kubectl's before it
		// was read as Squid's, and Squid's as the elapsed ms.
		"squid.log",
		// Behind kubectl's source, formats read behind its time alone
		// before, and JSON lines.
		"envoy-default.log", "uvicorn-fastchat.log", "../sources/pino.jsonl", "../sources/tgi.jsonl",
		// Text formats whose lines begin with neither '[' nor a digit
		// (TestKubectlTimestamps's). morgan's tiny lines behind the
		// source and the time were read by morgan's format as they were,
		// the source its method and the status unread.
		"uvicorn.log", "uvicorn-vllm-router.log", "smg.log", "phoenix-console.log", "llama-server.log",
		"morgan-dev.log", "morgan-tiny.log", "ray-serve.log", "fiber-classic.log",
		// Lines that begin with their own RFC 3339 time: behind a source
		// alone (--prefix, compose without --timestamps) it was taken for
		// kubectl's, tower-http's 1 request read of 7.
		"tower-http.log", "tensorzero-debug.log", "rails-tagged.log",
		// Start-up lines past the first lines read (Ollama's 400): behind a
		// source, no known format before.
		"gin-ollama-load.log",
	} {
		plain := filepath.Join("testdata/text", name)
		raw, err := os.ReadFile(plain)
		if err != nil {
			t.Fatal(err)
		}
		opts := ingest.Options{Workers: 2, MaxProblems: 10}
		want, wres := collect(t, []string{plain}, opts)
		if len(want) == 0 {
			t.Fatalf("%s: no record in the file itself", name)
		}
		byRT := func(rs []row) {
			slices.SortStableFunc(rs, func(a, b row) int { return cmp.Compare(a.rt, b.rt) })
		}
		byRT(want)
		// kubectl's time (--timestamps), its source and time (--prefix
		// --timestamps), its source alone (--prefix); docker compose
		// logs' service, in colour with the time (--timestamps) and
		// without; stern's pod and container, in colour, and with the
		// namespace before them.
		for _, wrap := range []struct {
			prefix, compose, stamp bool
			stern                  int
		}{{false, false, true, 0}, {true, false, true, 0}, {true, false, false, 0}, {false, true, false, 0}, {false, true, true, 0},
			{false, false, false, 2}, {false, false, true, 2}, {false, false, false, 3}} {
			var b strings.Builder
			stamps := map[int64]bool{}
			for i, l := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
				if wrap.prefix {
					fmt.Fprintf(&b, "[pod/gw-%d/gateway] ", i%2)
				}
				if wrap.compose && wrap.stamp {
					b.WriteString("\x1b[36mgateway-1  |\x1b[0m ")
				} else if wrap.compose {
					b.WriteString("gateway-1  | ")
				}
				switch pod := []string{"gateway-7d9f8b6c5-x2k9p", "gateway-7d9f8b6c5-q7w4z"}[i%2]; {
				case wrap.stern == 2 && wrap.stamp: // stern --timestamps, on a terminal
					fmt.Fprintf(&b, "\x1b[32m%s\x1b[0m \x1b[33mgateway\x1b[0m ", pod)
				case wrap.stern == 2:
					fmt.Fprintf(&b, "%s gateway ", pod)
				case wrap.stern == 3:
					fmt.Fprintf(&b, "prod %s gateway ", pod)
				}
				if wrap.stamp {
					at := time.Date(2026, 12, 5, 10, i/60%60, i%60, 123456789-i, time.UTC)
					stamps[at.UnixNano()] = true
					b.WriteString(at.Format(time.RFC3339Nano) + " ")
				}
				b.WriteString(l + "\n")
			}
			wrapped := filepath.Join(t.TempDir(), filepath.Base(name))
			if err := os.WriteFile(wrapped, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, stdin := range []bool{false, true} {
				o, paths := opts, []string{wrapped}
				if stdin {
					o.Stdin, paths = strings.NewReader(b.String()), []string{"-"}
				}
				got, res := collect(t, paths, o)
				f, wf := res.Files[0], wres.Files[0]
				if f.BadLines != wf.BadLines || f.PassedOver != wf.PassedOver || f.Source != wf.Source || len(got) != len(want) {
					t.Errorf("%s (%+v, stdin %v): %d records, %+v\nwant as the file's: %d, %+v", name, wrap, stdin, len(got), f, len(want), wf)
					continue
				}
				byRT(got)
				for i, g := range got {
					w := want[i]
					if !w.hasTime && wrap.stamp { // kubectl's time (or stern's), one of the lines'
						if !g.hasTime || !stamps[g.timeNS] {
							t.Errorf("%s (%+v, stdin %v): record %d has no time of kubectl's: %+v", name, wrap, stdin, i, g)
						}
						g.timeNS, g.hasTime = w.timeNS, w.hasTime
					}
					if fmt.Sprintf("%+v", g) != fmt.Sprintf("%+v", w) { // NaN for an absent value: equal as text
						t.Errorf("%s (%+v, stdin %v): record %d\n%+v\nwant the file's\n%+v", name, wrap, stdin, i, g, w)
					}
				}
			}
		}
	}
}

// TestKubectlSourceOwnLines: a server's log of its own lines alone
// (Envoy's, Apache's error log) behind kubectl's source or docker
// compose's service is read as its own file is: its lines the server's
// own, passed over, the server named; before, it was refused as a text
// log in a format of its own whose log_format must be given.
func TestKubectlSourceOwnLines(t *testing.T) {
	for _, name := range []string{"envoy-own.log", "apache-error.log"} {
		plain := filepath.Join("testdata/text", name)
		raw, err := os.ReadFile(plain)
		if err != nil {
			t.Fatal(err)
		}
		_, wres := collect(t, []string{plain}, ingest.Options{Workers: 1})
		wf := wres.Files[0]
		if wf.Source == "" || wf.PassedOver == 0 || wf.Incomplete {
			t.Fatalf("%s: the file itself: %+v, want its source and its lines passed over", name, wf)
		}
		for _, prefix := range []string{"[pod/gw-0/proxy] ", "proxy-1  | "} {
			var b strings.Builder
			for _, l := range strings.SplitAfter(string(raw), "\n") {
				if l != "" {
					b.WriteString(prefix + l)
				}
			}
			wrapped := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(wrapped, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			_, res := collect(t, []string{wrapped}, ingest.Options{Workers: 1})
			f := res.Files[0]
			if f.Source != wf.Source || f.Reason != wf.Reason || f.Incomplete || f.PassedOver != wf.PassedOver || f.BadLines != wf.BadLines || res.Records() != 0 {
				t.Errorf("%s behind %q: source %q, %d passed over, %d bad, reason %q\nwant the file's: %q, %d, %d, %q",
					name, prefix, f.Source, f.PassedOver, f.BadLines, f.Reason, wf.Source, wf.PassedOver, wf.BadLines, wf.Reason)
			}
		}
	}
}

// TestSternShortLog: three JSON lines of two replicas behind stern's
// names are read as their own file is; before, two pods' names on three
// lines were not taken for stern's (they did not repeat enough), and
// the lines were a CSV of no known field.
func TestSternShortLog(t *testing.T) {
	raw, err := os.ReadFile("testdata/sources/envoy.json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")[:3]
	plain := writeTemp(t, "envoy.json", strings.Join(lines, ""))
	want, wres := collect(t, []string{plain}, ingest.Options{Workers: 1})
	if len(want) != 3 {
		t.Fatalf("the file itself: %d records, want 3", len(want))
	}
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "gw-7d9f8b6c5-%s istio-proxy %s", []string{"x2k9p", "q7w4z"}[i%2], l)
	}
	got, res := collect(t, []string{writeTemp(t, "stern.log", b.String())}, ingest.Options{Workers: 1})
	if f, wf := res.Files[0], wres.Files[0]; f.Source != wf.Source || f.BadLines != 0 || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Errorf("behind stern's names: %+v, %+v\nwant the file's: %+v, %+v", f, got, wf, want)
	}
}
