package ingest

import (
	"strings"
	"testing"
	"time"
)

// ginDefaultLine is a line of Gin's default formatter (gin.defaultLogFormatter:
// "[GIN] %v |%s %3d %s| %13v | %15s |%s %-7s %s %#v"), without colour.
const ginDefaultLine = `[GIN] 2026/12/04 - 10:00:01 | 200 |    6.210452s |        10.1.1.1 | POST     "/v1/chat/completions"`

// dur is a Go duration's text in seconds, as time.ParseDuration reads it.
func dur(t *testing.T, s string) float64 {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d.Seconds()
}

func TestGinParse(t *testing.T) {
	// 2026/12/04 10:00:01 in textConfig's zone, +08:00.
	t0 := time.Date(2026, 12, 4, 10, 0, 1, 0, time.FixedZone("+08", 8*3600)).UnixNano()
	base := []textWant{{f: FTime, ns: t0}, {f: FStatus, num: 200}, {f: FRequestTime, num: dur(t, "6.210452s")},
		{f: FRemoteAddr, text: "10.1.1.1"}, {f: FClient, text: "10.1.1.1"}, {f: FMethod, text: "POST"},
		{f: FURI, text: "/v1/chat/completions"}}
	set := func(ws []textWant, repl ...textWant) []textWant {
		out := append([]textWant(nil), ws...)
		for _, r := range repl {
			for i := range out {
				if out[i].f == r.f {
					out[i] = r
				}
			}
		}
		return out
	}
	const esc = "\x1b"
	tests := []struct {
		name, line string
		want       []textWant
		err        string
	}{
		{name: "Gin's default", line: ginDefaultLine, want: base},
		{name: "coloured", line: `[GIN] 2026/12/04 - 10:00:01 |` + esc + `[97;42m 200 ` + esc + `[0m|    6.210452s |        10.1.1.1 |` +
			esc + `[97;46m POST    ` + esc + `[0m "/v1/chat/completions"`, want: base},
		{name: "before Gin 1.7: the path unquoted", line: `[GIN] 2026/12/04 - 10:00:01 | 200 |    6.210452s |        10.1.1.1 | POST     /v1/chat/completions`, want: base},
		{name: "one-api and new-api: a request id", line: `[GIN] 2026/12/04 - 10:00:01 | 2026120410000123456789 | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat/completions`, want: base},
		{name: "new-api: client_ip=", line: `[GIN] 2026/12/04 - 10:00:01 | 2026120410000123456789 | 200 |    6.210452s | client_ip=10.1.1.1 |    POST /v1/chat/completions`, want: base},
		{name: "a fork's token after the client", line: `[GIN] 2026/12/04 10:00:01 | abc | 200 |    6.210452s |        10.1.1.1 | team-a(12) |    POST /v1/chat/completions`, want: base},
		// new-api's route tag before its request id
		// (middleware/logger.go, RouteTag), its web routes' without an id.
		{name: "new-api: a route's tag", line: `[GIN] 2026/12/04 - 10:00:01 | relay | 2026120410000123456789 | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat/completions`, want: base},
		{name: "new-api: the web tag, no request id", line: `[GIN] 2026/12/04 - 10:00:01 | web |  | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat/completions`, want: base},
		// sealos aiproxy's model after the request id (%15s).
		{name: "aiproxy: the model", line: `[GIN] 2026/12/04 - 10:00:01 | 2026120410000123456789 |          gpt-4o | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat/completions`, want: base},
		{name: "three fields before the status", line: `[GIN] 2026/12/04 - 10:00:01 | relay | 2026120410000123456789 | gpt-4o | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat/completions`, err: "cut short"},
		{name: "an empty request id", line: `[GIN] 2026/12/04 - 10:00:01 |  | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat/completions`, want: base},
		{name: "journald's prefix", line: `Dec 04 10:00:01 gpu-1 ollama[1234]: ` + ginDefaultLine, want: base},
		{name: "a container runtime's prefix", line: `2026-12-04T02:00:01.123456789Z stdout F ` + ginDefaultLine, want: base},
		{name: "microseconds", line: strings.Replace(ginDefaultLine, "6.210452s", "980.5µs", 1), want: set(base, textWant{f: FRequestTime, num: dur(t, "980.5µs")})},
		{name: "over a minute, truncated", line: strings.Replace(ginDefaultLine, "6.210452s", "1m2s", 1), want: set(base, textWant{f: FRequestTime, num: 62})},
		{name: "a query with a bar", line: strings.Replace(ginDefaultLine, `"/v1/chat/completions"`, `"/v1/chat/completions?a=b|c"`, 1),
			want: set(base, textWant{f: FURI, text: "/v1/chat/completions?a=b|c"})},
		{name: "a path with escapes", line: strings.Replace(ginDefaultLine, `"/v1/chat/completions"`, `"/v1/chat/\"x\""`, 1), want: set(base, textWant{f: FURI, text: `/v1/chat/"x"`})},
		{name: "new-api's unknown client", line: `[GIN] 2026/12/04 - 10:00:01 | r1 | 200 |    6.210452s | client_ip=unknown |    POST /v1/chat/completions`,
			want: wantsWithout(base, FRemoteAddr, FClient)},
		{name: "a fraction of a second", line: strings.Replace(ginDefaultLine, "10:00:01", "10:00:01.250000", 1), want: set(base, textWant{f: FTime, ns: t0 + 250e6})},
		{name: "Gin's debug line", line: `[GIN-debug] POST   /v1/chat/completions --> main.chat (3 handlers)`, err: "a server's own log line"},
		{name: "the program's own message", line: `[SYS] 2026/12/04 - 10:00:00 | New API v0.6.1 started`, err: "a server's own log line"},
		{name: "one-api's logger's line", line: `[ERROR] 2026/12/04 - 10:00:01 | 2026120410000123456789 | relay/controller/text.go:95 [RelayTextHelper] do request failed`, err: "a server's own log line"},
		// KrakenD's loggers (krakendOwnLines): krakend-gologging's, its
		// INFO uncoloured, and lura's through Go's log.
		{name: "KrakenD's own line", line: "[KRAKEND] 2024/03/01 - 10:00:00.002 \x1b[36m▶ DEBUG\x1b[0m [SERVICE: Gin] Debug enabled", err: "a server's own log line"},
		{name: "KrakenD's own line, no prefix", line: " 2024/03/01 - 10:00:00.001 ▶ INFO\x1b[0m Starting KrakenD v2.7.0", err: "a server's own log line"},
		{name: "KrakenD's through lura's logger", line: `2024/03/01 10:00:00 KRAKEND INFO: [SERVICE: Gin] Listening on port: 8080`, err: "a server's own log line"},
		{name: "a level without Gin's date", line: `[INFO] 2026-12-04 10:00:00 started`, err: "not a Gin request line"},
		{name: "an error after a request", line: `Error #01: context canceled`, err: "not a Gin request line"},
		{name: "no status", line: `[GIN] 2026/12/04 - 10:00:01 | abc | def |    6.210452s |        10.1.1.1 | POST "/"`, err: "cut short"},
		{name: "cut after the latency", line: `[GIN] 2026/12/04 - 10:00:01 | 200 |    6.210452s`, err: "cut short"},
		{name: "no method", line: `[GIN] 2026/12/04 - 10:00:01 | 200 |    6.210452s |        10.1.1.1 | "/v1/chat"`, err: "cut short"},
		{name: "a latency without its unit", line: strings.Replace(ginDefaultLine, "6.210452s", "6.210452", 1), err: "latency not a duration"},
		{name: "a negative latency", line: strings.Replace(ginDefaultLine, "6.210452s", "-5ms", 1), err: "request_time"},
		{name: "a date of another shape", line: strings.Replace(ginDefaultLine, "2026/12/04 - 10:00:01", "2026/12/04T10:00:01", 1), err: "date not"},
		{name: "an unreadable date", line: strings.Replace(ginDefaultLine, "10:00:01", "10:xx:01", 1), err: "time"},
		{name: "HAProxy", line: hapManualLine, err: "not a Gin request line"},
		{name: "garbage", line: "\x00[GIN] \xff|\x1b[", err: "not a Gin request line"},
	}
	c := textConfig(t, "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newGinParser(c)
			checkParse(t, p, tt.line, tt.want, tt.err)
		})
	}
}

// TestGinParseAllocatesNothing: a line is read without allocating once
// the parser is warm.
func TestGinParseAllocatesNothing(t *testing.T) {
	if n := parseAllocs(t, newGinParser(textConfig(t, "")), []byte(ginDefaultLine)); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
}

// TestGinMap: --map reads a column as it says; the latency is still
// the request's time, and a latency --map names is read as it says.
func TestGinMap(t *testing.T) {
	s, err := NewSchema([]string{"region=request_id"})
	if err != nil {
		t.Fatal(err)
	}
	p := newGinParser(&parserConfig{schema: s, loc: time.UTC})
	var r Record
	if err := p.Parse([]byte(`[GIN] 2026/12/04 - 10:00:01 | ap-tokyo | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat`), &r); err != nil {
		t.Fatal(err)
	}
	if got := string(r.Text(FRegion)); got != "ap-tokyo" {
		t.Errorf("region %q, want the request id column", got)
	}
	if got, _ := r.Float(FRequestTime); got != dur(t, "6.210452s") {
		t.Errorf("request_time %v, want the latency's", got)
	}
	// The request id after new-api's route tag, before aiproxy's model.
	for _, line := range []string{
		`[GIN] 2026/12/04 - 10:00:01 | relay | ap-tokyo | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat`,
		`[GIN] 2026/12/04 - 10:00:01 | ap-tokyo |          gpt-4o | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat`,
	} {
		r.Reset()
		if err := p.Parse([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if got := string(r.Text(FRegion)); got != "ap-tokyo" {
			t.Errorf("%s: region %q, want the request id", line, got)
		}
	}
	// A fork that writes the latency without its unit: the report's
	// hint, --map request_time=latency:ms, reads it.
	s, err = NewSchema([]string{"request_time=latency:ms"})
	if err != nil {
		t.Fatal(err)
	}
	p = newGinParser(&parserConfig{schema: s, loc: time.UTC})
	r.Reset()
	if err := p.Parse([]byte(`[GIN] 2026/12/04 - 10:00:01 | 200 | 6210 | 10.1.1.1 | POST /v1/chat`), &r); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Float(FRequestTime); got != 6.21 {
		t.Errorf("request_time %v s, want 6210 ms as mapped", got)
	}
}

// TestSniffGin: a Gin log is told by its request lines, after the
// server's start messages too; the other text formats are not taken for
// it.
func TestSniffGin(t *testing.T) {
	start := "[GIN-debug] [WARNING] Running in \"debug\" mode.\n[SYS] 2026/12/04 - 10:00:00 | New API started\n"
	ollamaStart := `2026/12/04 09:59:50 routes.go:1123: INFO server config env="map[OLLAMA_HOST:http://0.0.0.0:11434]"` + "\n" +
		strings.Repeat(`time=2026-12-04T09:59:50.520+08:00 level=INFO source=images.go:782 msg="total blobs: 12"`+"\n", 4) +
		strings.Repeat(`[GIN-debug] POST   /api/generate             --> github.com/ollama/ollama/server.(*Server).GenerateHandler-fm (5 handlers)`+"\n", 30) +
		strings.Repeat(`time=2026-12-04T09:59:50.521+08:00 level=INFO source=routes.go:1170 msg="Listening on [::]:11434 (version 0.5.1)"`+"\n", 5)
	// llama.cpp's lines while it loads a model, each format from its
	// sources (src/llama-model-loader.cpp, llama-model.cpp,
	// llama-vocab.cpp, llama-context.cpp): 260 lines.
	loader := strings.Repeat("llama_model_loader: - kv   0:                       general.architecture str              = llama\n", 30) +
		strings.Repeat("print_info: n_embd           = 3072\n", 50) +
		strings.Repeat("load: control token: 128255 '<|reserved_special_token_250|>' is not marked as EOG\n", 100) +
		strings.Repeat("load_tensors: layer  27 assigned to device CUDA0, is_swa = 0\n", 30) +
		strings.Repeat("llama_context: n_ctx         = 8192\n", 20) +
		strings.Repeat("load_hparams: Phi SWA is currently disabled - results might be suboptimal for some models (see https://github.com/ggml-org/llama.cpp/pull/13676)\n", 5) +
		strings.Repeat("load_all_data: no device found for buffer type CPU for async uploads\n", 5) +
		strings.Repeat("graph_reserve: reserving a graph for ubatch with n_tokens =  512, n_seqs =  1, n_outputs =  512\n", 10) +
		strings.Repeat("output_reserve: reallocating output buffer from size 0.50 MiB to 1.00 MiB\n", 5) +
		strings.Repeat("init_tokenizer: initializing tokenizer for type 2\n", 5)
	for _, c := range []struct {
		head string
		want Format
	}{
		{ginDefaultLine + "\n", Gin},
		{start + ginDefaultLine + "\n", Gin},
		// Ollama's start: its config, its slog lines, a [GIN-debug]
		// line for each of its routes, 40 lines before a request.
		{ollamaStart + ginDefaultLine + "\n", Gin},
		{hapManualLine + "\n", HAProxy},
		{`10.0.1.2 - - [06/Feb/2009:12:14:14 +0800] "GET / HTTP/1.1" 200 612 "-" "curl/8.0"` + "\n", Nginx},
		{`[be8874ccdedaed58] [29/Nov/2026:10:00:00 +0800] [HTTPS]` + "\n", CLB},
		{start, Nginx}, // no request among them: a text log of its own
		// Ollama loading a model before its first request's line:
		// llama.cpp's loader lines are not counted among the first ones.
		{ollamaStart + loader + ginDefaultLine + "\n", Gin},
		// KrakenD's start at DEBUG, a line for each endpoint and
		// backend: its own lines are not counted either.
		{strings.Repeat("[KRAKEND] 2024/03/01 - 10:00:00.003 \x1b[36m▶ DEBUG\x1b[0m [ENDPOINT: /v1/x] Building the proxy pipe\n", 250) + ginDefaultLine + "\n", Gin},
		// As many lines of no known shape: no Gin log's start.
		{strings.Repeat("model loading, please wait\n", 250) + ginDefaultLine + "\n", Nginx},
		// Loader lines alone, as many as the head holds: none is Gin's.
		{strings.Repeat(loader, 40), Nginx},
	} {
		if got := sniff([]byte(c.head), nil); got != c.want {
			t.Errorf("sniff(%.40q…) = %s, want %s", c.head, got, c.want)
		}
	}
}

// FuzzGin: any line is read or refused with a reason, never a panic; a
// line read split, and its time is its latency's.
func FuzzGin(f *testing.F) {
	f.Add(ginDefaultLine)
	f.Add(`DEBUG [log_server_request] request | method="POST" params={} path="/completion" remote_addr="127.0.0.1" remote_port=53512 status=200 tid="1" timestamp=1733878797`)
	f.Add(`time=2024-12-11T08:59:50.520+08:00 level=INFO source=images.go:782 msg="total blobs: 12"`)
	f.Add(`Dec 11 08:59:50 gpu-1 ollama[1543654]: 2024/12/11 08:59:50 routes.go:1123: INFO server config env="map[]"`)
	f.Add("Dec 11 08:59:50 gpu-1 ollama[1543654]:  - using env:\texport GIN_MODE=release")
	f.Add(`Dec 11 08:59:50 gpu-1 systemd[1]: Started ollama.service - Ollama Service.`)
	f.Add(`  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes`)
	f.Add(`panic: runtime error: invalid memory address or nil pointer dereference`)
	f.Add(`[SYS] 2024/06/01 - 10:00:00 | One API v0.6.10 started `)
	f.Add(`load_tensors: offloaded 29/29 layers to GPU`)
	f.Add(`set_abort_callback: call`)
	f.Add(`[ERROR] 2024/06/01 - 10:00:03 | 2024060110000312345678 | relay/controller/text.go:95 [RelayTextHelper] do request failed `)
	f.Add(`x [GIN] 2026/12/04 - 10:00:01 | | 999 | 9223372036s | client_ip= | a(1) | GET "\x"`)
	f.Add("[KRAKEND] 2024/03/01 - 10:00:00.003 \x1b[36m▶ DEBUG\x1b[0m [ENDPOINT: /v1/x] Building the proxy pipe")
	f.Add(`2024/03/01 10:01:00 Signal intercepted: terminated`)
	f.Add(`[GIN] 2025/01/01 - 10:00:00 | relay | 2025010110000012345678 | 200 |    1.2s |  1.2.3.4 |    POST /v1/chat/completions`)
	f.Add(`[GIN] 2025/01/01 - 10:00:00 | 2025010110000012345678 |          gpt-4o | 200 |    1.2s |  1.2.3.4 |    POST /v1/chat/completions`)
	f.Add("[GIN] 2026:12:04 - 10:00:01.666666 |\x1b[97;42m 200 \x1b[0m| 1h2m3.5s | ::1 |\x1b[97;46m OPTIONS\x1b[0m \"/|\"")
	c := textConfig(f, "")
	f.Fuzz(func(t *testing.T, line string) {
		p := newGinParser(c)
		var r Record
		err := p.Parse([]byte(line), &r)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a reason")
			}
			return
		}
		var q ginParser
		if q.split([]byte(line)) != nil {
			t.Fatal("read a line split refuses")
		}
		want, fl := unitDuration(q.vals[ginLatency])
		ok := fl == fine
		if got, has := r.Float(FRequestTime); !ok || !has || got != want || !(got >= 0 && got <= MaxDurationS) {
			t.Fatalf("request_time %v (%v), want the latency %q's %v", got, has, q.vals[ginLatency], want)
		}
		if !r.Has(FTime) || !r.Has(FStatus) {
			t.Fatal("a line read without its time or status")
		}
	})
}
