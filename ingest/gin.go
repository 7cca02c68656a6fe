package ingest

// Gin's request log: the lines the Gin web framework's Logger middleware
// writes for each request, which servers in front of and beside models
// keep (Ollama; one-api, new-api and their forks). Gin's default
// formatter (gin.defaultLogFormatter) writes
//
//	[GIN] 2026/12/04 - 10:00:01 | 200 |    6.210452s |        10.1.1.1 | POST     "/v1/chat/completions"
//
// the status and method between colour escapes when the output is a
// terminal (or colour is forced), the path quoted as a Go string (%#v;
// unquoted before Gin 1.7); one-api and new-api add their request id
// after the date,
//
//	[GIN] 2026/12/04 - 10:00:01 | 2026120410000123456789 | 200 |    6.210452s |        10.1.1.1 |    POST /v1/chat/completions
//
// new-api its route's tag before it, sealos's aiproxy the model after it
// (ginExtraFields), and recent new-api versions write the client as
// "client_ip=10.1.1.1".
// The latency is Go's time.Duration text ("6.210452s", "980µs",
// "1m2s"): the whole request as the handler served it. The date has no
// zone: the server's local time (--tz). Whatever precedes "[GIN] " (a
// container runtime's or journald's prefix) is skipped. The program's
// other lines are not requests: those of known shapes (ollamaOwn) are
// passed over, Gin's debug lines, Ollama's own, one-api's and new-api's
// logger's ([SYS], [INFO], [ERR] …) and KrakenD's among them; in Ollama's,
// its llama.cpp runner's request lines are passed over too
// (errRunnerRequest); any other (an error message after a request) is a
// bad line, with a reason that says so.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"loganalyze/internal/lazyre"
)

// The columns of a Gin request line.
const (
	ginDate = iota
	ginRequestID
	ginStatus
	ginLatency
	ginClient
	ginMethod
	ginPath
	ginColumns
)

// ginNames name the columns, for --map and the report's fields seen.
var ginNames = [ginColumns]string{"time", "request_id", "status", "latency", "client_ip", "method", "path"}

// ginOwn is how the columns are read unless --map names them.
var ginOwn = [ginColumns]Bindings{
	ginDate:    {{Field: FTime, Prio: prioSource}},
	ginStatus:  {{Field: FStatus, Prio: prioSource}},
	ginLatency: {{Field: FRequestTime, Prio: prioSource}}, // its text names its unit
	ginClient:  {{Field: FRemoteAddr, Prio: prioSource}},
	ginMethod:  {{Field: FMethod, Prio: prioSource}},
	ginPath:    {{Field: FURI, Prio: prioSource}},
}

var (
	errNotGin      = errors.New("not a Gin request line: the program's own message, not a request (want [GIN] date | status | latency | client | method path)")
	errGinFields   = errors.New("Gin request line cut short: want date | status | latency | client | method path")
	errGinDate     = errors.New("Gin date not yyyy/mm/dd - hh:mm:ss")
	errGinDuration = errors.New("Gin latency not a duration with its unit")
)

// errRunnerRequest is why the request line of the llama.cpp server that
// Ollama runs beside its Gin log is passed over: Ollama calls that server
// from 127.0.0.1 while it serves a request of its own API
// (ollama/ollama llm/server.go: POST /completion for /api/chat and
// /api/generate, /embedding for /api/embed, /tokenize and /detokenize
// to fit a prompt to the context), the server's output goes to Ollama's
// own stdout (cmd.Stdout = os.Stdout) as Gin's lines do, and the
// request it serves is the one the [GIN] line times. Not one to one (a
// chat tokenizes several times, an embed calls once per input), so no
// line can stand for another: they are passed over, never counted.
var errRunnerRequest = fmt.Errorf("%w: the request Ollama made to its llama.cpp runner while serving a request its [GIN] line logs", errPassOver)

// runnerRequestLine reports whether line is llama.cpp's server's request
// line, padded (llamaServerFormat) or as Ollama's copy wrote it
// (ollamaRunnerFormat).
func runnerRequestLine(line []byte) bool {
	return bytes.Contains(line, []byte("log_server_request] request | ")) && llamaServerAccess().Match(line)
}

// ollamaOwn are the shapes of the lines Ollama writes of itself beside
// Gin's request lines, on the same stream as `ollama serve`, its
// journald unit and its container log hold them:
//   - log/slog's TextHandler, as Ollama sets it up (ollama/ollama
//     logutil/logutil.go NewLogger, server/routes.go Serve before it: its
//     source, the file's base name, always written; TRACE, its own level
//     below DEBUG): "time=2024-12-11T08:59:50.520+08:00 level=INFO
//     source=images.go:782 msg=\"total blobs: 12\"";
//   - Go's log package with its date and short file name, where slog
//     wrote before Serve set its handler ("2024/12/11 08:59:50
//     routes.go:1123: INFO server config env=…") and Ollama logged before
//     slog ("2023/11/15 10:33:48 images.go:824: total blobs: 4");
//   - Gin's debug output (gin-gonic/gin debug.go: debugPrint's "[GIN-debug] "
//     before its route table and its warnings, and the lines
//     debugPrintWARNINGDefault writes after its first: " - using env:\t…",
//     " - using code:\t…");
//   - llama.cpp's server's and its library's (llamaCppOwnLines), and the
//     loader's lines of later llama.cpp (llamaLoaderOwnLines), and the
//     line ggml-cuda.cu's ggml_cuda_init writes for each device
//     ("  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9,
//     VMM: yes");
//   - one-api's and new-api's logger, which writes to Gin's writers
//     (gin.DefaultWriter, gin.DefaultErrorWriter) beside its request
//     lines, a level in brackets, Gin's date, then " | ":
//     songquanpeng/one-api common/logger.go SysLog ("[SYS] 2023/06/01 -
//     10:00:00 | One API v0.5.0 started") and FatalLog ("[FATAL] … |
//     [msg]"), its common/logger/logger.go logHelper ("[INFO]
//     2024/06/01 - 10:00:00 | 2024060110000112345678 |
//     relay/controller/text.go:95 [RelayTextHelper] msg", levels DEBUG,
//     INFO, WARN, ERROR, FATAL);
//     QuantumNous/new-api common/logger.go and logger/logger.go ("[SYS] …
//     | msg", "[ERR] … | SYSTEM | msg", levels INFO, WARN, ERR, DEBUG);
//   - KrakenD's (krakendOwnLines), whose access log is Gin's default
//     lines on stdout beside them.
//
// A line that begins with spaces has lost them where a journald prefix
// was cut (syslogHeader takes the spaces after the tag). A Go
// panic and its stack trace match none: no normal line, a bad one.
var ollamaOwn = lazyre.New(`^(?:time=\d{4}-\d{2}-\d{2}T\S+ level=(?:TRACE|DEBUG|INFO|WARN|ERROR)(?:[+-]\d+)? (?:source=\S+ )?msg=` +
	`|\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} [\w.-]+\.go:\d+: ` +
	`|\[GIN-debug\] | *- using (?:env|code):\s` +
	`|\[(?:SYS|DEBUG|INFO|WARN|ERR|ERROR|FATAL)\] \d{4}/\d{2}/\d{2} - \d{2}:\d{2}:\d{2} \| ` +
	`|` + llamaCppOwnLines +
	`|` + llamaLoaderOwnLines +
	`|` + krakendOwnLines +
	`| *Device \d+: .*, compute capability )`)

// llamaLoaderOwnLines are the lines llama.cpp's library writes while it
// loads a model, sets up its context and runs it, each begun with the
// name of the function that writes it (LLAMA_LOG_*("%s: …", __func__)),
// those whose name has none of the prefixes llamaCppOwnLines knows:
// src/llama-model-loader.cpp's print_info, load_all_data and
// create_tensor; src/llama-model.cpp's print_info, load_hparams and
// load_tensors ("load_tensors: offloaded 29/29 layers to GPU"); src/llama-
// vocab.cpp's load ("load: special tokens cache size = 256"),
// init_tokenizer, print_info and tokenize; src/llama-context.cpp's
// graph_reserve, output_reserve, graph_compute, decode, encode,
// process_ubatch, memory_update, opt_epoch_iter, get_logits_ith,
// get_embeddings_ith, its setters (set_abort_callback, set_warmup, …),
// its adapters' and threadpools' functions and its state_* ones;
// ggml/src/ggml-backend-reg.cpp's load_backend, register_backend and
// register_device; and tools/mtmd/clip.cpp's, its clip_* functions and
// clip_model_loader's load_hparams, load_tensors, warmup and
// alloc_compute_meta.
const llamaLoaderOwnLines = `(?:print_info|load_all_data|create_tensor|load_hparams|load_tensors|load|init_tokenizer|tokenize` +
	`|graph_reserve|output_reserve|graph_compute|decode|encode|process_ubatch|memory_update|opt_epoch_iter|get_(?:logits|embeddings)_ith` +
	`|set_(?:abort_callback|warmup|n_threads|causal_attn|embeddings|adapter_lora)|(?:rm|clear)_adapter_lora|apply_adapter_cvec` +
	`|(?:attach|detach)_threadpool|state_\w+|load_backend|register_(?:backend|device)|warmup|alloc_compute_meta|clip_\w+): `

// krakendOwnLines are the lines KrakenD writes of itself beside its
// access log. KrakenD CE's router is lura's Gin engine, whose access log
// is gin.LoggerWithConfig with no formatter of its own, Gin's default
// lines on stdout (luraproject/lura router/gin/engine.go NewEngine;
// krakend/krakend-ce executor.go passes no Formatter, and its docs'
// logging page shows "[GIN] yyyy/mm/dd - hh:mm:ss | 200 | 4.529µs |
// 172.17.0.1 | GET "/user/foo""). Its application log is either:
//   - krakend-gologging's (telemetry/logging), go-logging's backend with
//     the configured prefix ("[KRAKEND]" in the docs' examples) before
//     its DefaultPattern " %{time:2006/01/02 - 15:04:05.000}
//     %{color}▶ %{level}%{color:reset} %{message}" (krakend/krakend-
//     gologging log.go; earlier releases "%{level:.6s}", WARNIN and
//     CRITIC), the level's colour escape written always but for INFO,
//     which has none (op/go-logging log_nix.go): "[KRAKEND] 2024/03/01 -
//     10:00:00.000 ▶ INFO Starting KrakenD v2.7.0";
//   - or, without that component, lura's logger through Go's log
//     package, its date, the prefix "KRAKEND" and the level with a colon
//     (luraproject/lura logging/log.go prependLog; krakend-ce
//     executor.go NewLogger): "2024/03/01 10:00:00 KRAKEND INFO:
//     Starting KrakenD v2.7.0";
//
// and the line its main writes through Go's log when a signal stops it
// (krakend-ce cmd/krakend-ce/main.go: "Signal intercepted: terminated").
const krakendOwnLines = `(?:.{0,64} )?\d{4}/\d{2}/\d{2} - \d{2}:\d{2}:\d{2}\.\d{3} (?:\x1b\[[\d;]*m)?▶ (?:DEBUG|INFO|NOTICE|WARNIN|ERROR|CRITIC)` +
	`|\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} (?:\S* )?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL|FATAL): ` +
	`|\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} Signal intercepted: `

// systemdTag is the tag of systemd's own messages about a unit, which
// `journalctl -u ollama` shows among the unit's ("Started
// ollama.service - Ollama Service."): journalctl's unit match takes the
// messages from PID 1 about it too (systemd src/shared/logs-show.c,
// add_matches_for_unit).
var systemdTag = []byte(" systemd[1]: ")

// ollamaOwnLine reports whether line, no Gin request line, is one of
// Ollama's own (ollamaOwn), behind a syslog or journald prefix ("Dec 11
// 08:59:50 gpu-1 ollama[1543654]: ") or not; or systemd's about its unit.
func ollamaOwnLine(line []byte) bool {
	if n, _ := hapHeader(line); n > 0 {
		if bytes.HasSuffix(line[:n], systemdTag) {
			return true
		}
		line = line[n:]
	}
	return len(line) > 2 && ollamaOwn().Match(line)
}

// ginMark opens a request line.
var ginMark = []byte("[GIN] ")

// ginParser reads Gin request lines. Values point into the line, or into
// date for the time rewritten as parseTime reads it (read at once), or,
// for a path with escapes, into the held buffer the records may point
// into until their batch is handed over.
type ginParser struct {
	holding
	loc   *time.Location
	binds [ginColumns]Bindings
	// mappedLatency: --map names the latency column, which is then read
	// as it says, a number without a unit included.
	mappedLatency bool
	vals          [ginColumns][]byte
	date          []byte
}

func newGinParser(c *parserConfig) *ginParser {
	p := &ginParser{loc: c.loc}
	p.mappedLatency = columnBindings(c.schema, ginNames[:], ginOwn[:], p.binds[:], ginLatency)
	return p
}

// ginHead reports whether one of the first lines of head is a Gin request
// line: a log's first lines may be the server's start messages, and
// Ollama's are many before its first request (its config, its slog lines,
// a [GIN-debug] line for each of its routes: `ollama serve`, `journalctl
// -u ollama`), so ginHeadLines are looked at, not guessLines.
//
// The server's own lines of known shapes (ollamaOwnLine) are not counted
// among them: Ollama loading a model for its first request writes
// hundreds of llama.cpp's loader lines before that request's [GIN] line
// (llama_model_loader:, print_info:, load:, load_tensors:, …). With
// OLLAMA_DEBUG, the llama.cpp server Ollama runs writes its slots' and
// its requests' lines too (ollamaRunnerFormat): a [GIN] line with such a
// server's request line before it is Ollama's log, however far it is.
// Either way only head is looked at, what was peeked of the file (64
// KiB): a file of nothing but such lines is not read further for it.
func ginHead(head []byte) bool {
	if !bytes.Contains(head, ginMark) {
		return false // no request line at all: no line need be looked at
	}
	var p ginParser
	lines := headLines(head, len(head))
	others := 0 // lines before the first request line, the own ones left out
	for i, l := range lines {
		if p.split(l) == nil {
			return others < ginHeadLines || slices.ContainsFunc(lines[:i], runnerRequestLine)
		}
		if others < ginHeadLines && !ollamaOwnLine(l) {
			others++
		}
	}
	return false
}

// ginHeadLines is how many first lines, the server's own of known shapes
// left out, may hold a Gin log's first request line.
const ginHeadLines = 200

// ginField returns the next '|'-separated field of rest, its colour
// escapes and spaces trimmed, and what follows its '|'; ok is false when
// rest holds no '|'.
func ginField(rest []byte) (field, after []byte, ok bool) {
	i := bytes.IndexByte(rest, '|')
	if i < 0 {
		return nil, nil, false
	}
	return trimANSI(rest[:i]), rest[i+1:], true
}

// trimANSI trims spaces and terminal colour escapes ("\x1b[97;42m",
// "\x1b[0m") from both ends of b.
func trimANSI(b []byte) []byte {
	for {
		n := len(b)
		b = bytes.Trim(b, " \t\r")
		if len(b) > 1 && b[0] == 0x1b && b[1] == '[' {
			if j := bytes.IndexByte(b, 'm'); j > 0 {
				b = b[j+1:]
			}
		}
		if k := bytes.LastIndexByte(b, 0x1b); k >= 0 && k+1 < len(b) && b[k+1] == '[' && b[len(b)-1] == 'm' {
			b = b[:k]
		}
		if len(b) == n {
			return b
		}
	}
}

// ginExtraFields is how many fields a request line may hold between its
// date and its status. Gin's formatter writes none; the servers that
// write their own line through Gin's logger (gin.LoggerWithFormatter)
// write one or two:
//   - one-api and new-api their request id ("| 2024060110000112345678 |";
//     songquanpeng/one-api middleware/logger.go SetUpLogger);
//   - new-api where it tags its routes the route's tag before it
//     ("| relay | 2025010110000012345678 |": middleware/logger.go
//     SetUpLogger writes the route_tag its router sets, as its forks hold
//     it, SolveaCX/new-api middleware/logger.go; QuantumNous/new-api
//     router/relay-router.go sets RouteTag("relay") on /v1, "api" on
//     /api, "old_api" on the dashboard's old routes, "web" when none);
//   - sealos's aiproxy the requested model after it, when the request
//     names one ("| 2024120410000112345678 |          gpt-4o |";
//     labring/sealos service/aiproxy/middleware/logger.go).
//
// The request id is the first of them, or the second after a route's
// tag (routeTag); the other is skipped.
const ginExtraFields = 2

// routeTag reports whether b is a name of new-api's route tags' shape,
// lower case letters and underscores ("relay", "old_api"), which no
// request id it writes has (the date's digits first).
func routeTag(b []byte) bool {
	for _, c := range b {
		if (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return len(b) > 0
}

// allDigits reports whether b is digits only.
func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// isStatus reports whether b is a three-digit status.
func isStatus(b []byte) bool {
	return len(b) == 3 && b[0] >= '1' && b[0] <= '9' && b[1] >= '0' && b[1] <= '9' && b[2] >= '0' && b[2] <= '9'
}

// httpMethod returns the length of the HTTP method b starts with, when a
// space or a colour escape follows it; 0 when it starts with none.
func httpMethod(b []byte) int {
	n := 0
	for n < len(b) && n < 8 && b[n] >= 'A' && b[n] <= 'Z' {
		n++
	}
	if n < 3 || n > 7 || n == len(b) || b[n] != ' ' && b[n] != 0x1b {
		return 0
	}
	return n
}

// split cuts a line into p.vals.
func (p *ginParser) split(line []byte) error {
	p.vals = [ginColumns][]byte{}
	at := bytes.Index(line, ginMark)
	if at < 0 {
		return errNotGin
	}
	rest := line[at+len(ginMark):]
	date, rest, ok := ginField(rest)
	if !ok || len(date) < 10 || !allDigits(date[:4]) {
		return errNotGin
	}
	p.vals[ginDate] = date
	// Up to ginExtraFields fields before the status (ginExtra).
	var extra [ginExtraFields][]byte
	n := 0
	f, rest, ok := ginField(rest)
	for ok && !isStatus(f) {
		if n == len(extra) {
			return errGinFields
		}
		extra[n], n = f, n+1
		f, rest, ok = ginField(rest)
	}
	if !ok {
		return errGinFields
	}
	switch {
	case n == 2 && routeTag(extra[0]):
		p.vals[ginRequestID] = extra[1]
	case n > 0:
		p.vals[ginRequestID] = extra[0]
	}
	p.vals[ginStatus] = f
	if p.vals[ginLatency], rest, ok = ginField(rest); !ok {
		return errGinFields
	}
	if p.vals[ginClient], rest, ok = ginField(rest); !ok {
		return errGinFields
	}
	p.vals[ginClient] = bytes.TrimPrefix(p.vals[ginClient], []byte("client_ip="))
	// The request: the first field after the client that starts with a
	// method (a fork's token name may come first), to the line's end, so
	// that a '|' in the path stays in it.
	for {
		req := trimANSI(rest)
		if n := httpMethod(req); n > 0 {
			p.vals[ginMethod] = req[:n]
			p.vals[ginPath] = trimANSI(req[n:])
			return nil
		}
		if _, rest, ok = ginField(rest); !ok {
			return errGinFields
		}
	}
}

// Parse reads one line into r.
func (p *ginParser) Parse(line []byte, r *Record) error {
	p.newLine()
	if err := p.split(line); err != nil {
		// Only a line that is none of Gin's is looked at again: the
		// request lines pay nothing for it.
		if err == errNotGin && runnerRequestLine(line) {
			return errRunnerRequest
		}
		if err == errNotGin && ollamaOwnLine(line) {
			return errOwnLine
		}
		return err
	}
	date, err := p.civilDate(p.vals[ginDate])
	if err != nil {
		return err
	}
	p.vals[ginDate] = date
	// The latency names its unit; Set reads it (unitDuration).
	if l := p.vals[ginLatency]; !p.mappedLatency && (len(l) < 2 || !endsInUnit(l)) {
		return errGinDuration
	}
	p.vals[ginPath] = p.unquote(p.vals[ginPath])
	if string(p.vals[ginClient]) == "unknown" {
		p.vals[ginClient] = nil // new-api's, when the request told none
	}
	if err := setColumns(r, p.binds[:], p.vals[:], p.loc); err != nil {
		return err
	}
	return r.Finish()
}

// civilDate rewrites Gin's "2026/12/04 - 10:00:01" (or "2026/12/04
// 10:00:01", a fraction after it kept) as "2026-12-04 10:00:01" in
// p.date.
func (p *ginParser) civilDate(d []byte) ([]byte, error) {
	if len(d) < 19 {
		return nil, errGinDate
	}
	day, clock := d[:10], d[10:]
	switch {
	case bytes.HasPrefix(clock, []byte(" - ")):
		clock = clock[3:]
	case clock[0] == ' ':
		clock = clock[1:]
	default:
		return nil, errGinDate
	}
	if sep := day[4]; (sep != '/' && sep != '-' && sep != ':') || day[7] != sep {
		return nil, errGinDate
	}
	p.date = append(append(append(append(append(p.date[:0], day[:4]...), '-'), day[5:7]...), '-'), day[8:10]...)
	p.date = append(append(p.date, ' '), clock...)
	return p.date, nil
}

// unquote returns a path as Gin's %#v wrote it without its quotes; one
// with escapes is unquoted into the held buffer.
func (p *ginParser) unquote(v []byte) []byte {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	s, err := strconv.Unquote(string(v))
	if err != nil {
		return inner
	}
	start := len(p.scratch)
	p.scratch = append(p.scratch, s...)
	return p.scratch[start:len(p.scratch):len(p.scratch)]
}
