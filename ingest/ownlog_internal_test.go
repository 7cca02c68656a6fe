package ingest

import (
	"bytes"
	"testing"
)

// TestOwnLogLine holds ownLogLine to the lines servers write of their own
// beside their access logs, and to access lines, which it must leave.
func TestOwnLogLine(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		// Traefik v3 (zerolog's console), Istio's pilot-agent (zap),
		// the nginx under Kong and APISIX, Python's logging, a zone.
		{"2025-03-10T08:00:00Z INF Traefik version 3.0.0-rc3 built on 2024-03-13T15:49:38Z version=3.0.0-rc3", true},
		{"2025-03-10T07:59:58.123456Z\tinfo\tFLAG: --concurrency=\"2\"", true},
		{"2025/03/10 08:00:00 [notice] 1#0: using the \"epoll\" event method", true},
		{"2025/03/10 08:00:03 [warn] 1#0: *12 an upstream response is buffered to a temporary file", true},
		{"2025-03-10 08:00:00,123 ERROR:root:boom", false}, // "ERROR:root:boom" is no level alone
		{"2025-03-10 08:00:00,123 WARNING uvicorn.error: slow", true},
		{"2025-03-10 08:00:00 +0800 [INFO] ready", true},
		// vLLM's own lines beside its uvicorn access lines, v1's with its
		// process first; its access line itself is no own line.
		{"(APIServer pid=35049) INFO 09-05 10:00:05 [logger.py:41] Received request chatcmpl-0: prompt: 'hi', params: SamplingParams(n=1)", true},
		{"INFO 09-05 10:00:05 logger.py:36] Received request chat-0: prompt: 'hi'", true},
		{"WARNING 09-05 10:00:05 [config.py:1234] Casting torch.bfloat16 to torch.float16.", true},
		{`(APIServer pid=35049) INFO:     10.0.0.95:33801 - "POST /v1/chat/completions HTTP/1.1" 200 OK`, false},
		// uvicorn's own messages, beside its access lines.
		{"INFO:     Started server process [35049]", true},
		{"(APIServer pid=35049) INFO:     Application startup complete.", true},
		{"INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)", true},
		{"INFO:", false},
		// Traefik v2's own log (logrus' text), beside its CLF access log.
		{`time="2025-03-10T08:00:00Z" level=info msg="Configuration loaded from flags."`, true},
		{`time="2025-03-10T08:00:01+08:00" level=warning msg="Could not find TLS certificate" providerName=file`, true},
		{`time="2025-03-10T08:00:00Z" status=200 msg="request"`, false}, // no level where logrus writes it
		// Spring Boot's own lines and its banner; Reactor Netty's access
		// log through its logger is no own line.
		{"2026-12-05T10:00:04.877+08:00  INFO 1 --- [gateway] [           main] o.s.b.web.embedded.netty.NettyWebServer  : Netty started on port 8080 (http)", true},
		{`2026-12-05T10:00:14.312+08:00  INFO 1 --- [gateway] [ctor-http-nio-3] reactor.netty.http.server.AccessLog      : 10.8.0.2:55043 - - [05/Dec/2026:10:00:09 +0800] "POST /v1/chat/completions HTTP/1.1" 200 2052 5169 ms`, false},
		{`2026-12-05 10:00:14.312  INFO 7 --- [or-http-epoll-2] reactor.netty.http.server.AccessLog      : 10.8.0.2:55043 - - [05/Dec/2026:10:00:09 +0800] "GET / HTTP/1.1" 200 5 3 ms`, false},
		{"  .   ____          _            __ _ _", true},
		{` /\\ / ___'_ __ _ _(_)_ __  __ _ \ \ \ \`, true},
		{" :: Spring Boot ::                (v3.4.1)", true},
		{" :: Spring Boot", false},
		// BentoML's own lines, a WebSocket's among them; its access line.
		{`2026-03-10T16:00:00+0800 [INFO] [cli] Starting production HTTP BentoServer from "service:LLMService" listening on http://localhost:3000`, true},
		{"2026-03-10T16:00:28+0800 [INFO] [entry_service:LLMService:1] 10.0.1.241:34774 (scheme=ws,path=/v1/realtime) - Client connected", true},
		{"2026-03-10T16:00:14+0800 [INFO] [entry_service:LLMService:1] 10.0.1.160:50232 (scheme=http,method=POST,path=/v1/chat/completions,type=application/json,length=620) (status=429,type=application/json,length=295) 404.763ms", false},
		// Linkerd's proxy's own lines; ingress-nginx's TCP and UDP
		// services' lines (its log-format-stream), connections, no
		// requests; and its access line.
		{"[     0.001952s]  INFO ThreadId(01) linkerd2_proxy: release 2.270.0 (abc1234) by linkerd on 2026-11-20T00:00:00Z", true},
		{"[ 1656.814546s] DEBUG ThreadId(01) inbound:accept{peer.addr=10.12.12.37:34890}: linkerd_proxy_http::server: The stack is tearing down", true},
		{"[203.0.113.7] [05/Dec/2026:10:00:35 +0000] TCP 200 1834 412 12.345", true},
		{"[2001:db8::7] [05/Dec/2026:10:00:35 +0800] UDP 200 64 64 0.001", true},
		{`203.0.113.7 - - [05/Dec/2026:10:00:35 +0000] "POST /v1/chat/completions HTTP/1.1" 200 2857 "-" "x" 512 1.989 [llm-gw-80] [] 10.1.0.5:8000 2857 1.987 200 ac37`, false},
		// llama.cpp's server's own lines, in order and sorted, an error's
		// level padded, a verbose request's bodies, its library's; its
		// request lines, in order and sorted.
		{`INFO [            update_slots] slot released | tid="124625576644608" timestamp=1773129604 id_slot=0 id_task=0 n_ctx=16384 n_past=668 truncated=false`, true},
		{`INFO [            update_slots] all slots are idle | tid="139942237310976" timestamp=1711000000`, true},
		{` ERR [          send_error] task error | tid="124625576644608" timestamp=1773129612 id_multi=-1 id_task=9 error="Context size has been exceeded."`, true},
		{`VERB [      log_server_request] request | tid="1" timestamp=1773129604 request="{\"a\":1}" response=""`, true},
		{"llama_model_loader: loaded meta data with 29 key-value pairs and 291 tensors from /models/m.gguf (version GGUF V3 (latest))", true},
		{"ggml_cuda_init: found 1 CUDA devices:", true},
		{`INFO [      log_server_request] request | tid="1" timestamp=1773129600 remote_addr="10.0.3.200" remote_port=38160 status=200 method="POST" path="/v1/chat/completions" params={}`, false},
		{`INFO [      log_server_request] request | method="GET" params={} path="/health" remote_addr="127.0.0.1" remote_port=49712 status=200 tid="1" timestamp=1711000003`, false},
		// Ray Serve's own lines, a replica's handle call among them; its
		// access lines, today's (the client's address before the method
		// or not) and 2.9's.
		{"INFO 2026-03-10 15:59:58,001 proxy 10.0.0.5 -- Proxy starting on node 8b2e6f0c (HTTP port: 8000).", true},
		{"(ServeReplica:default:HelloWorld pid=4347) INFO 2024-12-30 23:47:45,010 default_HelloWorld 5w6y35rx 9c1e02aa -- CALL __call__ OK 0.3ms", true},
		{"INFO 2026-03-10 16:00:00,637 proxy 10.0.0.5 2827688d-e6a1-6a3b-0d46-4138a6233255 -- POST /v1/chat/completions 200 409.9ms", false},
		{"(ProxyActor pid=4290) INFO 2024-12-30 23:47:44,180 proxy 10.0.0.5 7bda8dd6 -- GET / 200 10.2ms", false},
		{"INFO 2026-03-10 16:00:00,637 proxy 10.0.0.5 2827688d -- 10.0.91.46:54321 POST /v1/chat/completions 200 409.9ms", false},
		{"INFO 2026-03-10 16:00:00,637 proxy 10.0.0.5 2827688d -- [::1]:54321 POST /v1/chat/completions 200 409.9ms", false},
		{"INFO 2023-07-20 13:47:54,221 http_proxy 127.0.0.1 123-234 / default http_proxy.py:538 - GET 200 8.9ms", false},
		// SGLang's own lines, its ranks after the date or none, the year
		// or none, and uvicorn's own behind its access date; its access
		// line; a format of a user's own with its date so bracketed.
		{"[03-10 16:00:00 TP0] Prefill batch. #new-seq: 1, #new-token: 104, #cached-token: 24, token usage: 0.01", true},
		{"[03-10 16:00:01 DP0 TP0] Decode batch. #running-req: 1, #token: 160", true},
		{"[03-10 15:59:41] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct')", true},
		{"[2026-03-10 16:00:00 TP0] Prefill batch. #new-seq: 1", true},
		{"[2026-03-10 15:59:58] INFO:     Started server process [1]", true},
		{`[2026-03-10 16:00:00] INFO:     10.0.3.200:38160 - "POST /v1/chat/completions HTTP/1.1" 200 OK`, false},
		{`[2026-03-10 16:00:00] 10.0.3.200 "POST /v1/chat/completions HTTP/1.1" 200 0.512`, false},
		// FastChat's own lines, uvicorn's own through its stderr among
		// them; uvicorn's access line through its stdout.
		{"2026-03-10 15:59:41 | INFO | model_worker | Loading the model ['vicuna-7b-v1.5'] on worker 6f1c2a3b ...", true},
		{"2026-03-10 15:59:55 | ERROR | stderr | INFO:     Started server process [4031]", true},
		{`2026-03-10 16:00:00 | INFO | stdout | INFO:     10.0.3.200:38160 - "POST /worker_generate_stream HTTP/1.1" 200 OK`, false},
		// Open WebUI's (loguru's), uvicorn's own among them; uvicorn's
		// access message, with the extra or without.
		{"2026-03-10 15:59:52.480 | INFO     | uvicorn.server:_serve:84 - Started server process [1]", true},
		{"2026-03-10 16:00:09.002 | ERROR    | open_webui.routers.openai:generate_chat_completion:837 - 429, message='Too Many Requests'", true},
		{`2026-03-10 16:00:00.637 | INFO     | uvicorn.protocols.http.httptools_impl:send:476 - 10.0.3.200:0 - "POST /api/chat/completions HTTP/1.1" 200 - {}`, false},
		{`2026-03-10 16:00:00.637 | INFO     | uvicorn.protocols.http.h11_impl:send:473 - [::1]:51234 - "GET /health HTTP/1.1" 200`, false},
		// NIM's own lines, with the year and without; its access lines.
		{"INFO 2025-09-10 16:31:52.7 on.py:48] Waiting for application startup.", true},
		{"INFO 07-23 22:28:38.478 metrics.py:334] Avg prompt throughput: 0.0 tokens/s", true},
		{`INFO 2025-09-10 19:08:21.184 httptools_impl.py:481] 172.19.0.3:35474 - "POST /v1/chat/completions HTTP/1.1" 200`, false},
		{`INFO 07-23 22:28:29.75 httptools_impl.py:481] 127.0.0.1:40962 - "GET /v1/health/ready HTTP/1.1" 200`, false},
		// LMDeploy's own lines and its hint; Xinference's, up to v2.8,
		// v2.9's and v2.10's, uvicorn's among them; their access lines.
		{"2025-12-05 10:00:03,459 - lmdeploy - INFO - async_engine.py:582 - session=1, input_tokens=1454", true},
		{"2025-07-08 11:20:26,869 - lmdeploy - WARNING - __init__.py:10 - Disable DLSlime Backend", true},
		{"2025-12-05 10:00:03,459 - lmdeploy - async_engine.py:582 - INFO", false}, // no level where LMDeploy writes it
		{"HINT:    Please open http://0.0.0.0:23333 in a browser for detailed api usage!!!", true},
		{"HINT:    Please open", false},
		{"2025-12-05 09:59:50,112 xinference.core.supervisor 2871 INFO     Xinference supervisor 0.0.0.0:41277 started", true},
		{"2025-12-05 09:59:52,388 uvicorn.error 1 INFO     Uvicorn running on http://0.0.0.0:9997 (Press CTRL+C to quit)", true},
		{"2026-03-10 16:00:07,001 xinference.core.model 3012 [worker@0.0.0.0:30001] WARNING  Model queue is full", true},
		{"2026-06-10T02:00:11.002Z ERROR xinference.core.model pid:3012 role:worker address:0.0.0.0:30001 node:xinf-0 Leave chat", true},
		{`2025-12-05 10:00:05,302 uvicorn.access 2790 INFO     10.0.3.5:40279 - "POST /v1/chat/completions HTTP/1.1" 200`, false},
		{`2026-03-10 16:00:05,302 uvicorn.access 2790 [supervisor@0.0.0.0:41277] INFO     10.0.3.5:40279 - "POST /v1/embeddings HTTP/1.1" 429`, false},
		{`2026-06-10T02:00:05.829Z INFO uvicorn.access pid:2790 role:supervisor address:0.0.0.0:41277 node:xinf-0 10.0.3.3:62585 - "GET /v1/models HTTP/1.1" 200`, false},
		{"2025-12-05 10:00:05,302 gateway 2790 GET /v1/models 200", false}, // no level after the process
		// The vLLM production-stack router's own lines, text and JSON;
		// a JSON line of another program's is not taken for one.
		{"[2025-09-05 10:00:02,950] INFO: Routing request 837e8231 with session id None to http://10.244.2.26:8000 at 1757066402.9508770, process time = 0.0036 (request.py:318:vllm_router.services.request_service.request)", true},
		{`{"timestamp": "2025-09-05 10:00:02,950", "level": "INFO", "logger": "vllm_router.services.request_service.request", "message": "Routing request 837e8231", "filename": "request.py", "lineno": 318}`, true},
		{`{"timestamp": "2025-09-05 10:00:02,950", "level": "INFO", "logger": "gateway", "message": "POST /v1/chat/completions 200"}`, false},
		// Access lines, whatever their first field.
		{`203.0.113.97 - - [10/Mar/2025:08:00:00 +0000] "GET /api HTTP/1.1" 200 9178 "-" "curl/8" 5 "r@docker" "http://10.0.1.5:8080" 9ms`, false},
		{`[2025-03-10T08:00:50.000Z] "GET /status/418 HTTP/1.1" 418 - via_upstream - "-" 0 135 4 4 "-" "curl/7.73.0" "8496" "h" "10.0.0.1:80"`, false},
		{`2025-03-10T08:00:00+08:00 10.0.0.1 "POST /v1/chat/completions HTTP/1.1" 200 0.512`, false},
		{`2025-03-10T08:00:00+08:00 10.0.0.1 - info 200`, false}, // a level past a field that is no time
		{`{"level":"info","msg":"Configuration loaded","time":"2025-03-10T08:00:00Z"}`, false},
		{"2025-03-10T08:00:00Z,info,200,0.5", false}, // a CSV row: one token
		{"2025-03-10", false},
		{"", false},
		{"INFO:     127.0.0.1:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK", false}, // uvicorn's access line
	} {
		if got := ownLogLine([]byte(c.line)); got != c.want {
			t.Errorf("ownLogLine(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestPastOwnLog: the lines skipped are the first ones that are a
// server's own; none when every whole line is one, or none is.
func TestPastOwnLog(t *testing.T) {
	own := "2025-03-10T08:00:00Z INF start\n\n2025-03-10T08:00:00Z INF ready\n"
	access := "203.0.113.97 - - [10/Mar/2025:08:00:00 +0000] \"GET / HTTP/1.1\" 200 1\n"
	for _, c := range []struct{ head, want string }{
		{own + access + own, access + own},
		{access + own, access + own},
		{own, own},
		{own + "203.0.113.97 - - [10/Mar", own + "203.0.113.97 - - [10/Mar"}, // a cut line: not known
	} {
		if got := string(pastOwnLog([]byte(c.head))); got != c.want {
			t.Errorf("pastOwnLog(%q) = %q, want %q", c.head, got, c.want)
		}
	}
}

// FuzzPastOwnLog: any head gives a suffix of itself, which starts with a
// line that is no server's own unless it is head itself. Each of its
// lines is one of ownShapes exactly when the expression matches it.
func FuzzPastOwnLog(f *testing.F) {
	f.Add([]byte("2025-03-10T08:00:00Z INF start\n203.0.113.97 - - [10/Mar/2025:08:00:00 +0000] \"GET / HTTP/1.1\" 200 1\n"))
	f.Add([]byte("2025/03/10 08:00:00 [notice] 1#0: x\n{\"a\":1}\n"))
	f.Add([]byte("2025-03-10\t08:00\t+0800\tWARN:\n"))
	f.Add([]byte("[2026-12-04 09:00:00.123][1][info][main] [source/server/server.cc:430] x\n" +
		"I1204 09:00:00.123456       7 controller.go:190] x\n/docker-entrypoint.sh: Configuration complete\n" +
		"10-listen-on-ipv6-by-default.sh: info: x\n20-envsubst-on-templates.envsh: x\n" +
		"-------------------------------------------------------------------------------\n" +
		"NGINX Ingress controller\n  Release:       v1.9.4\n10.0.0.1 - - x\nE1204\nI12\n1-x.sh: x\n"))
	f.Add([]byte("INFO 2026-03-10 15:59:58,001 proxy 10.0.0.5 -- x\n(ProxyActor pid=1) CRITICAL 2026-03-10 16:00:00,637 proxy a b -- GET / 200 1.0ms\n"))
	f.Add([]byte("llm_load_print_meta: x\nVERB [ f] m | tid=\"1\" timestamp=2\n ERR [g] m | timestamp=3\n" +
		"INFO [      log_server_request] request | tid=\"1\" timestamp=1 remote_addr=\"a\" remote_port=1 status=200 method=\"GET\" path=\"/\" params={}\n"))
	f.Add([]byte("[03-10 16:00:00 TP0] Prefill batch.\n[2026-03-10 15:59:58] INFO:     Started server process [1]\n" +
		"2026-03-10 15:59:55 | ERROR | stderr | INFO:     Started\n2026-03-10 16:00:00.637 | INFO     | a:b:1 - 1.2.3.4:0 - \"GET / HTTP/1.1\" 200\n"))
	f.Add([]byte("INFO 2025-09-10 16:31:52.7 on.py:48] x\nHINT:    Please open a in a browser for detailed api usage!!!\n" +
		"2025-12-05 10:00:03,459 - lmdeploy - INFO - a.py:1 - x\n2025-12-05 09:59:50,112 a.b 1 [r@a:1] INFO     x\n" +
		"[2025-09-05 10:00:02,950] INFO: Routing\n{\"timestamp\": \"2025-09-05 10:00:02,950\", \"logger\": \"vllm_router.x\"}\n" +
		"INFO:     1.2.3.4:5 - \"GET / HTTP/1.1\" 200 OK\n"))
	f.Fuzz(func(t *testing.T, head []byte) {
		for _, l := range bytes.Split(head, []byte("\n")) {
			if ownOtherShape(l) != ownShapes().Match(l) {
				t.Fatalf("ownOtherShape(%q) = %v, the expression says otherwise", l, ownOtherShape(l))
			}
		}
		past := pastOwnLog(head)
		if !bytes.HasSuffix(head, past) {
			t.Fatalf("pastOwnLog(%q) = %q, not a suffix", head, past)
		}
		if len(past) == len(head) {
			return
		}
		if len(past) == 0 {
			t.Fatalf("pastOwnLog(%q) passed every line", head)
		}
		first, _, _ := bytes.Cut(past, []byte("\n"))
		if l := bytes.TrimRight(first, "\r"); blank(l) || ownLogLine(l) {
			t.Fatalf("pastOwnLog(%q) stops at %q", head, first)
		}
	})
}
