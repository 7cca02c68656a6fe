package ingest

import (
	"bufio"
	"bytes"
	"errors"

	"loganalyze/internal/lazyre"
)

// A server that writes its access log to stdout writes its own log there
// too: a container's log (kubectl logs, docker logs) starts with the
// server's start-up lines, and holds its warnings among the requests.
// Traefik's ("2025-03-10T08:00:00Z INF Traefik version 3.0.0"), Istio's
// pilot-agent ("2025-03-10T07:59:58.123456Z\tinfo\tFLAG: --concurrency=2")
// and the nginx under Kong and APISIX ("2025/03/10 08:00:00 [notice]
// 1#0: using the "epoll" event method") begin with a date and a level.
// Such a line tells nothing of the access log's format: the format is
// sniffed, and a text log's format and a JSON log's source chosen, past
// the first ones and without them; the lines themselves are read as any
// and counted bad.

// ownLogLine reports whether line is a server's own log line: a date
// (2025-03-10 or 2025/03/10, its time joined to it or not), then at most
// a time and a zone, then a level (INF, info, [notice], [WARN], ERROR:),
// "|" between them or not (loguru's "2026-03-10 16:00:00.637 | INFO     |",
// FastChat's "2026-03-10 16:00:00 | INFO |").
func ownLogLine(line []byte) bool {
	if ownOtherShape(line) {
		return !loggedAccessLine(line)
	}
	if uvicornOwnLine(line) || springBootBanner(line) || quarkusBanner(line) || lmdeployHint(line) || routerJSONLine(line) || koaIncoming(line) {
		return true
	}
	rest, ok := cutToken(line)
	if !ok || !startsDate(rest.tok) {
		return false
	}
	if pythonLoggerLine(rest.after) {
		return !loggedAccessLine(line)
	}
	for n := 0; n < 3; {
		if rest, ok = cutToken(rest.after); !ok {
			return false
		}
		switch {
		case string(rest.tok) == "|":
			continue // a separator, no token of its own
		case isLevel(rest.tok):
			return !loggedAccessLine(line)
		case !clockOrZone(rest.tok):
			return false
		}
		n++
	}
	return false
}

// loggedAccessLine reports whether line, dated and levelled as a
// server's own, is an access line that its server writes through its
// logger, which a known format reads: Spring Boot's line of Reactor
// Netty's access log ("2026-12-05T10:00:15.147+08:00  INFO 1 --- [gateway]
// [ctor-http-nio-3] reactor.netty.http.server.AccessLog      : 10.8.0.2:55043
// - - [05/Dec/2026:10:00:09 +0800] \"POST …\" 200 2052 5169 ms"), BentoML's
// ("2026-03-10T16:00:00+0800 [INFO] [entry_service:LLMService:1]
// 10.0.3.200:38160 (scheme=http,method=POST,…) (status=200,…) 409.940ms …",
// where its WebSocket lines, "… (scheme=ws,path=/x) - Client connected",
// have no status and are its own), Quarkus's ("2026-03-05 17:00:07,339
// INFO  [io.qua.htt.access-log] (executor-thread-2) 10.0.3.13 - - […]
// …", quarkusAccessHead), Ray Serve's (rayServeAccess), uvicorn's
// through FastChat's or Open WebUI's logging (uvicornAccess), llama.cpp's
// server's request line (llamaServerAccess), agentgateway's request
// line ("2026-03-10T08:00:11.91445Z\tinfo\trequest gateway=… http.status=200
// … duration=1895ms": its request log's target, then logfmt pairs; logfmt.go),
// Serilog's request line ("2026-03-05 17:00:07.339 +08:00 [INF] HTTP POST
// /v1/chat/completions responded 200 in 2732.3432 ms": serilogFormat),
// ASP.NET Core's "Request finished" through a console formatter
// (aspnetFinishedFormat).
func loggedAccessLine(line []byte) bool {
	return bytes.HasPrefix(line, []byte("      Request finished ")) || bytes.Contains(line, []byte(aspnetFinishedEvent+" Request finished ")) ||
		bytes.Contains(line, []byte(" "+reactorNettyLogger+" ")) || bytes.Contains(line, []byte(") (status=")) ||
		bytes.Contains(line, []byte(" "+quarkusAccessLogger+" (")) ||
		bytes.Contains(line, agwRequestLine) && looksLogfmt(line) ||
		bytes.HasSuffix(line, []byte("ms")) && rayServeAccess().Match(line) ||
		bytes.Contains(line, []byte(` - "`)) && uvicornAccess().Match(line) ||
		bytes.Contains(line, []byte("log_server_request] request | ")) && llamaServerAccess().Match(line) ||
		bytes.HasSuffix(line, []byte(" ms")) && bytes.Contains(line, []byte("] HTTP ")) && serilogAccess().Match(line)
}

// serilogAccess matches the end of Serilog's request line
// (serilogFormat): its level, the method, the path, the status and
// Elapsed in ms.
var serilogAccess = lazyre.New(`\[[A-Z]{3}\] HTTP [A-Z]+ \S+ responded \d{3} in \d+(?:\.\d+)? ms$`)

// agwRequestLine is where agentgateway's request line has its level and
// its target: log("info", "request", …) in crates/agentgateway/src/
// telemetry/log.rs.
var agwRequestLine = []byte("\tinfo\trequest ")

// pythonLoggerLine reports whether rest, what follows a line's date, is
// a Python server's logging that names its logger between the time and
// the level: LMDeploy's (lmdeploy/utils.py, _FORMAT "%(asctime)s -
// %(name)s - %(levelname)s - %(filename)s:%(lineno)d - %(message)s":
// "10:00:03,459 - lmdeploy - INFO - async_engine.py:582 - …") and
// Xinference's (xinference/deploy/utils.py, get_config_dict, up to v2.9:
// "%(asctime)s %(name)-12s %(process)d %(levelname)-8s %(message)s",
// v2.9 with "[role@address] " before the level: "09:59:50,112
// xinference.core.supervisor 2871 INFO     …"). Its time is asctime's,
// to the ms after a comma.
func pythonLoggerLine(rest []byte) bool {
	t, ok := cutToken(rest)
	if !ok || len(t.tok) != 12 || t.tok[8] != ',' || !clockOrZone(t.tok) {
		return false
	}
	if t, ok = cutToken(t.after); !ok {
		return false
	}
	if string(t.tok) == "-" { // LMDeploy's: " - name - LEVEL - "
		name, ok := cutToken(t.after)
		if !ok || !loggerName(name.tok) {
			return false
		}
		dash, ok := cutToken(name.after)
		if !ok || string(dash.tok) != "-" {
			return false
		}
		level, ok := cutToken(dash.after)
		return ok && isLevel(level.tok)
	}
	// Xinference's: "name pid [role@address] LEVEL", the brackets since v2.9.
	if !loggerName(t.tok) {
		return false
	}
	pid, ok := cutToken(t.after)
	if !ok || !allDigits(pid.tok) {
		return false
	}
	level, ok := cutToken(pid.after)
	if ok && len(level.tok) > 2 && level.tok[0] == '[' && level.tok[len(level.tok)-1] == ']' && bytes.IndexByte(level.tok, '@') > 0 {
		level, ok = cutToken(level.after)
	}
	return ok && isLevel(level.tok)
}

// loggerName reports whether t is a Python logger's name: words of
// letters, digits and underscores joined by dots ("lmdeploy",
// "xinference.core.supervisor"), a letter or an underscore first.
func loggerName(t []byte) bool {
	if len(t) == 0 || !(t[0] == '_' || t[0] >= 'a' && t[0] <= 'z' || t[0] >= 'A' && t[0] <= 'Z') {
		return false
	}
	for _, c := range t {
		if !isVarChar(c) && c != '.' {
			return false
		}
	}
	return true
}

// lmdeployHint reports whether line is the hint LMDeploy's api_server
// prints three times before it starts uvicorn
// (lmdeploy/serve/openai/api_server.py, serve: "HINT:    Please open
// http://0.0.0.0:23333 in a browser for detailed api usage!!!", the
// address in colours).
func lmdeployHint(line []byte) bool {
	return bytes.HasPrefix(line, []byte("HINT:    Please open ")) && bytes.HasSuffix(line, []byte(" in a browser for detailed api usage!!!"))
}

// routerJSONLine reports whether line is the vLLM production-stack
// router's own line in JSON, with --log-format json (vllm-project/
// production-stack src/vllm_router/log.py, JsonFormatter, written by
// json.dumps: {"timestamp": "2025-09-05 10:00:02,950", "level": "INFO",
// "logger": "vllm_router.services.request_service.request", "message":
// "Routing request …", …}). The router gives its format to its own
// loggers only: uvicorn's access lines beside them stay text.
func routerJSONLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte(`{"timestamp": "`))
	return ok && startsDate(rest) && bytes.Contains(rest, []byte(`", "logger": "vllm_router`))
}

// llamaServerAccess is llama.cpp's server's request line (llamaServerFormat):
// the client, its port and the status, its members in either order
// (sorted, they follow each other too); with --verbose the server logs
// the request's and the response's bodies under the same name, its own
// line.
var llamaServerAccess = lazyre.New(`\| .*\bremote_addr="[^"]*" remote_port=\d+ status=-?\d+ `)

// uvicornAccess is uvicorn's access message, as its formatter writes it
// ('10.0.0.5:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK') or
// as its record holds it before ('… HTTP/1.1" 200'): the client's
// host:port, the request line and a status.
var uvicornAccess = lazyre.New(`\S:\d+ - "[A-Z]+ \S+ HTTP/[\d.]+" \d{3}(?: |$)`)

// rayServeAccess is the end of Ray Serve's access line, today's ("-- POST
// /v1/chat/completions 200 409.9ms", the client's address before the
// method or not: rayServeClientFormat) and 2.9's ("- POST 200 409.9ms"):
// a method and an HTTP status, where a replica's handle call has OK or
// ERROR ("-- CALL __call__ OK 12.3ms"), its own line.
var rayServeAccess = lazyre.New(`(?: -- (?:\S+ )?[A-Z]+ \S+| - [A-Z]+) \d{3} \d+\.\dms$`)

// springBootLogo is the banner Spring Boot prints before its first log
// line (spring-boot's org/springframework/boot/SpringBootBanner.java),
// which a container's log holds before the access lines; its last line,
// " :: Spring Boot ::", then the version, is told by its start.
var springBootLogo = [...]string{
	`  .   ____          _            __ _ _`,
	` /\\ / ___'_ __ _ _(_)_ __  __ _ \ \ \ \`,
	`( ( )\___ | '_ | '_| | '_ \/ _` + "`" + ` | \ \ \ \`,
	` \\/  ___)| |_)| | | | | || (_| |  ) ) ) )`,
	`  '  |____| .__|_| |_|_| |_\__, | / / / /`,
	` =========|_|==============|___/=/_/_/_/`,
}

// quarkusLogo is the banner Quarkus prints before its first log line
// (quarkus core/runtime/src/main/resources/default_banner.txt), written
// with trailing spaces that copies of a log often lose: compared without
// them.
var quarkusLogo = [...]string{
	`__  ____  __  _____   ___  __ ____  ______`,
	` --/ __ \/ / / / _ | / _ \/ //_/ / / / __/`,
	` -/ /_/ / /_/ / __ |/ , _/ ,< / /_/ /\ \`,
	`--\___\_\____/_/ |_/_/|_/_/|_|\____/___/`,
}

// quarkusBanner reports whether line is a line of Quarkus's banner.
func quarkusBanner(line []byte) bool {
	if len(line) == 0 || line[0] != '_' && line[0] != ' ' && line[0] != '-' {
		return false
	}
	line = bytes.TrimRight(line, " ")
	for _, l := range quarkusLogo {
		if string(line) == l {
			return true
		}
	}
	return false
}

// springBootBanner reports whether line is a line of Spring Boot's banner.
func springBootBanner(line []byte) bool {
	if len(line) == 0 || line[0] != ' ' && line[0] != '(' {
		return false
	}
	if bytes.HasPrefix(line, []byte(" :: Spring Boot :: ")) {
		return true
	}
	for _, l := range springBootLogo {
		if string(line) == l {
			return true
		}
	}
	return false
}

// ownShapes are a server's own lines that begin otherwise than with a
// date and a level, as containers' logs hold them before the access
// log's: Envoy's own log ("[2026-12-04 09:00:00.123][1][info][main]
// [source/server/server.cc:430] …"); klog's, Kubernetes' controllers'
// (ingress-nginx: "I1204 09:00:00.123456       7 controller.go:190]
// …"); the official nginx image's entrypoint and its scripts
// ("/docker-entrypoint.sh: Configuration complete; ready for start up",
// "10-listen-on-ipv6-by-default.sh: info: …"); and ingress-nginx's banner
// (a rule of dashes, "NGINX Ingress controller", "  Release:       v1.9.4");
// and logrus' text lines, Traefik v2's own log beside its CLF access log
// ("time=\"2025-03-10T08:00:00Z\" level=info msg=\"Configuration loaded
// from flags.\""); and Linkerd's proxy's, its uptime first
// ("[     0.001952s]  INFO ThreadId(01) linkerd2_proxy: release …"),
// beside the access log it writes to the same stream.
var ownShapes = lazyre.New(`^(?:\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\]\[\d+\]\[\w+\]\[[\w.]+\] ` +
	`|\[ *\d+\.\d+s\] +(?:TRACE|DEBUG|INFO|WARN|ERROR) ` +
	// ingress-nginx's TCP and UDP services' lines, its log-format-stream
	// ("[$remote_addr] [$time_local] $protocol $status $bytes_sent
	// $bytes_received $session_time", internal/ingress/controller/config):
	// connections, no HTTP requests, beside its access lines.
	`|\[[^\]\s]+\] \[\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] (?:TCP|UDP) \d{3} ` +
	`|[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ [\w./-]+:\d+\] ` +
	`|time="\d{4}-\d{2}-\d{2}[^"]*" level=(?:trace|debug|info|warning|error|fatal|panic) msg=` +
	// vLLM's own lines (its logger's "%(levelname)s %(asctime)s
	// [%(filename)s:%(lineno)d]", a month and day; v1 names its process
	// first), beside the uvicorn access lines it writes; and NIM's, which
	// adds the ms, and since 2.0 the year ("INFO 2025-09-10
	// 16:31:52.239 on.py:62] Application startup complete.").
	`|(?:\(\w+ pid=\d+\) )?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (?:\d{4}-)?\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \[?[\w.-]+\.py:\d+\] ` +
	// SGLang's ("[%(asctime)s{prefix}] %(message)s",
	// python/sglang/srt/utils: configure_logger, datefmt "%m-%d
	// %H:%M:%S", the process's ranks its prefix: "[03-10 16:00:00 TP0]
	// Prefill batch. …"; with the year, only with a rank, since its
	// uvicorn access lines have the year and none), beside them.
	`|\[(?:\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?: [A-Z]+\d+)*|\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?: [A-Z]+\d+)+)\] ` +
	// Ray Serve's ("%(levelname)s %(asctime)s", a year; its driver
	// names the actor first), beside its access lines.
	`|(?:\([\w:.-]+ pid=\d+\) )?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} ` +
	// llama.cpp's server's (examples/server/utils.hpp, server_log: the
	// level and the function right-aligned, the message, then " |" and
	// its members, timestamp among them: "INFO [            update_slots]
	// slot released | tid=\"…\" timestamp=1773129600 id_slot=0 …"), its
	// request lines but for their own (loggedAccessLine); Ollama's copy
	// of it, the function unpadded, DEBUG and ERROR its levels too
	// ("DEBUG [update_slots] slot released | …", ollamaRunnerFormat);
	// and its library's, to standard error ("llama_model_loader: loaded
	// meta data …", "llm_load_print_meta: …", "ggml_cuda_init: …").
	// granian's ('[%(levelname)s] %(message)s', the generic formatter of
	// granian/log.py's LOGGING_CONFIG, which writes to the standard
	// output its access log goes to: "[INFO] Starting granian (main PID:
	// 1)", its Rust workers' messages too), beside its access lines.
	`|\[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\] ` +
	// Sanic's (sanic/logging/formatter.py, ProdFormatter's
	// "%(ident)s %(asctime)s %(levelname)s: %(message)s" where its output
	// is no terminal, the ident its worker's, "Srv 0", or "Main "), and
	// the lines its access logger writes in its ProdAccessFormatter of no
	// request (sanicProdFormat): a connection's close, the last request
	// on it again with "DISCONNECTED" for its bytes and no duration
	// (sanic/server/protocols/http_protocol.py, log_disconnect), and a
	// WebSocket's close, " 🔌 " before its URL (websocket_protocol.py).
	`|(?:Main |Srv ?\d+) \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4} [A-Z]+: ` +
	`|[^|]{1,20}\|\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4} INFO: \S+ (?: 🔌 |.* \S+ DISCONNECTED ?$)` +
	// The logger line of gunicorn's error log, Hypercorn's and Sanic's
	// before 24.6 ("%(asctime)s [%(process)d] [%(levelname)s]
	// %(message)s", datefmt "[%Y-%m-%d %H:%M:%S %z]": gunicorn/glogging.py
	// CONFIG_DEFAULTS, hypercorn/logging.py _create_logger, sanic/log.py
	// LOGGING_CONFIG_DEFAULTS' "generic"), its message a sentence ("[INFO]
	// Running on http://0.0.0.0:8000 (CTRL + C to quit)", "Booting worker
	// with pid: 7"): Hypercorn's access lines have the same logger line
	// before them, an address or a request after it.
	`|\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}\] \[\d+\] \[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\] [A-Z][a-z']` +
	`|` + llamaCppOwnLines +
	// Microsoft.Extensions.Logging's console formatters (dotnet/runtime
	// src/libraries/Microsoft.Extensions.Logging.Console/src/): the simple
	// formatter's "info: category[id]" (SimpleConsoleFormatter,
	// GetLogLevelString's trce, dbug, info, warn, fail, crit), its message
	// on the next lines padded with six spaces (an exception's among them,
	// its inner exceptions "  ---> " and its frames "   at " further in),
	// or after it on the same line (SingleLine), its TimestampFormat
	// before it when set (a dated one reads as a date and a level above,
	// a time of day alone here); the systemd formatter's
	// "<6>category[id] message" (SystemdConsoleFormatter). ASP.NET
	// Core's "Request finished" among them is an access line
	// (loggedAccessLine).
	`|(?:\d{2}:\d{2}:\d{2}[.,\d]* )?(?:trce|dbug|info|warn|fail|crit): [^\s\[]+\[\d+\]| {6}(?:\S| ---> | {3}at )|<[0-7]>[^\s\[]+\[\d+\]` +
	`|/docker-entrypoint\.sh: |\d{2}-[\w.-]+\.(?:sh|envsh): ` +
	`|-{20,}$|NGINX Ingress controller$|  (?:Release|Build|Repository|nginx version): )`)

// llamaCppOwnLines are llama.cpp's server's own lines and its library's
// (ownShapes), which Ollama's log holds too (ollamaOwnLine).
const llamaCppOwnLines = `(?:INFO|WARN| ERR|VERB|DEBUG|ERROR) \[ *[^\]\s][^\]]*\] .*\| .*\btimestamp=\d+` +
	`|(?:llama|llm|ggml|gguf)_\w+: `

// ownOtherShape reports whether line is one of ownShapes, compiled only
// for a line that begins as one can: an access log's first line, an
// address or a "{", is told none without it.
func ownOtherShape(line []byte) bool {
	if len(line) < 3 {
		return false // each shape is longer
	}
	switch c := line[0]; {
	case c == '[' || c == '/' || c == '-' || c == 'N' || c == ' ' || c == 't' || c == '(' || c == 'D' || c == 'C' || c == 'V' || c == 'l' || c == 'g' || c == 'M' || c == 'S':
	case c == 'd' || c == 'i' || c == 'w' || c == 'f' || c == 'c' || c == '<': // a .NET console formatter's level
	case c == 'I' || c == 'W' || c == 'E' || c == 'F': // klog's, or vLLM's level
		if !isDigit(line[1]) && !(line[1] >= 'A' && line[1] <= 'Z') {
			return false
		}
	case isDigit(c): // a start-up script's "10-listen-on-ipv6…sh: ", a .NET console's time
		if !isDigit(line[1]) || line[2] != '-' && line[2] != ':' {
			return false
		}
	default:
		return false
	}
	return ownShapes().Match(line)
}

// uvicornLevels are the level prefixes uvicorn writes, padded to ten
// columns ("INFO:     "), before its own messages and its access lines.
var uvicornLevels = [][]byte{[]byte("INFO:"), []byte("WARNING:"), []byte("ERROR:"), []byte("DEBUG:"), []byte("CRITICAL:")}

// uvicornOwnLine reports whether line is uvicorn's own message ("INFO:
// Started server process [35049]", "INFO:     Application startup
// complete."), vLLM's process name or SGLang's date before it or not: its
// level prefix then text that is no access line's address and request
// ("10.0.0.5:51234 - \"POST …"). The vLLM production-stack router's own
// lines have that shape too (src/vllm_router/log.py, build_format:
// "[%(asctime)s] %(levelname)s: %(message)s (%(filename)s:…)", "[2025-09-05
// 10:00:02,950] INFO: Routing request …"), coloured, and are told so.
func uvicornOwnLine(line []byte) bool {
	if len(line) > 0 && line[0] == '(' { // vLLM v1's "(APIServer pid=35049) "
		if i := bytes.Index(line, []byte(") ")); i > 0 && i < 40 {
			line = line[i+2:]
		}
	}
	if len(line) > 0 && line[0] == '[' { // SGLang's "[2026-03-10 16:00:00] "
		if i := bytes.Index(line, []byte("] ")); i > 0 && i < 40 && startsDate(line[1:i]) {
			line = line[i+2:]
		}
	}
	for _, lv := range uvicornLevels {
		rest, ok := bytes.CutPrefix(line, lv)
		if !ok || len(rest) == 0 || rest[0] != ' ' {
			continue
		}
		rest = bytes.TrimLeft(rest, " ")
		addr, after, _ := bytes.Cut(rest, []byte(" "))
		return len(rest) > 0 && !(len(addr) > 0 && bytes.HasPrefix(after, []byte(`- "`)))
	}
	return false
}

// token is a line's next token and what follows it.
type token struct{ tok, after []byte }

// cutToken returns the first token of b, separated by spaces or tabs.
func cutToken(b []byte) (token, bool) {
	b = bytes.TrimLeft(b, " \t")
	if len(b) == 0 {
		return token{}, false
	}
	i := bytes.IndexAny(b, " \t")
	if i < 0 {
		return token{tok: b}, true
	}
	return token{tok: b[:i], after: b[i:]}, true
}

// startsDate reports whether t begins with a date, YYYY-MM-DD or
// YYYY/MM/DD.
func startsDate(t []byte) bool {
	if len(t) < 10 || t[4] != '-' && t[4] != '/' || t[7] != t[4] {
		return false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// clockOrZone reports whether t is a time of day (08:00:00, 08:00:00,123)
// or a zone (+0800, Z, UTC) that may stand between a date and a level.
func clockOrZone(t []byte) bool {
	switch string(t) {
	case "Z", "UTC", "GMT":
		return true
	}
	digits := 0
	for _, c := range t {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == ':' || c == '.' || c == ',' || c == '+' || c == '-':
		default:
			return false
		}
	}
	return digits >= 4
}

// isLevel reports whether t is a log level as loggers write it: bare,
// bracketed or followed by a colon, in any case (INF, info, [notice],
// [WARN], ERROR:).
func isLevel(t []byte) bool {
	t = bytes.TrimSuffix(t, []byte(":"))
	if len(t) > 2 && t[0] == '[' && t[len(t)-1] == ']' {
		t = t[1 : len(t)-1]
	}
	if len(t) < 3 || len(t) > 8 {
		return false
	}
	var low [8]byte
	for i, c := range t {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(t)]) {
	case "trace", "trc", "debug", "dbg", "info", "inf", "notice", "warn", "wrn", "warning",
		"error", "err", "erro", "fatal", "ftl", "panic", "pnc", "crit", "critical", "alert", "emerg":
		return true
	}
	return false
}

// pastOwnLog returns head after its first lines that are a server's own
// (ownLogLine), blank ones among them; head itself when none is, or when
// every whole line of head is one.
func pastOwnLog(head []byte) []byte {
	rest := head
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			break // a line the peek cut: not known to be one
		}
		l := bytes.TrimRight(rest[:nl], "\r")
		if !blank(l) && !ownLogLine(l) {
			return rest
		}
		rest = rest[nl+1:]
	}
	return head
}

// A server writing to a terminal colours its lines (uvicorn's
// --use-colors, on when `docker run -t` gives it one): "\x1b[32mINFO\x1b[0m:
// 10.0.23.130:37800 - "\x1b[1mGET /health HTTP/1.1\x1b[0m" …". A text log
// whose first lines hold such escapes is read without them: its format
// told from its lines without them, and each line read so (decolor).

// escOctal is ESC then '[' as rsyslog writes them, escaping the control
// characters it receives (its default): "#033[2m…" in a coloured log
// shipped by syslog (TGI's on SageMaker, read from CloudWatch).
var escOctal = []byte("#033[")

// appendDecolored appends line to b without its terminal escapes (CSI
// sequences: ESC, '[', parameters, a final letter; ESC written "#033").
func appendDecolored(b, line []byte) []byte {
	for {
		i, n := bytes.IndexByte(line, 0x1b), 1
		if j := bytes.Index(line, escOctal); j >= 0 && (i < 0 || j < i) {
			i, n = j, len(escOctal)-1
		}
		if i < 0 {
			return append(b, line...)
		}
		b = append(b, line[:i]...)
		line = line[i+n:]
		if len(line) == 0 || line[0] != '[' {
			continue // a lone ESC: dropped
		}
		j := 1
		for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
			j++
		}
		line = line[min(j+1, len(line)):]
	}
}

// coloured reports whether head holds a terminal escape, or one as
// rsyslog writes it.
func coloured(head []byte) bool {
	return bytes.IndexByte(head, 0x1b) >= 0 || bytes.Contains(head, escOctal)
}

// ownHeadPeek is how much of a text file pastOwnLog looks through for its
// first line that is not the program's own.
const ownHeadPeek = 64 << 10

// maxOwnHead bounds the program's own first lines skipOwnHead passes
// over.
const maxOwnHead = 256 << 20

// skipOwnHead passes over a program's own first lines (ownLogLine) when
// they fill the head its format is told from, whole: a model server's
// start-up (NIM's, vLLM's: its engine's and its weights' loading) may
// write megabytes before the first request's line, and the format was
// then told from no request's line, and the file read none. Whole
// heads of own lines are read past, up to maxOwnHead, and counted as
// passed over; the lines after them are numbered as the file's. A
// server's own log alone (serverLogOf) and a tracing log (whose every
// line is dated and levelled) are left as they are.
func (p *pipeline) skipOwnHead(fs *fileState, br *bufio.Reader) {
	for skipped := 0; skipped < maxOwnHead; {
		peek, _ := br.Peek(ownHeadPeek)
		if len(peek) < ownHeadPeek {
			return // all of it is in the head
		}
		n, lines := 0, int64(0)
		for rest := peek; ; {
			nl := bytes.IndexByte(rest, '\n')
			if nl < 0 {
				break
			}
			if l := bytes.TrimRight(rest[:nl], "\r"); !blank(l) && !ownLogLine(l) {
				return // a line of another's: the format is told from it
			}
			n, lines, rest = n+nl+1, lines+1, rest[nl+1:]
		}
		if n == 0 || serverLogOf(peek) != nil || tracingHead(peek) {
			return // one line longer than the head, or no request log's
		}
		if _, err := br.Discard(n); err != nil {
			return
		}
		skipped += n
		fs.ownHead += lines
		p.reader.get(fs.index).passed += lines
	}
}

// errOwnOnly is the reason a text log is not read whose first lines are
// all the program's own (ownOnly): no format can be told from them, and
// none given would read a request from them either.
var errOwnOnly = errors.New("no request among its first lines: each is the program's own log (its start-up, its warnings), no access log's line; the requests may be logged to another file or stream (uvicorn's uvicorn.access logger, a server's access_log)")

// ownOnly reports whether the first lines of head, two at least, are all
// a program's own (ownLogLine) or blank.
func ownOnly(head []byte) bool {
	lines := headLines(head, guessLines)
	if len(lines) < 2 {
		return false
	}
	for _, l := range lines {
		if !ownLogLine(l) {
			return false
		}
	}
	return true
}

// pythonOwnOnly reports whether the first lines br holds, two at least,
// are all python-json-logger's records of the program's own loggers (no
// access logger's: pythonJSON's own), as a file of a server's start-up
// alone is (ownOnly).
func pythonOwnOnly(br *bufio.Reader) bool {
	head, _ := br.Peek(ownHeadPeek)
	lines := headLines(head, guessLines)
	if len(lines) < 2 {
		return false
	}
	var d topReader
	for _, l := range lines {
		if _, _, own, ok := d.pythonJSON(l); !ok || !own {
			return false
		}
	}
	return true
}
