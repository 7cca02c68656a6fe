package ingest

import (
	"fmt"
	"iter"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
)

// ignored, as a source field's Field, means the source's name feeds
// nothing, whatever the generic table says of it (LiteLLM's "status" is
// "success", not an HTTP code).
const ignored = NumFields

// sourceField is one name a source writes and what it means.
type sourceField struct {
	name  string
	field Field
	unit  Unit // UnitNone: the canonical unit; unitUUIDv7 for an id, unitOutcome for an outcome
}

// Units of a source's name that say how it is read rather than in what
// unit: unitUUIDv7, as the unit of a source's time, that the name holds
// a UUIDv7, the instant it was made at in its first 48 bits
// (Binding.UUIDv7); unitOutcome, as the unit of a status, that the name
// holds a call's outcome, a word or an error's message as well as a
// number (Binding.Outcome, statusOfText); unitPhaseMs, as the unit of a
// duration, that the name holds one phase of it in ms, which the
// record's other phases add to (Binding.Part): a source that logs a
// request's time only as its phases (Akamai's).
const (
	unitPhaseMs Unit = 253
	unitOutcome Unit = 254
	unitUUIDv7  Unit = 255
)

// signature recognises a source: at least need of names among the first
// record's field names, or the dotted paths of its nested values
// ("properties.backendTime"), that are present (exact spelling; "x*"
// matches any name starting with x).
type signature struct {
	need  int
	names []string
}

// source is one program that writes access logs (SPEC §3 "Sources"):
// how its files are recognised and what its own names mean. A source's
// fields come on top of the generic aliases and beat them.
type source struct {
	name  string
	title string // what the README and reports call it
	// any of these signatures recognises it; text formats are
	// recognised by their line shape instead (format.go).
	signatures []signature
	// unless, when set, are names (spelt as a signature's) any one of
	// which among the first record's makes no signature match: a
	// source told by generic names alone (nginx's JSON) is not one
	// whose own names the record carries too (TokenHub's).
	unless []string
	fields []sourceField
	// loc, when set, is the zone of the source's times without one: the
	// program always writes them in it.
	loc *time.Location
	// requests, when set, are the kinds (FKind) of the source's records
	// that are requests (one ending in "*", those that begin so); a
	// record of another kind is passed over and counted
	// (FileStats.PassedOver), one without a kind read.
	requests []string
	// twice, when set, tells from a JSON-lines file's first lines that
	// the source logged each request twice (two of its loggers on), and
	// gives the kinds then read as requests, one of each request's two
	// records; nil when it did not.
	twice func(head []byte) []string
	// failed, when set, is the kind of the source's record of a call that
	// failed, whose first-token time is no first token (the source
	// writes the call's end there): such a record has no ttft.
	failed string
	// minusOne: the source writes -1 for a number it has no value of
	// (Binding.MinusOne).
	minusOne bool
	// succeeded, when set, is the kind of the source's record of a call
	// that succeeded, whose status is 200 when it has none (the source
	// writes an HTTP status for a failed call only).
	succeeded string
	// wholeSeconds: the source may write its start and end instants to
	// the second (Cloudflare's unix and rfc3339 timestamp formats); a
	// request_time derived from two such (0, 1000, 2000 ms for calls of 2
	// ms to 3 s) is none.
	wholeSeconds bool
	// canonical: the source's names are SPEC §3's canonical names and
	// generic aliases alone, none of its own (TokenHub's, nginx's
	// JSON): a file of it reads a record of a time alone (stray), and
	// may be a program's own log (jsonOwnLog), as one of no source.
	canonical bool
	// durationFormat, when set, is the name of the source's duration
	// that its program writes in the unit its configuration chooses
	// (Caddy's duration_format): read in the unit the file's values tell
	// (durationUnit), else in the field's.
	durationFormat string
	// rendered: the source's message is rendered from its event's own
	// fields (Serilog's from its message template), never a line a
	// shipper read: a file of it is read by its names, not as the lines
	// in its messages, also when its first record is no request.
	rendered bool
}

// sources is the table of SPEC §3 "Sources", most specific first: the
// first whose signature a file's first record matches is its source.
var sources = []*source{
	{name: "clb", title: "Tencent CLB (bracketed, or a CLS export of CLB logs)",
		signatures: []signature{{1, []string{"stgw_request_id", "vsvc_id", "lb_id", "vip_vpcid"}}}},
	// Tencent Cloud API Gateway's service log, as its console exports it
	// and CLS keeps it: its app_id is the account's (the same on every
	// record), not the caller's; the caller is cip, the client its
	// address. The times are nginx's (req_t, ups_rsp_t: s).
	{name: "tencent-apigw", title: "Tencent Cloud API Gateway service log",
		signatures: []signature{{3, []string{"service_id", "api_id", "env_name", "rsp_st", "ups_st", "uip", "vip", "ups_rsp_t"}}},
		fields: []sourceField{
			{"app_id", ignored, 0}, {"cip", FRemoteAddr, 0}, {"ups_st", FUpstreamStatus, 0}, {"uip", FUpstreamAddr, 0},
		}},
	{name: "higress", title: "Higress (Envoy JSON with ai_log)",
		signatures: []signature{{1, []string{"ai_log"}},
			{4, []string{"upstream_service_time", "response_code", "input_token", "output_token", "model", "llm_first_token_duration", "llm_service_duration"}}},
		fields: envoyFields},
	{name: "traefik", title: "Traefik JSON",
		// A log that keeps few fields (fields.defaultMode drop) is told
		// by the names only Traefik writes; OriginStatus is then the
		// status, when DownstreamStatus was dropped.
		signatures: []signature{{2, []string{"RouterName", "DownstreamStatus", "Duration", "OriginDuration", "StartUTC", "ServiceName"}},
			{2, []string{"OriginStatus", "OriginContentSize", "DownstreamContentSize", "ClientHost", "StartLocal", "RetryAttempts", "RequestCount", "GzipRatio", "Overhead", "ServiceURL", "ServiceAddr", "FrontendName", "BackendName", "BackendURL"}}},
		fields: []sourceField{
			{"StartUTC", FTime, 0}, {"StartLocal", FTime, 0},
			{"Duration", FRequestTime, UnitNano}, {"OriginDuration", FUpstreamResponseTime, UnitNano},
			{"DownstreamStatus", FStatus, 0}, {"OriginStatus", FUpstreamStatus, 0}, {"OriginStatus", FStatus, 0},
			{"RequestMethod", FMethod, 0}, {"RequestPath", FURI, 0},
			{"ClientHost", FRemoteAddr, 0}, {"ClientAddr", FRemoteAddr, 0},
			{"ClientUsername", FClient, 0},
			{"ServiceAddr", FUpstreamAddr, 0}, {"ServiceURL", FUpstreamAddr, 0},
			// The time the line was written, not the request's start.
			{"time", ignored, 0},
		}},
	// Caddy's access log (http.log.access): "duration" is seconds by
	// default (duration_format), not the generic alias's milliseconds.
	// Caddy writes its other loggers' lines to the same stream as the
	// access log (caddy run's stderr): the reverse proxy's "upstream
	// roundtrip" (a duration and status of the upstream's, of a request
	// the access log has too), http.log.error, tls, admin. Only the
	// access logger's (http.log.access, or a named http.log.access.log0)
	// are requests.
	{name: "caddy", title: "Caddy JSON access log",
		signatures: []signature{{3, []string{"logger", "bytes_read", "user_id", "resp_headers", "duration", "size"}}},
		fields: []sourceField{
			{"ts", FTime, 0}, {"duration", FRequestTime, UnitSecond}, {"status", FStatus, 0},
			{"request.method", FMethod, 0}, {"request.uri", FURI, 0}, {"request.host", FHost, 0},
			{"request.client_ip", FRemoteAddr, 0}, {"request.remote_ip", FRemoteAddr, 0},
			{"user_id", FClient, 0}, {"logger", FKind, 0},
		},
		requests:       []string{"http.log.access", "http.log.access.*"},
		durationFormat: "duration"},
	// Tyk Gateway's analytics record (tyk-pump's analytics.AnalyticsRecord,
	// its json tags: what the file, stdout, Kafka, Elasticsearch… pumps
	// write). Its request_time is ms ("3 for a 3ms roundtrip", equal to
	// latency.total), not nginx's seconds; latency.upstream is the
	// gateway-to-upstream roundtrip, ms. The client is the session's
	// alias, else api_key: the key as sent, or hashed when the gateway
	// hashes keys, or 00000000 for an unauthenticated request. oauth_id
	// (the OAuth client, empty without OAuth) is not read: a file never
	// mixes two sources of client, and api_key is always set.
	// geo.country.iso_code is the caller's country by MaxMind, not the
	// service's region: no region is read. The MongoDB pump's documents
	// (bson: requesttime, responsecode, apikey…) and the CSV pump's
	// header (Go field names, TimeStamp in time.Time.String's layout) are
	// other names, not read as Tyk's.
	{name: "tyk", title: "Tyk Gateway analytics records (Tyk Pump JSON)",
		signatures: []signature{{4, []string{"api_id", "org_id", "oauth_id", "api_key", "api_version", "api_name",
			"raw_request", "raw_response", "raw_path", "ip_address", "track_path", "latency.total", "latency.upstream"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0},
			{"request_time", FRequestTime, UnitMilli}, {"latency.total", FRequestTime, UnitMilli},
			{"latency.upstream", FUpstreamResponseTime, UnitMilli},
			{"response_code", FStatus, 0}, {"method", FMethod, 0},
			// Path decoded; raw_path, as the docs say, the same.
			{"path", FURI, 0}, {"raw_path", FURI, 0}, {"host", FHost, 0},
			{"ip_address", FRemoteAddr, 0},
			{"alias", FClient, 0}, {"api_key", FClient, 0},
			// The record's expiry in storage, not the request's time.
			{"expireAt", ignored, 0},
		}},
	// Kong's AI analytics moved as it grew: 3.6 wrote ai.meta.* and
	// ai.usage.*; 3.7 and 3.8 ai.<plugin>.meta.* and .usage.* under the
	// plugin's name (ai-proxy, ai-proxy-advanced: kong/llm/drivers/
	// shared.lua), 3.7 with prompt_token, completion_token;
	// 3.9 on ai.proxy.* (its observability namespace), 3.12 adding
	// usage.time_to_first_token and meta.request_mode (oneshot, stream or
	// realtime: the last is neither, and is left unread).
	// Hugging Face text-generation-inference's router, its JSON log
	// (--json-output: tracing's JSON with the event flattened, the
	// request's span under "span"): each request's "Success" event
	// carries the span's times as Rust writes a Duration ("2.731219246s",
	// "1.799491ms"). The span's name is the route's handler (generate,
	// generate_stream, chat_completions): the uri. An event without a
	// span, the server's own ("Connected"), is passed over; a failed
	// request's ERROR event, with its span but no times, is a request
	// without request_time.
	// Triton Inference Server's trace file: the record its reader makes
	// of each request's trace (triton.go), its model and its time from
	// the frontend's receiving to its sending (ns); no wall time.
	{name: "triton", title: "Triton Inference Server trace file",
		signatures: []signature{{2, []string{tritonTraceName, tritonNsName}}},
		fields: []sourceField{
			{tritonNsName, FRequestTime, UnitNano}, {"model_name", FModel, 0}, {tritonTraceName, ignored, 0},
		}},
	{name: "tgi", title: "text-generation-inference router (JSON)",
		signatures: []signature{{2, []string{"span.total_time", "span.validation_time", "span.queue_time", "span.inference_time", "span.time_per_token"}}},
		fields: []sourceField{
			{"span.total_time", FRequestTime, UnitSecond}, {"span.name", FURI, 0},
		}},
	// SGLang's router, the SGLang Model Gateway (smg; sglang_router_rs
	// before it), its JSON log (--log-json: tracing's JSON with the event
	// flattened, sgl-model-gateway/src/observability/logging.rs). Each
	// request runs in a span "http_request" of method, uri, version,
	// request_id, then status_code and latency recorded when it is
	// answered (sgl-model-gateway/src/middleware.rs, RequestSpan and
	// ResponseLogger), and logs twice: "started processing request",
	// without them, passed over, then the answer, the request:
	// "finished processing request", or "request failed with client
	// error" or "… server error". latency is µs, an integer ("Use
	// microseconds as integer"); sgl-router/src/middleware.rs, before,
	// recorded format!("{:?}", latency), Rust's Debug of a Duration
	// ("810.637µs", "1.2s"), read by the unit it names. The message is
	// the record's kind: tower-http's "response failed" after a 5xx (when
	// RUST_LOG lets it through) and the server's own lines are no
	// requests. The time is ChronoUtc's "%Y-%m-%d %H:%M:%S" (with %.3f
	// under SGLANG_LOG_MS): UTC, written without a zone. The started
	// line names module ("smg") where the older router's does not: a
	// file of the older router is told by its first answer.
	{name: "smg", title: "SGLang Model Gateway / sglang-router (JSON or text)",
		signatures: []signature{
			{6, []string{"span.method", "span.uri", "span.version", "span.request_id", "span.status_code", "span.latency"}},
			{5, []string{"span.method", "span.uri", "span.version", "span.request_id", "span.module"}}},
		fields: []sourceField{
			{"span.latency", FRequestTime, UnitMicro}, {"span.status_code", FStatus, 0},
			{"span.method", FMethod, 0}, {"span.uri", FURI, 0}, {"message", FKind, 0},
			// tower-http's DefaultOnFailure writes its own latency
			// ("2334 ms") beside the span's: passed over with its event.
			{"latency", ignored, 0},
		},
		requests: []string{"finished processing request", "request failed with client error", "request failed with server error"},
		loc:      time.UTC},
	// tower-http's TraceLayer (what most axum and tonic services log
	// their requests with) as tracing-subscriber's JSON formatter writes
	// its events (tokio-rs/tracing tracing-subscriber/src/fmt/format/
	// json.rs: timestamp, level, the event's fields under "fields", or
	// at the top with flatten_event, target, then the current span under
	// "span" and every span under "spans"). TraceLayer's span is
	// DefaultMakeSpan's "request" of method, uri and version
	// (tower-rs/tower-http tower-http/src/trace/make_span.rs); within it
	// each request logs "started processing request" (on_request.rs),
	// then "finished processing request" with latency and status
	// (on_response.rs, DefaultOnResponse), and after a 5xx or an error
	// "response failed" with classification and latency (on_failure.rs).
	// The finished event is the request: its latency is written with its
	// unit after a space ("778 ms"; LatencyUnit::Millis by default, or
	// "μs", "ns", "s"), read in that unit; its status the response's
	// (none for a gRPC stream without grpc-status). The message is the
	// record's kind: the other two events, and the service's own lines,
	// are no requests.
	{name: "tower-http", title: "tower-http TraceLayer (axum, tonic) events, tracing-subscriber JSON or text",
		signatures: []signature{{4, []string{"span.method", "span.uri", "span.version", "span.name"}}},
		fields: []sourceField{
			{"fields.latency", FRequestTime, UnitMilli}, {"fields.status", FStatus, 0}, {"fields.message", FKind, 0},
			{"latency", FRequestTime, UnitMilli}, {"status", FStatus, 0}, {"message", FKind, 0},
			{"span.method", FMethod, 0}, {"span.uri", FURI, 0},
		},
		requests: []string{"finished processing request"}},
	// Tencent Cloud TSE's Kong gateway writes to CLS through its CLS Log
	// plugin a record of flat names, every value a string (its manual's
	// "插件上报日志到 CLS", cloud.tencent.com/document/product/1364):
	// request_time, upstream_response_time, latency_proxy and
	// latency_kong are Kong's latencies, ms (its example: 3 = 1 + 2), not
	// nginx's seconds; resp_status, req_method, req_uri, consumer_name.
	{name: "kong", title: "Kong (log plugins, AI proxy)",
		signatures: []signature{{2, []string{"started_at", "latencies", "tries", "upstream_uri", "workspace"}}},
		fields: []sourceField{
			{"started_at", FTime, UnitMilli},
			{"latencies.request", FRequestTime, UnitMilli}, {"latencies.proxy", FUpstreamResponseTime, UnitMilli},
			{"ai.proxy.meta.llm_latency", FUpstreamResponseTime, UnitMilli},
			{"ai.ai-proxy.meta.llm_latency", FUpstreamResponseTime, UnitMilli},
			{"ai.ai-proxy-advanced.meta.llm_latency", FUpstreamResponseTime, UnitMilli},
			{"response.status", FStatus, 0}, {"request.method", FMethod, 0}, {"request.uri", FURI, 0},
			{"client_ip", FRemoteAddr, 0}, {"consumer.username", FClient, 0}, {"consumer.id", FClient, 0},
			{"request_time", FRequestTime, UnitMilli},
			{"upstream_response_time", FUpstreamResponseTime, UnitMilli}, {"latency_proxy", FUpstreamResponseTime, UnitMilli},
			{"resp_status", FStatus, 0}, {"req_method", FMethod, 0}, {"req_uri", FURI, 0},
			{"consumer_name", FClient, 0},
			{"ai.proxy.meta.response_model", FModel, 0}, {"ai.proxy.meta.request_model", FModel, 0},
			{"ai.ai-proxy.meta.response_model", FModel, 0}, {"ai.meta.response_model", FModel, 0},
			{"ai.ai-proxy-advanced.meta.response_model", FModel, 0},
			{"ai.proxy.usage.prompt_tokens", FPromptTokens, 0}, {"ai.proxy.usage.prompt_token", FPromptTokens, 0},
			{"ai.ai-proxy.usage.prompt_tokens", FPromptTokens, 0}, {"ai.ai-proxy.usage.prompt_token", FPromptTokens, 0},
			{"ai.ai-proxy-advanced.usage.prompt_tokens", FPromptTokens, 0}, {"ai.ai-proxy-advanced.usage.prompt_token", FPromptTokens, 0},
			{"ai.usage.prompt_tokens", FPromptTokens, 0},
			{"ai.proxy.usage.completion_tokens", FCompletionTokens, 0}, {"ai.proxy.usage.completion_token", FCompletionTokens, 0},
			{"ai.ai-proxy.usage.completion_tokens", FCompletionTokens, 0}, {"ai.ai-proxy.usage.completion_token", FCompletionTokens, 0},
			{"ai.ai-proxy-advanced.usage.completion_tokens", FCompletionTokens, 0}, {"ai.ai-proxy-advanced.usage.completion_token", FCompletionTokens, 0},
			{"ai.usage.completion_tokens", FCompletionTokens, 0},
			{"ai.proxy.usage.time_to_first_token", FTTFT, UnitMilli},
			{"ai.proxy.meta.request_mode", FStream, 0},
		}},
	{name: "apisix", title: "APISIX (loggers, ai-proxy, BlueKing AI gateway)",
		signatures: []signature{{2, []string{"apisix_latency", "upstream_latency", "route_id", "service_id", "request_type", "llm_time_to_first_token", "llm_summary"}},
			// The loggers' full log before 2.13 (log-util's
			// get_full_log): no apisix_latency nor upstream_latency, and
			// service_id "" for a route without a service.
			{3, []string{"route_id", "server.hostname", "server.version"}}},
		fields: []sourceField{
			{"start_time", FTime, UnitMilli},
			{"latency", FRequestTime, UnitMilli}, {"upstream_latency", FUpstreamResponseTime, UnitMilli},
			// ai-proxy's logging summary (logging.summaries): its duration
			// is llm_time_to_first_token (ai-proxy's set_logging), its
			// upstream_response_time $apisix_upstream_response_time,
			// whole ms for an AI call.
			{"llm_summary.duration", FTTFT, UnitMilli},
			{"llm_summary.upstream_response_time", FUpstreamResponseTime, UnitMilli},
			{"llm_summary.stream", FStream, 0},
			{"response.status", FStatus, 0}, {"request.method", FMethod, 0}, {"request.uri", FURI, 0},
			{"client_ip", FRemoteAddr, 0}, {"consumer.username", FClient, 0}, {"consumer_name", FClient, 0},
			{"upstream", FUpstreamAddr, 0},
			{"request_type", FStream, 0}, {"llm_time_to_first_token", FTTFT, UnitMilli},
			{"llm_model", FModel, 0}, {"llm_summary.model", FModel, 0}, {"request_llm_model", FModel, 0},
			{"llm_summary.request_model", FModel, 0},
			{"llm_prompt_tokens", FPromptTokens, 0}, {"llm_summary.prompt_tokens", FPromptTokens, 0},
			{"llm_completion_tokens", FCompletionTokens, 0}, {"llm_summary.completion_tokens", FCompletionTokens, 0},
		}},
	// Cilium's Hubble flows of L7 HTTP traffic, as hubble observe -o json
	// prints them ({"flow":{…},"node_name":…,"time":…}; cilium's
	// flow.proto): an exchange is two flows, its REQUEST and its
	// RESPONSE; the response's carries the status (l7.http.code) and the
	// time the exchange took (l7.latency_ns, ns, a decimal string), and
	// is the request: a REQUEST flow is passed over. A response goes
	// back to the caller: its IP.destination is the client's address.
	// Its time is the response's.
	{name: "hubble", title: "Cilium Hubble L7 flows (hubble observe -o json)",
		signatures: []signature{{2, []string{"flow.l7.type", "flow.verdict", "flow.traffic_direction", "flow.Summary", "flow.event_type"}}},
		fields: []sourceField{
			{"flow.time", FTime, 0}, {"time", ignored, 0},
			{"flow.l7.latency_ns", FRequestTime, UnitNano}, {"flow.l7.http.code", FStatus, 0},
			{"flow.l7.http.method", FMethod, 0}, {"flow.l7.http.url", FURI, 0},
			{"flow.IP.destination", FRemoteAddr, 0}, {"flow.l7.type", FKind, 0},
		},
		requests: []string{"RESPONSE"}},
	// Gloo Edge's (Gloo Gateway's) JSON access log as its documentation
	// configures it (the Gateway's accessLoggingService jsonFormat):
	// Envoy's operators under names of its own, clientDuration
	// %DURATION% and targetDuration %RESPONSE_DURATION% (the start to the
	// upstream's first byte) in ms, systemTime %START_TIME%, responseCode
	// %RESPONSE_CODE%, whose 0 is Envoy's: the client gone (statusFix).
	{name: "gloo", title: "Gloo Edge JSON access log",
		signatures: []signature{{2, []string{"clientDuration", "targetDuration", "upstreamName", "systemTime"}}},
		fields: []sourceField{
			{"systemTime", FTime, 0}, {"clientDuration", FRequestTime, UnitMilli},
			{"targetDuration", FUpstreamHeaderTime, UnitMilli}, {"responseCode", FStatus, 0},
			{"httpMethod", FMethod, 0}, {"path", FURI, 0}, {"upstreamName", FUpstreamAddr, 0},
		}},
	// logback-access's events as logstash-logback-encoder's
	// LogstashAccessEncoder writes them (logfellow/logstash-logback-encoder
	// README.md, "AccessEvent Fields"; src/main/java/net/logstash/logback/
	// fieldnames/LogstashAccessFieldNames.java): @timestamp, @version, a
	// message in the form of Apache's common log format ("${remoteHost} -
	// ${remoteUser} [${timestamp}] \"${requestUrl}\" ${statusCode}
	// ${contentLength}", which has no duration), and fields of their own:
	// method, protocol, status_code, requested_url (the request line),
	// requested_uri, remote_host, HOSTNAME (the remote host again),
	// remote_user, content_length and elapsed_time, "Elapsed time in
	// millis" (IAccessEvent.getElapsedTime). Read by those fields, not as a
	// shipper's record of its message, whose line gives no request time.
	{name: "logstash-access", title: "logback-access JSON (logstash-logback-encoder's LogstashAccessEncoder)",
		signatures: []signature{{3, []string{"elapsed_time", "status_code", "requested_uri", "requested_url", "remote_host", "content_length"}}},
		fields: []sourceField{
			{"elapsed_time", FRequestTime, UnitMilli}, {"status_code", FStatus, 0},
			{"method", FMethod, 0}, {"requested_uri", FURI, 0}, {"remote_host", FRemoteAddr, 0},
			{"requested_url", ignored, 0}, {"HOSTNAME", ignored, 0}, {"message", ignored, 0},
		}},
	// agentgateway's request log (agentgateway/agentgateway
	// crates/agentgateway/src/telemetry/log.rs, the kv it hands to
	// crates/core/src/telemetry.rs log() with the target "request"):
	// with LOG_FORMAT=json a JSON object a line whose "scope" is the
	// target, else "date\tlevel\trequest k=v …" (logfmt.go). Its own
	// tracing lines go to the same stdout under other scopes ("app",
	// "proxy::gateway"…): only the request target's are requests.
	// duration is format!("{}ms", as_millis()), a text with its unit;
	// agw.ai.time_to_first_token (since 2026-08, #2920) as_secs_f64(),
	// seconds; http.status a number; src.addr the peer's ip:port;
	// jwt.sub the caller authenticated by a JWT; endpoint the backend
	// it went to. The model is the one asked (gen_ai.request.model, a
	// failed call's too), not the dated one that answered. Before
	// 0.10 (#493) the names were llm.request.model, llm.request.tokens,
	// llm.response.tokens.
	{name: "agentgateway", title: "agentgateway request log (JSON or text)",
		signatures: []signature{{4, []string{"src.addr", "http.method", "http.path", "http.status", "http.host", "http.version"}}},
		fields: []sourceField{
			{"duration", FRequestTime, UnitMilli}, {"agw.ai.time_to_first_token", FTTFT, UnitSecond},
			{"http.status", FStatus, 0}, {"http.method", FMethod, 0}, {"http.path", FURI, 0}, {"http.host", FHost, 0},
			{"jwt.sub", FClient, 0}, {"src.addr", FRemoteAddr, 0}, {"endpoint", FUpstreamAddr, 0},
			{"gen_ai.request.model", FModel, 0}, {"llm.request.model", FModel, 0},
			{"gen_ai.usage.input_tokens", FPromptTokens, 0}, {"llm.request.tokens", FPromptTokens, 0},
			{"gen_ai.usage.output_tokens", FCompletionTokens, 0}, {"llm.response.tokens", FCompletionTokens, 0},
			{"scope", FKind, 0},
		},
		requests: []string{"request"}},
	{name: "envoy", title: "Envoy / Istio JSON",
		signatures: []signature{{2, []string{"upstream_service_time", "response_code", "response_flags", "upstream_cluster", "downstream_remote_address", "upstream_host"}}},
		fields:     envoyFields},
	// Lunary's runs, as its API formats them (lunary-ai/lunary
	// packages/backend/src/api/v1/runs/index.ts, formatRun): GET
	// /v1/runs, {"total","page","limit","data":[…]}, and GET
	// /v1/runs/export, JSON lines (export.ts; its CSV is json2csv's of
	// the same objects, the nested ones as JSON text). createdAt and
	// endedAt are the run's start and end, RFC 3339 to the ms; duration
	// is the Postgres interval ended_at − created_at as text
	// ("00:00:01.75", packages/db/0001-init.sql), not a number of ms:
	// the duration is end − start. Of the run types (llm, embed, chain,
	// agent, tool, chat, thread, custom-event…) llm and embed runs are
	// calls to a model, whose name is the model's (the SDKs name an llm
	// run by its model: the cost mapping matches it, runs/utils.ts).
	// status is "started", "success" or "error" (runs/ingest.ts), and
	// a failed run's error {message, stack} the exception's: the status
	// its message names, or none. The caller is the end user the run
	// was tracked for (user.externalId); user.createdAt and lastSeen
	// are that user's, not the call's.
	{name: "lunary", title: "Lunary runs (API, JSON lines and CSV export)",
		signatures: []signature{{2, []string{"siblingRunId", "parentFeedback", "templateVersionId", "templateSlug",
			"isPublic", "toxicity", "feedbacks", "endedAt"}}},
		fields: []sourceField{
			{"createdAt", FTime, 0}, {"endedAt", FEndTime, 0},
			{"type", FKind, 0}, {"name", FModel, 0},
			{"error.message", FStatus, unitOutcome}, {"status", FStatus, unitOutcome},
			{"tokens.prompt", FPromptTokens, 0}, {"tokens.completion", FCompletionTokens, 0},
			{"user.externalId", FClient, 0},
			{"duration", ignored, 0},
			{"user.createdAt", ignored, 0}, {"user.lastSeen", ignored, 0},
		},
		requests: []string{"llm", "embed"}},
	// Opik's spans (comet-ml/opik apps/opik-backend/src/main/java/com/
	// comet/opik/api/Span.java, snake_case): a page of its REST API's GET
	// /v1/private/spans, {"page","size","total","content":[…],
	// "sortable_by"}, its stream's JSON lines (POST
	// /v1/private/spans/stream) and the SDK's dumps of them. start_time
	// and end_time are RFC 3339 (Instant); duration is ms, "as a decimal
	// number to support sub-millisecond precision". Of the span types
	// (domain/SpanType.java: general, tool, llm, guardrail, atomic_*)
	// llm spans are calls to a model; the general span of an agent or a
	// function spans its children, and is passed over with the others.
	// error_info {exception_type, message, traceback} is the exception
	// the span ended in (api/ErrorInfo.java): the HTTP status its message
	// names, or none; a span without one is a 200 (statusFix). usage is
	// the provider's (prompt_tokens, completion_tokens); created_at and
	// last_updated_at are the row's, not the call's.
	{name: "opik", title: "Opik spans (REST API, stream, SDK dumps)",
		signatures: []signature{{3, []string{"parent_span_id", "error_info", "total_estimated_cost", "total_estimated_cost_version",
			"last_updated_at", "last_updated_by", "feedback_scores", "created_by"}}},
		fields: []sourceField{
			{"start_time", FTime, 0}, {"end_time", FEndTime, 0}, {"duration", FRequestTime, UnitMilli},
			{"type", FKind, 0}, {"model", FModel, 0},
			{"error_info.message", FStatus, unitOutcome},
			{"usage.prompt_tokens", FPromptTokens, 0}, {"usage.completion_tokens", FCompletionTokens, 0},
			{"created_at", ignored, 0}, {"last_updated_at", ignored, 0},
		},
		requests: []string{"llm"}},
	// Laminar's spans, as its SQL API gives a query of its spans table
	// (lmnr-ai/lmnr app-server/src/api/v1/sql.rs: POST /v1/sql/query,
	// {"data":[…]}, ClickHouse's rows as JSON; the table's columns in
	// app-server/src/query_engine/schema.rs). start_time and end_time
	// are DateTime64(9, 'UTC'), written without a zone; duration is
	// "Duration in seconds". Of the span types (DEFAULT, LLM, EXECUTOR,
	// EVALUATOR, EVALUATION, TOOL, HUMAN_EVALUATOR, CACHED, UNKNOWN) LLM
	// spans are calls to a model; a CACHED one is an LLM span answered
	// from Laminar's cache (traces/spans.rs, is_llm_span: its
	// lmnr.span.original_type LLM), no call, passed over. status is "success" or "error": a 200, or none
	// (the error's text is in the span's events, not in the table), so
	// an error is counted unreadable. model is coalesce(request_model,
	// response_model): response_model, the model that answered, first;
	// input_tokens, output_tokens. path is the span's place in its trace
	// ("outer.inner"), no URI; name the span's.
	{name: "laminar", title: "Laminar spans (SQL API)",
		// request_model and response_model are Helicone's names too:
		// they tell Laminar's only beside span_type.
		signatures: []signature{{2, []string{"span_type", "input_cost", "output_cost", "tool_definitions"}},
			{3, []string{"span_type", "request_model", "response_model"}}},
		fields: []sourceField{
			{"start_time", FTime, 0}, {"end_time", FEndTime, 0}, {"duration", FRequestTime, UnitSecond},
			{"span_type", FKind, 0}, {"status", FStatus, unitOutcome},
			{"response_model", FModel, 0}, {"request_model", FModel, 0}, {"model", FModel, 0},
			{"input_tokens", FPromptTokens, 0}, {"output_tokens", FCompletionTokens, 0},
			{"path", ignored, 0}, {"name", ignored, 0},
		},
		requests: []string{"LLM"},
		loc:      time.UTC},
	// PromptLayer's request logs, as its REST API gives them
	// (docs.promptlayer.com/reference/search-request-logs: POST
	// /api/public/v2/requests/search, {"success","items":[…],"page",
	// "pages","per_page","total",…}; reference/get-request: GET
	// /api/public/v2/requests/{id}, one object with its prompt_blueprint).
	// Every log is one call to a model (engine, or model in the latter):
	// none is passed over. request_start_time and request_end_time are
	// ISO 8601, UTC (written without a zone in the docs' first example);
	// latency_ms is "derived from start and end times", ms; latency, in
	// an item, is not documented in a unit, and is not read. status is
	// SUCCESS (the default), WARNING ("succeeded but had issues") or
	// ERROR (reference/log-request), and error_message the failure's
	// text: the HTTP status it names, else SUCCESS and WARNING a 200,
	// ERROR none (counted unreadable); a log without a status is a
	// SUCCESS, as logging defaults it (statusFix). error_type
	// (PROVIDER_RATE_LIMIT, PROVIDER_TIMEOUT…) is PromptLayer's
	// category, no HTTP status. metadata is the caller's own key-value
	// list: no client is read from it.
	{name: "promptlayer", title: "PromptLayer request logs (REST API)",
		signatures: []signature{{2, []string{"request_start_time", "request_end_time", "provider_type", "tags_array",
			"prompt_blueprint", "prompt_version_number"}}},
		fields: []sourceField{
			{"request_start_time", FTime, 0}, {"request_end_time", FEndTime, 0}, {"latency_ms", FRequestTime, UnitMilli},
			{"engine", FModel, 0}, {"model", FModel, 0},
			{"input_tokens", FPromptTokens, 0}, {"output_tokens", FCompletionTokens, 0},
			{"error_message", FStatus, unitOutcome}, {"status", FStatus, unitOutcome},
			{"latency", ignored, 0}, {"error_type", ignored, 0}, {"metadata", ignored, 0},
		},
		loc: time.UTC},
	// W&B Weave's calls (wandb/weave weave/trace_server/
	// trace_server_interface.py, CallSchema): the JSON lines of its
	// trace server's POST /calls/stream_query and the SDK's dumps of
	// them. op_name is the op's URI (weave:///entity/project/op/
	// openai.chat.completions.create:digest); started_at and ended_at
	// are ISO 8601 to the µs, ended_at null while the call runs.
	// summary.weave is derived by the server on read (trace_server_
	// common.py, make_derived_summary_fields): status success, error
	// (exception set) or running, and latency_ms, ended_at − started_at
	// cut to whole ms, which the two instants give to the µs, so it is
	// not read. attributes.weave.kind is the op's kind
	// (weave/trace/op.py; the provider integrations default to "llm",
	// weave/integrations/_llm_provider.py DEFAULT_OP_KIND): llm calls
	// are the requests, an agent's, a tool's… passed over; a call of an
	// op without a kind (an SDK from before op kinds) is read. exception
	// is the text of the exception the call raised ("RateLimitError:
	// Error code: 429 - …"): the HTTP status it names, or none; a call
	// without one has summary.weave.status success, a 200. A provider
	// integration logs the provider's response as the call's output
	// (integrations/openai/openai_test.py: output.model,
	// output.usage.prompt_tokens, inputs.model, inputs.stream;
	// Anthropic's usage input_tokens, output_tokens). summary.usage is
	// keyed by the model's name ({"gpt-4o-2024-08-06":{"requests":1,
	// "prompt_tokens":…}}) and summed into the parents: not read (a
	// lookup by a name each record's value gives); the tokens are the
	// call's own output.usage, which a call that failed has none of.
	{name: "weave", title: "W&B Weave calls (calls/stream_query, SDK dumps)",
		signatures: []signature{{2, []string{"op_name", "wb_user_id", "wb_run_id", "wb_run_step", "summary.weave.status",
			"summary.weave.trace_name", "attributes.weave.client_version"}}},
		fields: []sourceField{
			{"started_at", FTime, 0}, {"ended_at", FEndTime, 0},
			{"attributes.weave.kind", FKind, 0},
			{"exception", FStatus, unitOutcome}, {"summary.weave.status", FStatus, unitOutcome},
			{"output.model", FModel, 0}, {"inputs.model", FModel, 0},
			{"inputs.stream", FStream, 0},
			{"output.usage.prompt_tokens", FPromptTokens, 0}, {"output.usage.input_tokens", FPromptTokens, 0},
			{"output.usage.completion_tokens", FCompletionTokens, 0}, {"output.usage.output_tokens", FCompletionTokens, 0},
			{"summary.weave.latency_ms", ignored, 0},
		},
		requests: []string{"llm"}},
	// LangSmith's runs (langsmith-sdk's schemas.Run, the API's
	// RunSchema): what Client.list_runs gives, dumped as JSON lines, and
	// the body of POST /api/v1/runs/query, {"runs":[…],"cursors":{…}}.
	// Times are ISO 8601, UTC, mostly written without a zone
	// ("2026-01-05T16:46:01.068924"). Of the run types (llm, chain, tool,
	// retriever, embedding, prompt, parser) llm and embedding runs are
	// calls to a model; a chain's or an agent's run spans its children,
	// and its tokens are theirs summed: the others are passed over. The
	// duration is end_time − start_time, the time to first token
	// first_token_time − start_time. status ("success", "error",
	// "pending") is the run's outcome: a success is a 200, a failure the
	// HTTP status its error's text names, or none (statusOfText).
	// session_id is the project the run was traced to, not a caller, and
	// a run names no caller: no client.
	{name: "langsmith", title: "LangSmith runs (list_runs JSON, runs query API)",
		// Names of a run no other program writes so; run_type,
		// parent_run_id and trace_id are in every run the SDK dumps.
		signatures: []signature{{2, []string{"run_type", "first_token_time", "parent_run_id", "parent_run_ids", "dotted_order",
			"child_run_ids", "direct_child_run_ids", "reference_example_id", "manifest_id", "app_path", "in_dataset",
			"trace_first_received_at"}}},
		fields: []sourceField{
			{"start_time", FTime, 0}, {"end_time", FEndTime, 0}, {"first_token_time", FFirstTokenTime, 0},
			{"run_type", FKind, 0},
			// The model LangChain's chat models name for LangSmith
			// (ls_model_name), else the invocation parameters'.
			{"extra.metadata.ls_model_name", FModel, 0},
			{"extra.invocation_params.model", FModel, 0}, {"extra.invocation_params.model_name", FModel, 0},
			{"prompt_tokens", FPromptTokens, 0}, {"completion_tokens", FCompletionTokens, 0},
			{"error", FStatus, unitOutcome}, {"status", FStatus, unitOutcome},
			// The model object's streaming setting, which LangChain puts
			// in the invocation parameters whether or not the call was
			// made by stream(): not whether the call streamed.
			{"extra.invocation_params.stream", ignored, 0},
		},
		requests: []string{"llm", "embedding"},
		loc:      time.UTC},
	// Braintrust's logs and experiments: the events its API fetches
	// (GET /v1/project_logs/{id}/fetch, {"events":[…],"cursor":…}; a
	// BTQL query's {"data":[…]}) and the SDKs' JSON dumps of them. An
	// event is a span: span_attributes.type says what of (llm, task,
	// function, tool, score, eval); llm spans are the calls to a model,
	// the others passed over. metrics.start and metrics.end are Unix
	// seconds, the duration end − start; metrics.time_to_first_token is
	// seconds, as the SDKs' wrappers measure it (the OpenAI Agents
	// processor's timedelta.total_seconds()). The model is the call's
	// parameters' (metadata.model, as wrap_openai logs them), stream
	// among them. error is the exception's text: the HTTP status it
	// names, or none (statusOfText); a span without one is a 200
	// (statusFix). created is when the row was written, not the call's
	// start.
	{name: "braintrust", title: "Braintrust logs (API fetch, BTQL, SDK dumps)",
		signatures: []signature{{2, []string{"_xact_id", "root_span_id", "span_parents", "span_attributes", "_pagination_key", "is_root"}}},
		fields: []sourceField{
			{"metrics.start", FTime, 0}, {"metrics.end", FEndTime, 0},
			{"metrics.time_to_first_token", FTTFT, UnitSecond},
			{"metrics.prompt_tokens", FPromptTokens, 0}, {"metrics.completion_tokens", FCompletionTokens, 0},
			{"metadata.model", FModel, 0}, {"metadata.stream", FStream, 0},
			{"span_attributes.type", FKind, 0},
			{"error", FStatus, unitOutcome}, {"created", ignored, 0},
		},
		requests: []string{"llm"}},
	// Langfuse's observations, as its blob export writes them
	// (observations_v2/, enriched with the trace's user_id, and the legacy
	// observations/; JSON lines, JSON or CSV: snake_case, times
	// "2026-12-04 09:00:00.120000" in UTC, objects as JSON text in CSV)
	// and as its public API returns them (/api/public/observations and
	// /api/public/v2/observations: camelCase, RFC 3339 times, in
	// {"data":[…],"meta":{…}}). Of the observation types, GENERATION and
	// EMBEDDING are calls to a model; spans, events, tools, agents… are
	// not requests. The duration is end − start and the time to first
	// token completion start − start, to the microsecond: the export's
	// latency and time_to_first_token are seconds, or milliseconds for
	// an integration made before 2026-04-01, which the file does not
	// say. level is the outcome: ERROR a failure, whose HTTP status is
	// the one its status message names, or none (statusOfText); the
	// others (DEFAULT, DEBUG, WARNING) a 200. model_id is Langfuse's id
	// of its price definition, not a model's name.
	{name: "langfuse", title: "Langfuse observations (blob export, public API)",
		// Names no other program writes so: the export's, three of them
		// (a root span's usage_details and cost_details are {}, its parent
		// empty); the API's, two (the v2 API's default fields are the
		// core and basic groups: traceId, projectId, bookmarked…).
		signatures: []signature{
			{3, []string{"trace_id", "project_id", "parent_observation_id", "completion_start_time", "provided_model_name",
				"usage_details", "cost_details", "total_cost", "status_message", "is_root_observation", "usage_pricing_tier_name", "trace_name"}},
			{2, []string{"traceId", "projectId", "parentObservationId", "providedModelName", "internalModelId",
				"usageDetails", "costDetails", "statusMessage", "calculatedTotalCost", "bookmarked"}},
		},
		fields: []sourceField{
			{"start_time", FTime, 0}, {"startTime", FTime, 0},
			{"end_time", FEndTime, 0}, {"endTime", FEndTime, 0},
			{"completion_start_time", FFirstTokenTime, 0}, {"completionStartTime", FFirstTokenTime, 0},
			{"type", FKind, 0},
			{"status_message", FStatus, unitOutcome}, {"statusMessage", FStatus, unitOutcome}, {"level", FStatus, unitOutcome},
			{"provided_model_name", FModel, 0}, {"providedModelName", FModel, 0}, {"model", FModel, 0},
			// The v1 API's usage is deprecated for usageDetails, which
			// both APIs give: usage is not read.
			{"usage_details.input", FPromptTokens, 0}, {"usageDetails.input", FPromptTokens, 0},
			{"usage_details.output", FCompletionTokens, 0}, {"usageDetails.output", FCompletionTokens, 0},
			// The end user the trace names (the enriched export's and the
			// v2 API's); the legacy file and the v1 API name none.
			{"user_id", FClient, 0}, {"userId", FClient, 0},
			{"latency", ignored, 0}, {"time_to_first_token", ignored, 0}, {"timeToFirstToken", ignored, 0},
			{"model_id", ignored, 0},
			{"created_at", ignored, 0}, // the row's creation, not the call's start
		},
		requests: []string{"GENERATION", "EMBEDDING"},
		loc:      time.UTC},
	// Arize Phoenix's spans: the client's get_spans_dataframe() (a
	// DataFrame of context.span_id, span_kind, parent_id, start_time,
	// end_time, status_code, status_message and the attributes as
	// attributes.<key> columns, here as its CSV) and its REST API's GET
	// /v1/projects/{id}/spans, {"data":[{"context":{…},"span_kind",
	// "start_time","end_time","status_code","attributes":{…}}],
	// "next_cursor"} (Arize-ai/phoenix src/phoenix/server/api/routers/
	// v1/spans.py). The spans are OpenInference's: as the otel source
	// reads openinference.span.kind (otelParser.learn), LLM and EMBEDDING
	// spans are the calls to a model, the chains, tools, retrievers,
	// agents… around them passed over. status_code is the span's
	// (OpenTelemetry's UNSET, OK, ERROR), no HTTP status: OK and UNSET a
	// success, ERROR the HTTP status its status_message names, as the
	// SDKs write it ("Error code: 429 - …"), or none. Times are UTC.
	{name: "phoenix", title: "Arize Phoenix spans (get_spans_dataframe, REST API)",
		signatures: []signature{{3, []string{"context.span_id", "context.trace_id", "span_kind", "parent_id", "status_code",
			"status_message", "attributes.openinference.span.kind"}}},
		fields: []sourceField{
			{"start_time", FTime, 0}, {"end_time", FEndTime, 0},
			{"span_kind", FKind, 0}, {"attributes.openinference.span.kind", FKind, 0},
			{"status_message", FStatus, unitOutcome}, {"status_code", FStatus, unitOutcome},
			{"attributes.llm.model_name", FModel, 0},
			{"attributes.llm.token_count.prompt", FPromptTokens, 0},
			{"attributes.llm.token_count.completion", FCompletionTokens, 0},
			{"attributes.user.id", FClient, 0},
		},
		requests: []string{"LLM", "EMBEDDING"},
		loc:      time.UTC},
	// SigNoz's spans as its ClickHouse tables hold them and a query
	// exports them (clickhouse-client's CSV or JSON): signoz_index_v2,
	// camelCase (durationNano, statusCode, responseStatusCode…), and
	// signoz_index_v3, snake_case (duration_nano, status_code,
	// response_status_code…), as SigNoz/signoz-otel-collector's
	// migrations create them. The duration is ns; statusCode /
	// status_code is the span's status (0 unset, 1 ok, 2 error), no HTTP
	// status: that is responseStatusCode (httpCode in the first
	// versions), the exporter's copy of http.status_code. kind is
	// OpenTelemetry's SpanKind by number (2 server, 3 client),
	// kind_string (spanKind in v2) by name: as the otel source takes an
	// HTTP trace's server spans, only server spans are requests (one
	// with a parent, an upstream service's call, included); the client
	// and internal spans within them are passed over. The route, else
	// the URL, is the uri.
	{name: "signoz", title: "SigNoz spans (ClickHouse signoz_index_v2, signoz_index_v3)",
		signatures: []signature{
			{3, []string{"durationNano", "parentSpanID", "responseStatusCode", "hasError", "httpRoute", "externalHttpUrl",
				"statusCodeString", "resourceTagsMap", "stringTagMap", "tagMap"}},
			{3, []string{"duration_nano", "kind_string", "status_code_string", "has_error", "response_status_code",
				"ts_bucket_start", "resource_fingerprint", "external_http_url", "resource_string_service$$name",
				"attributes_string", "resources_string", "is_remote"}},
		},
		fields: []sourceField{
			{"durationNano", FRequestTime, UnitNano}, {"duration_nano", FRequestTime, UnitNano},
			{"responseStatusCode", FStatus, 0}, {"response_status_code", FStatus, 0}, {"httpCode", FStatus, 0},
			{"statusCode", ignored, 0}, {"status_code", ignored, 0},
			{"httpMethod", FMethod, 0}, {"http_method", FMethod, 0},
			{"httpRoute", FURI, 0}, {"attribute_string_http$$route", FURI, 0}, {"httpUrl", FURI, 0}, {"http_url", FURI, 0},
			{"httpHost", FHost, 0}, {"http_host", FHost, 0},
			// The GenAI attributes of an LLM gateway's span, in the
			// attributes' map (a JSON export's object).
			{"attributes_string.gen_ai.response.model", FModel, 0}, {"attributes_string.gen_ai.request.model", FModel, 0},
			{"stringTagMap.gen_ai.response.model", FModel, 0}, {"stringTagMap.gen_ai.request.model", FModel, 0},
			{"kind_string", FKind, 0}, {"spanKind", FKind, 0}, {"kind", FKind, 0},
		},
		requests: []string{"2", "Server", "SPAN_KIND_SERVER"}},
	// Honeycomb's spans, as its query builder exports a query's raw rows
	// (CSV or JSON): its own names for a span's trace fields
	// (trace.trace_id, trace.span_id, trace.parent_id, duration_ms,
	// meta.span_type; docs.honeycomb.io, "Send Data with OpenTelemetry"
	// and the Beelines' trace fields) beside OpenTelemetry's attributes.
	// A span is a request by its span.kind (server), or, for a Beeline's
	// span that has none, by meta.span_type (root, or subroot: a
	// service's first span under a caller's): a child, a client call or
	// an internal step, is passed over.
	{name: "honeycomb", title: "Honeycomb spans (a query's raw rows exported)",
		signatures: []signature{{3, []string{"trace.trace_id", "trace.span_id", "trace.parent_id", "duration_ms", "meta.span_type", "meta.signal_type"}}},
		fields: []sourceField{
			{"Timestamp", FTime, 0}, {"timestamp", FTime, 0},
			{"duration_ms", FRequestTime, UnitMilli},
			{"http.response.status_code", FStatus, 0}, {"http.status_code", FStatus, 0},
			{"http.request.method", FMethod, 0}, {"http.method", FMethod, 0},
			{"http.route", FURI, 0}, {"url.path", FURI, 0}, {"http.target", FURI, 0},
			{"gen_ai.response.model", FModel, 0}, {"gen_ai.request.model", FModel, 0},
			{"span.kind", FKind, 0}, {"meta.span_type", FKind, 0},
		},
		requests: []string{"server", "root", "subroot"}},
	// Databricks Model Serving's inference tables: the Delta table an
	// endpoint logs each request to, read as its Parquet files, or
	// exported as JSON (Spark's writer) or CSV. Two generations, as
	// Databricks documents their schema:
	//   - the legacy table (docs.databricks.com/en/machine-learning/
	//     model-serving/inference-tables.html, "Unity Catalog inference
	//     table schema"): timestamp_ms, the arrival, epoch ms;
	//     execution_time_ms, ms; status_code, the HTTP status;
	//     request_metadata, a MAP of model_name, endpoint_name and
	//     model_version; date, the UTC day alone;
	//   - the AI Gateway-enabled table (docs.databricks.com/ai-gateway/
	//     inference-tables.html, "AI Gateway-enabled inference table
	//     schema"): request_time, a TIMESTAMP (no duration: the generic
	//     table's request_time), execution_duration_ms, ms ("the time
	//     for which the model performed inference", without the
	//     network's); status_code; served_entity_id, an id that joins
	//     the served entities' system table, no model's name; requester,
	//     the user or service principal that called (NULL for
	//     route-optimized endpoints); request_date, the UTC day.
	// request and response are the raw JSON bodies, as text: the request
	// is no HTTP request line. An LLM's response is the Foundation Model
	// APIs' chat or completion (docs.databricks.com/machine-learning/
	// foundation-models/api-reference.html): its model, and its usage's
	// prompt_tokens and completion_tokens, are read from the JSON text
	// as MLflow's request.model is, in a JSON export, a CSV or a
	// Parquet or Arrow file's string column (jsontext.go); a Parquet
	// file's model is request_metadata's first, a MAP column read for
	// its model_name key (parquet_map.go; an Arrow file's, arrow_map.go).
	// sampling_fraction is not weighed:
	// the counts are of the requests logged. status_code is the HTTP
	// status for this source only, as SigNoz's is none. Spark writes a
	// TIMESTAMP as text in the session's zone, UTC unless set.
	// Databricks' serving endpoint usage table, system.serving.endpoint_usage
	// (docs.databricks.com/ai-gateway/configure-ai-gateway-endpoints.html,
	// "Usage tracking table schemas"), a row per request to an endpoint
	// with AI Gateway's usage tracking on, read as its Delta table's
	// Parquet files or exported as JSON or CSV: request_time, a
	// TIMESTAMP, the arrival; status_code, the HTTP status; requester,
	// the user or service principal; input_token_count and
	// output_token_count (estimated by Databricks when the model returns
	// none); request_streaming, a BOOLEAN; input_character_count,
	// output_character_count, usage_context (a MAP the caller gives) and
	// served_entity_id, not read. It has no duration of any kind: the
	// requests' time is the inference table's execution_duration_ms,
	// read when an export joins the two by databricks_request_id (as
	// Databricks' own usage dashboard does,
	// docs.databricks.com/aws/ja/assets/files/ai-gateway-dashboard.lvdash-b53c450b490f540340971e4e14960781.json); alone,
	// the report says so (report.writesNoRequestTime). Listed before the
	// inference tables, whose AI Gateway table shares
	// databricks_request_id and served_entity_id with it.
	{name: "databricks-usage", title: "Databricks serving endpoint usage (system.serving.endpoint_usage)",
		signatures: []signature{{3, []string{"input_token_count", "output_token_count", "input_character_count", "output_character_count",
			"usage_context", "request_streaming", "databricks_request_id", "served_entity_id"}}},
		fields: []sourceField{
			{"request_time", FTime, 0}, {"status_code", FStatus, 0}, {"requester", FClient, 0},
			{"input_token_count", FPromptTokens, 0}, {"output_token_count", FCompletionTokens, 0},
			{"request_streaming", FStream, 0},
			{"execution_time_ms", FRequestTime, UnitMilli}, {"execution_duration_ms", FRequestTime, UnitMilli},
			{"usage_context", ignored, 0}, {"input_character_count", ignored, 0}, {"output_character_count", ignored, 0},
		},
		loc: time.UTC},
	{name: "databricks", title: "Databricks Model Serving inference tables (legacy and AI Gateway)",
		signatures: []signature{{2, []string{"databricks_request_id", "execution_time_ms", "execution_duration_ms",
			"request_metadata", "served_entity_id", "logging_error_codes", "sampling_fraction"}}},
		fields: []sourceField{
			{"timestamp_ms", FTime, UnitMilli}, {"request_time", FTime, 0},
			{"execution_time_ms", FRequestTime, UnitMilli}, {"execution_duration_ms", FRequestTime, UnitMilli},
			{"status_code", FStatus, 0},
			{"request_metadata.model_name", FModel, 0}, {"response.model", FModel, 0},
			{"response.usage.prompt_tokens", FPromptTokens, 0}, {"response.usage.completion_tokens", FCompletionTokens, 0},
			{"requester", FClient, 0},
			{"request", ignored, 0}, {"response", ignored, 0}, {"date", ignored, 0}, {"request_date", ignored, 0},
		},
		loc: time.UTC},
	// MLflow's traces as mlflow.search_traces() returns them (a pandas
	// DataFrame, saved as CSV or JSON): a trace's TraceInfo
	// (mlflow/entities/trace_info.py, MLflow 3): request_time, its start
	// (epoch ms), execution_duration (ms), state (OK, ERROR,
	// IN_PROGRESS), and the call's request and response bodies as JSON
	// text, the model within the request's ("request.model"): the
	// request is no HTTP request line.
	{name: "mlflow", title: "MLflow traces (search_traces)",
		signatures: []signature{{3, []string{"trace_id", "client_request_id", "state", "execution_duration", "request_preview",
			"response_preview", "trace_metadata", "assessments"}}},
		fields: []sourceField{
			{"request_time", FTime, UnitMilli},
			{"execution_duration", FRequestTime, UnitMilli},
			{"state", FStatus, unitOutcome},
			{"request.model", FModel, 0},
			{"request", ignored, 0}, {"response", ignored, 0},
		}},
	{name: "litellm", title: "LiteLLM SpendLogs / StandardLoggingPayload",
		signatures: []signature{{3, []string{"startTime", "endTime", "completionStartTime", "api_base", "call_type", "model_group", "spend", "response_cost"}}},
		fields: []sourceField{
			{"startTime", FTime, 0}, {"endTime", FEndTime, 0}, {"completionStartTime", FFirstTokenTime, 0},
			// The client, best first: the key's alias, which names the
			// caller as its owner does; the key (SpendLogs' api_key, the
			// payload's metadata.user_api_key_hash: the same hash); the
			// key's owner; the end user the caller named. An alias is
			// null for a key without one, and the first record picks the
			// name for its file. The team's alias is not a client: a team
			// holds many keys, and every call with a team has a key.
			{"metadata.user_api_key_alias", FClient, 0},
			{"api_key", FClient, 0}, {"metadata.user_api_key_hash", FClient, 0},
			{"user", FClient, 0}, {"end_user", FClient, 0},
			{"requester_ip_address", FRemoteAddr, 0}, {"api_base", FUpstreamAddr, 0},
			{"model", FModel, 0}, {"model_group", FModel, 0},
			// "success" / "failure", not an HTTP status: the record's
			// kind. LiteLLM writes a failed call's end as its
			// completionStartTime, which is then no first token. The
			// duration is endTime − startTime.
			{"status", FKind, 0}, {"response_time", ignored, 0}, {"model_id", ignored, 0},
			// A failed call's HTTP status, as LiteLLM's exception
			// mapping gives it ("429"): the payload's error_information
			// (logging_spec.md), SpendLogs' metadata's, and the
			// LiteLLM_ErrorLogs table's status_code. A call that
			// succeeded has none: it is 200 (succeeded).
			{"error_information.error_code", FStatus, 0}, {"metadata.error_information.error_code", FStatus, 0},
			{"status_code", FStatus, 0},
		},
		failed:    "failure",
		succeeded: "success",
		loc:       time.UTC},
	// The logs table of new-api and one-api holds more than calls: a
	// row's type is 1 a top-up, 2 a call billed (consume), 3 an
	// administrator's action, 4 a system entry; 5 is new-api's failed
	// call (which new-api's own statistics count with the billed ones)
	// and one-api's channel test, 6 new-api's refund. Only calls are
	// requests: the rest have no model call behind them (a use_time of 0).
	{name: "new-api", title: "new-api log export",
		signatures: []signature{{2, []string{"use_time", "model_name"}}},
		fields: []sourceField{
			{"created_at", FTime, UnitSecond}, {"use_time", FRequestTime, UnitSecond},
			{"other.frt", FTTFT, UnitMilli}, {"is_stream", FStream, 0}, {"model_name", FModel, 0},
			{"token_name", FClient, 0}, {"username", FClient, 0}, {"ip", FRemoteAddr, 0},
			{"channel_name", FUpstreamAddr, 0}, {"channel", FUpstreamAddr, 0},
			{"type", FKind, 0},
			// A failed call's (type 5) HTTP status, which new-api
			// writes in other when its error log is on
			// (ErrorLogEnabled); a billed call (2) has none, and is
			// counted with the responses but not by status.
			{"other.status_code", FStatus, 0},
		},
		requests: []string{"2", "5"}},
	{name: "one-api", title: "one-api log export",
		signatures: []signature{{2, []string{"elapsed_time", "model_name"}}},
		fields: []sourceField{
			{"created_at", FTime, UnitSecond}, {"elapsed_time", FRequestTime, UnitMilli},
			{"is_stream", FStream, 0}, {"model_name", FModel, 0},
			{"token_name", FClient, 0}, {"username", FClient, 0}, {"channel", FUpstreamAddr, 0},
			{"type", FKind, 0},
		},
		requests: []string{"2"}},
	// one-hub (MartialBE/one-hub) and its fork done-hub (deanxv/done-hub)
	// keep a logs table of their own (model/log.go's Log, as the admin
	// API's {"data":{"data":[…],"page","size","total_count"}} gives it and
	// a database export): request_time is the call's whole time in ms,
	// not nginx's seconds (relay/relay_util/quota.go getRequestTime,
	// time.Since(startTime).Milliseconds(); the console divides it by 1000
	// to show seconds, web/src/views/Log/component/TableRow.jsx), and
	// metadata.first_response the time to the first response, ms, set on
	// a streamed call only (quota.go GetLogMeta, GetFirstResponseTime).
	// The channel is channel_id (one-api's is "channel"); channel, in the
	// API's answer, the channel's {id, name} or null. is_stream,
	// source_ip (the caller's address, c.ClientIP()) and metadata came in
	// v0.12.2; done-hub adds cost_quota, request_id, upstream_request_id.
	// The types are one-api's (1 top-up, 2 a call billed, 3 an
	// administrator's action, 4 a system entry): only 2 is a call.
	{name: "one-hub", title: "one-hub / done-hub log export",
		signatures: []signature{{3, []string{"request_time", "channel_id", "model_name"}}},
		fields: []sourceField{
			{"created_at", FTime, UnitSecond}, {"request_time", FRequestTime, UnitMilli},
			{"metadata.first_response", FTTFT, UnitMilli}, {"is_stream", FStream, 0}, {"model_name", FModel, 0},
			{"token_name", FClient, 0}, {"username", FClient, 0}, {"source_ip", FRemoteAddr, 0},
			{"channel_id", FUpstreamAddr, 0}, {"channel", ignored, 0},
			{"type", FKind, 0},
		},
		requests: []string{"2"}},
	{name: "helicone", title: "Helicone export",
		// The request_response_rmt table's names (latency, status,
		// user_id), and those of the API's and @helicone/export's
		// HeliconeRequest (delay_ms, response_status, request_user_id).
		// Helicone's own names: latency and time_to_first_token are
		// others' too (Keywords AI's, in s).
		signatures: []signature{{2, []string{"request_created_at", "response_created_at", "delay_ms",
			"request_model", "response_model", "helicone_user", "request_user_id", "response_status"}}},
		fields: []sourceField{
			{"request_created_at", FTime, 0}, {"latency", FRequestTime, UnitMilli}, {"delay_ms", FRequestTime, UnitMilli},
			{"time_to_first_token", FTTFT, UnitMilli}, {"status", FStatus, 0}, {"response_status", FStatus, 0},
			{"response_model", FModel, 0}, {"request_model", FModel, 0}, {"model", FModel, 0},
			{"request_user_id", FClient, 0}, {"user_id", FClient, 0}, {"helicone_user", FClient, 0},
		}},
	// Keywords AI's (now Respan's) request logs, as its API lists them
	// and its console exports them: latency and time_to_first_token in
	// seconds (its docs: "the unit of ttft is seconds"), status_code the
	// HTTP status (status is "success" or "error"), the caller
	// customer_identifier.
	{name: "keywordsai", title: "Keywords AI (Respan) request logs",
		signatures: []signature{{2, []string{"customer_identifier", "thread_identifier", "unique_id", "routing_time",
			"tokens_per_second", "customer_params", "time_to_first_token", "status_code"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0}, {"latency", FRequestTime, UnitSecond},
			{"time_to_first_token", FTTFT, UnitSecond}, {"status_code", FStatus, 0}, {"status", ignored, 0},
			{"customer_identifier", FClient, 0}, {"model", FModel, 0}, {"stream", FStream, 0},
		}},
	// TensorZero's gateway keeps its inferences in ClickHouse (its data
	// model, docs/gateway/data-model.mdx, and the tables of
	// tensorzero-core's migration_0000.rs), which an export gives as
	// JSONEachRow or CSVWithNames: ModelInference, a row per call to a
	// model provider (response_time_ms, ttft_ms, model_name,
	// model_provider_name, input_tokens, output_tokens), and
	// ChatInference and JsonInference, a row per request to a function
	// (processing_time_ms, the gateway's whole time for it; ttft_ms;
	// function_name; variant_name, the model and prompt it was run with,
	// the unit TensorZero's A/B tests compare). Every time is in ms;
	// ttft_ms is null but for a streamed inference. Every id is a UUIDv7
	// ("Must be a UUIDv7"), minted by the gateway when the row's
	// inference began (ChatInference's, endpoints/inference.rs) or its
	// provider's response was made (ModelInference's), and timestamp is
	// only MATERIALIZED from it to the second (UUIDv7ToDateTime), so
	// that SELECT * has none: the time is the id's, to the ms and in
	// UTC; timestamp, written in the ClickHouse server's zone, only when
	// the id is not selected. The tables hold no status; tags
	// ({"user_id": …}) are whatever the caller set, no documented caller.
	{name: "tensorzero", title: "TensorZero inference tables (ClickHouse ModelInference, ChatInference, JsonInference)",
		signatures: []signature{{2, []string{"response_time_ms", "model_provider_name", "inference_id", "input_messages"}},
			{3, []string{"processing_time_ms", "function_name", "variant_name", "episode_id", "inference_params",
				"tool_params", "output_schema", "auxiliary_content"}}},
		fields: []sourceField{
			{"id", FTime, unitUUIDv7}, {"timestamp", FTime, 0},
			{"response_time_ms", FRequestTime, UnitMilli}, {"processing_time_ms", FRequestTime, UnitMilli},
			{"ttft_ms", FTTFT, UnitMilli},
			{"model_name", FModel, 0}, {"variant_name", FModel, 0}, {"function_name", FURI, 0},
			{"model_provider_name", FUpstreamAddr, 0},
			{"input_tokens", FPromptTokens, 0}, {"output_tokens", FCompletionTokens, 0},
		}},
	// OpenRouter's generation stats, as its API answers GET
	// /api/v1/generation ({"data":{…}}, saved one a line) or as the data
	// objects alone (its API reference, get-generation, and the SDKs'
	// GenerationResponseData): latency "Total latency in milliseconds",
	// the request's time; generation_time ("Time taken for generation")
	// and moderation_latency are parts of it the reference does not
	// place, and no first-token time is documented: not read. created_at
	// when the generation was created; provider_name the provider that
	// served it; the model's own token counts (native_tokens_*, the
	// tokens its time was spent on), else OpenRouter's normalised ones
	// (tokens_*); the caller the external_user it passed, else the app
	// the call is attributed to. No status is documented.
	{name: "openrouter", title: "OpenRouter generation stats (GET /api/v1/generation)",
		signatures: []signature{{2, openrouterNames("")}, {2, openrouterNames("data.")}},
		fields:     openrouterFields()},
	// Dify's workflow runs (api/models/workflow.py, WorkflowRun: "-
	// elapsed_time (float) Time consumption (s)", status running /
	// succeeded / failed / stopped / partial-succeeded, "created_by (uuid)
	// Runner ID"), as its workflow_runs table exports them (psql's CSV,
	// its times naive UTC: libs/datetime_utils.py naive_utc_now) and as
	// the service API's GET /workflows/logs pages them ({"page",…,
	// "data":[{"workflow_run":{…,"created_at":1726139643},
	// "created_by_end_user":{"id","session_id",…},…}]}, epoch seconds).
	// A run still running (or paused) is no request yet: only the ended
	// ones are. app_id is the Dify app called, the same on every run of
	// an app, not its caller: the caller is the run's creator, the end
	// user (session_id, the user the API's caller named) or account.
	{name: "dify", title: "Dify workflow runs (workflow_runs table, service API /workflows/logs)",
		signatures: []signature{{3, []string{"elapsed_time", "total_steps", "created_by_role", "triggered_from", "workflow_id",
			"sequence_number", "exceptions_count"}},
			{3, []string{"workflow_run.elapsed_time", "workflow_run.total_steps", "workflow_run.status", "created_by_role",
				"created_from", "created_by_end_user.session_id"}}},
		fields: []sourceField{
			{"workflow_run.created_at", FTime, 0}, {"created_at", FTime, 0},
			{"workflow_run.elapsed_time", FRequestTime, UnitSecond}, {"elapsed_time", FRequestTime, UnitSecond},
			{"workflow_run.status", FKind, 0}, {"status", FKind, 0},
			{"created_by_end_user.session_id", FClient, 0}, {"created_by_end_user.id", FClient, 0},
			{"created_by_account.id", FClient, 0}, {"created_by", FClient, 0},
			{"app_id", ignored, 0},
		},
		requests:  []string{"succeeded", "failed", "stopped", "partial-succeeded"},
		succeeded: "succeeded",
		loc:       time.UTC},
	// Serilog's request logging for ASP.NET Core (UseSerilogRequestLogging),
	// one event a request: RequestMethod, RequestPath, StatusCode and
	// Elapsed, a double of milliseconds (serilog/serilog-aspnetcore
	// src/Serilog.AspNetCore/AspNetCore/RequestLoggingMiddleware.cs,
	// GetElapsedMilliseconds; RequestLoggingOptions.cs, "HTTP
	// {RequestMethod} {RequestPath} responded {StatusCode} in
	// {Elapsed:0.0000} ms"), written by the logger ForContext of the
	// middleware, so its SourceContext is
	// Serilog.AspNetCore.RequestLoggingMiddleware. Its properties are
	// where the formatter puts them: at the top of a CLEF event beside
	// @t, the time, and @mt or @m (serilog/serilog-formatting-compact
	// CompactJsonFormatter.cs); under Properties beside Timestamp, Level
	// and MessageTemplate (serilog/serilog
	// src/Serilog/Formatting/Json/JsonFormatter.cs); under fields beside
	// @timestamp, level and messageTemplate, or at the top with
	// inlineFields, in Serilog.Sinks.Elasticsearch's documents
	// (serilog-contrib/serilog-sinks-elasticsearch
	// src/Serilog.Formatting.Elasticsearch/ElasticsearchJsonFormatter.cs).
	// The application's other events in the same file (the host's, its
	// own, ASP.NET Core's "Request starting"/"Request finished", which
	// would count each request again) are no requests: SourceContext is
	// the record's kind.
	{name: "serilog", title: "Serilog request logging (ASP.NET Core): CLEF, JsonFormatter, Elasticsearch sink",
		signatures: []signature{{2, []string{"@t", "@mt", "@m"}},
			{3, []string{"Timestamp", "Level", "MessageTemplate", "RenderedMessage"}},
			{3, []string{"@timestamp", "level", "messageTemplate"}}},
		fields: []sourceField{
			{"@t", FTime, 0},
			{"Elapsed", FRequestTime, UnitMilli}, {"Properties.Elapsed", FRequestTime, UnitMilli}, {"fields.Elapsed", FRequestTime, UnitMilli},
			{"StatusCode", FStatus, 0}, {"Properties.StatusCode", FStatus, 0}, {"fields.StatusCode", FStatus, 0},
			{"RequestMethod", FMethod, 0}, {"Properties.RequestMethod", FMethod, 0}, {"fields.RequestMethod", FMethod, 0},
			{"RequestPath", FURI, 0}, {"Properties.RequestPath", FURI, 0}, {"fields.RequestPath", FURI, 0},
			{"SourceContext", FKind, 0}, {"Properties.SourceContext", FKind, 0}, {"fields.SourceContext", FKind, 0},
		},
		requests: []string{"Serilog.AspNetCore.RequestLoggingMiddleware"},
		rendered: true},
	// ASP.NET Core's own request events, as Microsoft.Extensions.Logging's
	// JSON console formatter writes them (dotnet/runtime
	// src/libraries/Microsoft.Extensions.Logging.Console/src/JsonConsoleFormatter.cs):
	// EventId, LogLevel, Category and Message on every event, Timestamp
	// only when its TimestampFormat is set, and under State the event's
	// own values. The Hosting layer's "Request finished" (category
	// Microsoft.AspNetCore.Hosting.Diagnostics, event 2; YARP's proxy
	// writes it too, being an ASP.NET Core app) has ElapsedMilliseconds,
	// a double of ms, StatusCode, Method, Host and Path
	// (dotnet/aspnetcore src/Hosting/Hosting/src/Internal/HostingRequestFinishedLog.cs).
	// HttpLogging with CombineLogs (.NET 8) writes one "Request and
	// Response" event a request (HttpLoggingMiddleware, event 9) whose
	// values are Method, Path, StatusCode, the headers under their own
	// names and, when HttpLoggingFields.Duration is logged, Duration,
	// ms (src/Middleware/HttpLogging/src/HttpLoggingMiddleware.cs,
	// HttpLoggingInterceptorContext.GetDuration, TotalMilliseconds). The
	// message is the record's kind: the events whose message begins so
	// are requests; "Request starting", HttpLogging's separate
	// "Request:"/"Response:"/"Duration:" events and the application's
	// own are passed over. A file with both on logs each request twice:
	// Hosting's events alone are then read (aspnetjson.go).
	{name: "aspnetcore", title: "ASP.NET Core request events (Hosting \"Request finished\", HttpLogging): console formatters",
		signatures: []signature{{4, []string{"EventId", "LogLevel", "Category", "Message", "State.Message"}}},
		fields: []sourceField{
			{"Timestamp", FTime, 0},
			{"State.ElapsedMilliseconds", FRequestTime, UnitMilli}, {"State.Duration", FRequestTime, UnitMilli},
			{"State.StatusCode", FStatus, 0}, {"State.Method", FMethod, 0}, {"State.Path", FURI, 0},
			{"State.Host", FHost, 0}, {"Message", FKind, 0},
		},
		requests: []string{"Request finished *", "Request and Response:*"},
		twice:    aspnetTwice,
		rendered: true},
	// pino-http's request log (Node's Express and Koa servers), and
	// Fastify's, whose logger is pino: a request's line has res.statusCode
	// and responseTime (ms, from the request's start to the response's
	// end); pino-http's has the request too (req.method, req.url,
	// req.remoteAddress). Fastify logs a request twice, "incoming request"
	// (the request, no response) and "request completed" (the response):
	// the message is the record's kind, and only pino-http's and
	// Fastify's messages of a response are requests, the incoming lines
	// and the server's own ("Server listening at …") passed over.
	{name: "pino", title: "pino-http / Fastify request log",
		signatures: []signature{{2, []string{"responseTime", "res.statusCode", "req.remoteAddress", "req.remotePort", "reqId"}}},
		fields: []sourceField{
			{"responseTime", FRequestTime, UnitMilli}, {"res.statusCode", FStatus, 0},
			{"req.method", FMethod, 0}, {"req.url", FURI, 0}, {"req.remoteAddress", FRemoteAddr, 0},
			{"req.headers.host", FHost, 0}, {"req.hostname", FHost, 0}, {"msg", FKind, 0},
		},
		requests: []string{"request completed", "request errored", "request aborted"}},
	// Echo's request logger (Go's labstack/echo middleware.Logger),
	// JSON lines from its template: latency is Go's time.Duration as an
	// integer, ns; latency_human the same as Duration.String() ("2.48s",
	// "912.345µs"), which a template may keep alone; remote_ip the
	// caller's address.
	{name: "echo", title: "Echo request log",
		signatures: []signature{{2, []string{"latency_human", "remote_ip", "bytes_in", "bytes_out"}}},
		fields: []sourceField{
			{"latency", FRequestTime, UnitNano}, {"latency_human", FRequestTime, UnitMilli},
			{"remote_ip", FRemoteAddr, 0}, {"uri", FURI, 0}, {"status", FStatus, 0},
			{"method", FMethod, 0}, {"host", FHost, 0},
		}},
	// Sanic's access log through its JSONAccessFormatter (Sanic 24.6 and
	// after; sanic/logging/formatter.py: "timestamp", "level", "message",
	// then the record's host, request, status, byte and duration, as
	// sanic/http/http1.py's log_response sets them), or through its
	// JSONFormatter, which writes the same five among the record's
	// others. host is the client's "ip:port" (req.client_ip and its port,
	// not the Host header); request the method and the URL, absolute
	// ("POST http://llm-api:8000/v1/chat/completions"); byte the
	// response's content-length, "chunked" or 0; duration the ms from the
	// handler's start to the response's headers, one decimal, written
	// with a space before it and its unit (" 508.4ms", unitDuration), ""
	// when no handler ran: the whole request for a response sent at once,
	// the time to the first chunk of a streamed one (as morgan's
	// :response-time). The timestamp is when the line was written, when
	// the headers were sent ("%Y-%m-%d %H:%M:%S %z", AutoFormatter's
	// DATE_FORMAT). Sanic writes two records of the same shape that are
	// no request, which byte tells: when it closes a connection, one of
	// the last request on it, again, byte "DISCONNECTED"
	// (sanic/server/protocols/http_protocol.py, log_disconnect), and at
	// a WebSocket's end one of its closing, byte the close's reason
	// (websocket_protocol.py): a record is a request when byte is a
	// length or "chunked". Its text formats are known formats of this
	// source's name (nginx_formats.go).
	// Railway's HTTP logs (railwayapp/cli src/gql/queries/strings/
	// HttpLogs.graphql, fragment HttpLogFields; src/util/logs.rs
	// format_http_log_string): railway logs --http --json writes each as
	// JSON (timestamp, method, path, httpStatus, totalDuration,
	// requestId, or every field of the fragment: srcIp, edgeRegion,
	// upstreamRqDuration "how long the upstream request took", …), its
	// text form the known format railway. Durations are whole ms.
	{name: "railway", title: "Railway HTTP logs (railway logs --http, JSON or as its CLI prints them)",
		signatures: []signature{{3, []string{"httpStatus", "totalDuration", "requestId", "upstreamRqDuration", "edgeRegion", "srcIp",
			"upstreamAddress", "deploymentInstanceId"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0}, {"method", FMethod, 0}, {"path", FURI, 0}, {"httpStatus", FStatus, 0},
			{"totalDuration", FRequestTime, UnitMilli}, {"upstreamRqDuration", FUpstreamResponseTime, UnitMilli},
			{"srcIp", FRemoteAddr, 0}, {"host", FHost, 0},
		}},
	{name: "sanic", title: "Sanic access log (JSON from its JSONAccessFormatter, or its production or legacy text format)",
		signatures: []signature{{4, []string{"host", "request", "byte", "duration"}}},
		fields: []sourceField{
			{"host", FRemoteAddr, 0}, {"request", FRequest, 0}, {"status", FStatus, 0},
			{"duration", FRequestTime, UnitMilli}, {"byte", FKind, 0},
		},
		requests: []string{"0*", "1*", "2*", "3*", "4*", "5*", "6*", "7*", "8*", "9*", "chunked"}},
	// samber's slog middlewares (slog-gin, slog-echo, slog-fiber,
	// slog-chi): the request and the response as groups of a log/slog
	// record, the latency a slog.Duration: whole ns in JSON (the
	// JSONHandler writes a Duration so), a Go duration's text with its
	// unit in the TextHandler's logfmt (response.latency=2.93s). The
	// record's time is when it was written; request.time its start.
	// Fiber's logger middleware (gofiber/fiber middleware/logger): its
	// FormatJSON is {"time":"${time}","ip":"${ip}","method":"${method}",
	// "url":"${url}","status":${status},"bytesSent":${bytesSent}}
	// (format.go), and a Format of the user's own takes the same tags
	// (tags.go): url the original URL, path the path, ip the caller's
	// address, host, latency Go's time.Duration printed "%13v" (padded,
	// with its unit: "  71.821973ms"). ${time} is "15:04:05" by default
	// (config.go): a time of day alone, no time (unreadClocks).
	{name: "fiber", title: "Fiber logger middleware, JSON",
		signatures: []signature{{3, []string{"bytesSent", "bytesReceived", "queryParams", "reqHeaders", "resBody", "url", "ip"}}},
		fields: []sourceField{
			{"url", FURI, 0}, {"ip", FRemoteAddr, 0}, {"latency", FRequestTime, UnitSecond},
			{"status", FStatus, 0}, {"method", FMethod, 0}, {"host", FHost, 0},
		}},
	// Elixir's LoggerJSON.Plug, its telemetry handler's request log
	// through LoggerJSON's Basic formatter (Nebo15/logger_json
	// lib/logger_json/plug.ex: the message "POST /v1/x [Sent 200 in
	// 426ms]" with duration_us, the native duration converted to µs, in
	// the metadata; lib/logger_json/formatters/basic.ex: time (UTC,
	// ISO 8601), severity, message, metadata, and the conn's request as
	// request.connection {protocol, method, path, status} and
	// request.client {user_agent, ip}). duration_us is in the metadata
	// when the formatter's metadata option keeps it (:all, or the key).
	{name: "loggerjson-plug", title: "Elixir LoggerJSON.Plug request log (Basic formatter)",
		signatures: []signature{{3, []string{"metadata.duration_us", "request.connection.status", "request.connection.method",
			"request.connection.path", "request.connection.protocol"}}},
		fields: []sourceField{
			{"metadata.duration_us", FRequestTime, UnitMicro}, {"request.connection.status", FStatus, 0},
			{"request.connection.method", FMethod, 0}, {"request.connection.path", FURI, 0},
			{"request.client.ip", FRemoteAddr, 0}, {"message", ignored, 0},
		}},
	{name: "slog-http", title: "samber's slog-gin / slog-echo / slog-fiber / slog-chi request log",
		signatures: []signature{{3, []string{"request.method", "request.path", "request.route", "request.ip",
			"response.status", "response.latency", "response.length"}}},
		fields: []sourceField{
			{"request.time", FTime, 0}, {"response.latency", FRequestTime, UnitNano},
			{"response.status", FStatus, 0}, {"request.method", FMethod, 0}, {"request.path", FURI, 0},
			{"request.ip", FRemoteAddr, 0}, {"request.host", FHost, 0},
		}},
	// gin-contrib/zap's request log (ginzap.Ginzap, GinzapWithConfig in
	// gin-contrib/zap zap.go): status, method, path, query, ip,
	// user-agent, then latency, a zap.Duration, written as the logger's
	// EncodeDuration says: zap.NewProduction's seconds (2.931892699),
	// zap.NewDevelopment's Duration.String() ("2.931892699s", in its
	// console lines: stampedLine), an encoder without one's whole ns.
	// time is the request's end in the middleware's TimeFormat. Its
	// user-agent is spelt so by no other Go middleware (gin-contrib/logger's
	// latency beside ip and user_agent is zerolog's ms); query is most
	// often empty, which is no name of the record's.
	{name: "ginzap", title: "gin-contrib/zap (ginzap) request log, zap's JSON or console encoder",
		signatures: []signature{{3, []string{"ip", "user-agent", "latency"}}},
		fields: []sourceField{
			{"latency", FRequestTime, UnitSecond}, {"ip", FRemoteAddr, 0},
			{"status", FStatus, 0}, {"method", FMethod, 0}, {"path", FURI, 0},
		},
		durationFormat: "latency"},
	// express-winston's request log (Node's Express through winston's
	// JSON format): the request, the response and responseTime (ms) under
	// its metaField, "meta" by default; originalUrl is the path as the
	// client asked it, url the router's part of it. Without a metaField
	// its names are pino-http's, which that source reads.
	{name: "express-winston", title: "express-winston request log",
		signatures: []signature{{2, []string{"meta.responseTime", "meta.res.statusCode", "meta.req.method", "meta.req.originalUrl"}}},
		fields: []sourceField{
			{"meta.responseTime", FRequestTime, UnitMilli}, {"meta.res.statusCode", FStatus, 0},
			{"meta.req.method", FMethod, 0}, {"meta.req.originalUrl", FURI, 0}, {"meta.req.url", FURI, 0},
			{"meta.req.headers.host", FHost, 0},
		}},
	// Alibaba Cloud API Gateway's access log (its shared and dedicated
	// instances), as Simple Log Service keeps it, every value a string:
	// totalLatency the request's whole time and serviceLatency the
	// backend's (getting a connection, connecting, calling it), both ms;
	// requestHandleTime when the request came, UTC. The caller is the
	// calling application (appName, else appId), empty for an API without
	// app authentication, whose caller is then its address.
	{name: "aliyun-apigw", title: "Alibaba Cloud API Gateway access log",
		signatures: []signature{{2, []string{"apiGroupName", "apiGroupUid", "apiStageName", "apiUid", "serviceLatency",
			"totalLatency", "requestHandleTime", "providerAliUid", "consumerAppKey"}}},
		fields: []sourceField{
			{"requestHandleTime", FTime, 0}, {"totalLatency", FRequestTime, UnitMilli},
			{"serviceLatency", FUpstreamResponseTime, UnitMilli}, {"statusCode", FStatus, 0},
			{"httpMethod", FMethod, 0}, {"path", FURI, 0}, {"domain", FHost, 0}, {"clientIp", FRemoteAddr, 0},
			{"appName", FClient, 0}, {"appId", FClient, 0}, {"region", FRegion, 0},
		},
		loc: time.UTC},
	// Tencent Cloud EdgeOne's L7 access log (its site acceleration log:
	// offline logs, JSON lines in hourly .gz files, and real-time logs
	// pushed to CLS or an endpoint), times in UTC. EdgeResponseTime (ms)
	// runs from the edge receiving the request until the client has
	// received the response; EdgeInternalTime (ms) to the response's
	// first byte, the origin's as Tencent first documented it, the
	// edge's to the client as it now does: read as the upstream's time
	// to its headers. A string with no value is "-", an integer -1. A
	// real-time WebSocket record of a connection not yet ended
	// (RequestStatus 0) is no request.
	{name: "edgeone", title: "Tencent Cloud EdgeOne L7 access log",
		signatures: []signature{{2, []string{"EdgeResponseTime", "EdgeInternalTime", "EdgeResponseStatusCode", "EdgeCacheStatus",
			"EdgeServerIP", "EdgeServerID", "EdgeResponseBytes", "RequestUrlQueryString", "ClientISP"}}},
		fields: []sourceField{
			{"RequestTime", FTime, 0}, {"EdgeResponseTime", FRequestTime, UnitMilli},
			{"EdgeInternalTime", FUpstreamHeaderTime, UnitMilli}, {"EdgeResponseStatusCode", FStatus, 0},
			{"RequestMethod", FMethod, 0}, {"RequestUrl", FURI, 0}, {"RequestHost", FHost, 0},
			{"ClientIP", FRemoteAddr, 0}, {"ClientRegion", FClientRegion, 0}, {"RequestStatus", FKind, 0},
		},
		requests: []string{"1", "2"},
		minusOne: true,
		loc:      time.UTC},
	// Gravitee APIM's request metrics, as its file reporter writes them
	// (JSON lines, a request each): a v2 API's "request" record, the
	// whole request proxyResponseTimeMs and the backend's
	// apiResponseTimeMs, and a v4 API's "v4-metrics" record,
	// gatewayResponseTimeMs and endpointResponseTimeMs, all ms; timestamp
	// epoch ms at the request's start. v4 records before reporter-api
	// 1.33 write -1 for a time or length not taken.
	// HAProxy's JSON lines (HAProxy 3.0's "%{+json}o" log-format) with
	// the names of HAProxy's own example (haproxy.com's "Encoding HAProxy
	// logs in machine-readable JSON or CBOR": %(client_ip)ci
	// %(request_date)tr %(fe_name_transport)ft %(be_name)b
	// %(server_name)s %(time_request)TR %(time_wait)Tw %(time_connect)Tc
	// %(time_response)Tr %(time_active)Ta %(status_code)ST …
	// %(http_request){+Q}r), which users copy, and its shorter spelling
	// (client, frontend, backend, backend_server, status,
	// termination_state); read as the text format's items are
	// (haproxy_format.go): Ta the request's time, Tr the server's to its
	// headers, Tc its connect, all ms, -1 for a timer never reached;
	// request_date has no zone (--tz). A log-format of other names is
	// read with --log-format (HAProxyJSONMaps).
	{name: "haproxy-json", title: "HAProxy JSON log (%{+json}o, the names of HAProxy's example)",
		signatures: []signature{{3, []string{"time_active", "time_response", "time_connect", "time_wait", "time_request",
			"termination_state_cookie", "termination_state", "fe_name_transport", "request_date", "srv_queue", "backend_queue"}}},
		fields: []sourceField{
			{"request_date", FTime, 0}, {"time_active", FRequestTime, UnitMilli},
			{"time_response", FUpstreamHeaderTime, UnitMilli}, {"time_connect", FUpstreamConnectTime, UnitMilli},
			{"time_request", ignored, 0}, {"time_wait", ignored, 0},
			{"status_code", FStatus, 0}, {"status", FStatus, 0},
			{"client_ip", FRemoteAddr, 0}, {"client", FRemoteAddr, 0},
			{"server_name", FUpstreamAddr, 0}, {"backend_server", FUpstreamAddr, 0},
			{"http_request", FRequest, 0},
		},
		minusOne: true},
	{name: "gravitee", title: "Gravitee APIM request metrics (file reporter)",
		signatures: []signature{{2, []string{"proxyResponseTimeMs", "apiResponseTimeMs", "proxyLatencyMs",
			"gatewayResponseTimeMs", "endpointResponseTimeMs", "gatewayLatencyMs", "transactionId", "clientIdentifier"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0}, {"proxyResponseTimeMs", FRequestTime, UnitMilli}, {"gatewayResponseTimeMs", FRequestTime, UnitMilli},
			{"apiResponseTimeMs", FUpstreamResponseTime, UnitMilli}, {"endpointResponseTimeMs", FUpstreamResponseTime, UnitMilli},
			{"status", FStatus, 0}, {"httpMethod", FMethod, 0}, {"uri", FURI, 0}, {"host", FHost, 0},
			{"remoteAddress", FRemoteAddr, 0}, {"endpoint", FUpstreamAddr, 0},
			{"application", FClient, 0}, {"applicationId", FClient, 0}, {"clientIdentifier", FClient, 0},
		},
		minusOne: true},
	// Google Apigee's analytics records, as its analytics data export
	// writes them (to Cloud Storage as CSV or JSON, or to BigQuery):
	// total_response_time (from Apigee receiving the request to sending
	// the response) and target_response_time (the target service's) in
	// ms, the latter and target_response_code null when the call never
	// reached the target (a cached response, a failed policy);
	// client_received_start_timestamp the request's start, as BigQuery
	// writes a TIMESTAMP ("… UTC"). developer_app is "(not set)" without
	// an API key or OAuth check.
	{name: "apigee", title: "Apigee analytics export",
		signatures: []signature{{2, []string{"total_response_time", "target_response_time", "request_processing_latency",
			"response_processing_latency", "client_received_start_timestamp", "apiproxy", "gateway_flow_id", "proxy_basepath"}}},
		fields: []sourceField{
			{"client_received_start_timestamp", FTime, 0}, {"total_response_time", FRequestTime, UnitMilli},
			{"target_response_time", FUpstreamResponseTime, UnitMilli}, {"response_status_code", FStatus, 0},
			{"target_response_code", FUpstreamStatus, 0}, {"request_verb", FMethod, 0},
			{"request_path", FURI, 0}, {"request_uri", FURI, 0}, {"client_ip", FRemoteAddr, 0},
			{"developer_app", FClient, 0}, {"client_id", FClient, 0}, {"target_host", FUpstreamAddr, 0},
		},
		loc: time.UTC},
	// WSO2 API Manager's analytics events, as its ELK and OpenSearch
	// reporter logs them (apimmetrics.go: the JSON after "properties :")
	// and as Logstash or Fluent Bit ship that JSON
	// (https://apim.docs.wso2.com/en/4.3.0/api-analytics/on-prem/elk-installation-guide/;
	// wso2/apim-analytics-publisher GenericInputValidator.java,
	// elkResponseEventSchema and elkFaultEventSchema). The latencies are
	// ms (wso2/carbon-apimgt SynapseAnalyticsDataProvider.java):
	// responseLatency from the request's arrival to its response sent,
	// the whole request, backendLatency the backend's, the two
	// mediation latencies the gateway's own parts of the whole.
	// requestTimestamp is the request's arrival, UTC (OffsetDateTime's
	// text: "2022-12-15T02:53:34.894Z", no seconds when they are 0).
	// proxyResponseCode is the status sent to the client,
	// targetResponseCode the backend's, -1 in an apim:faulty event of a
	// call that never reached it (a throttled one, an auth failure); a
	// faulty event has no latencies, but is a request with its status.
	// The caller is the application (its API key or OAuth client:
	// "Name of the application that makes the API call", "anonymous"
	// for an API without security), else its id; userIp its address.
	// An AI API's events carry the model and token counts in properties
	// (SynapseAnalyticsDataProvider.getAiAnalyticsData: aiMetadata
	// {vendorName, vendorVersion, model}, aiTokenUsage {promptTokens,
	// completionTokens, totalTokens, hour}), which the ELK reporter logs
	// as they are, and WSO2's Kibana dashboards for AI APIs read
	// (properties.aiMetadata.model).
	{name: "wso2-apim", title: "WSO2 API Manager analytics events (apim_metrics.log)",
		signatures: []signature{{3, []string{"proxyResponseCode", "targetResponseCode", "responseLatency", "backendLatency",
			"requestMediationLatency", "responseMediationLatency", "apiResourceTemplate", "apiCreatorTenantDomain", "applicationOwner"}}},
		fields: []sourceField{
			{"requestTimestamp", FTime, 0}, {"responseLatency", FRequestTime, UnitMilli},
			{"backendLatency", FUpstreamResponseTime, UnitMilli},
			{"requestMediationLatency", ignored, 0}, {"responseMediationLatency", ignored, 0},
			{"proxyResponseCode", FStatus, 0}, {"targetResponseCode", FUpstreamStatus, 0},
			{"apiMethod", FMethod, 0}, {"apiResourceTemplate", FURI, 0},
			{"userIp", FRemoteAddr, 0}, {"destination", FUpstreamAddr, 0},
			{"applicationName", FClient, 0}, {"applicationId", FClient, 0},
			{"properties.aiMetadata.model", FModel, 0},
			{"properties.aiTokenUsage.promptTokens", FPromptTokens, 0},
			{"properties.aiTokenUsage.completionTokens", FCompletionTokens, 0},
		},
		loc: time.UTC, minusOne: true},
	// Heroku's router log, logfmt (at=info method=GET path="/" host=…
	// request_id=… fwd="…" dyno=web.1 connect=1ms service=18ms status=200
	// bytes=… protocol=https), as `heroku logs` prints it after its time
	// and "heroku[router]:". connect is the time to connect to the dyno,
	// service the time spent proxying between the client and the dyno,
	// both ms; fwd is the caller's address, dyno the one that answered.
	{name: "heroku-router", title: "Heroku router log",
		signatures: []signature{{4, []string{"at", "fwd", "dyno", "connect", "service", "protocol", "request_id"}}},
		fields: []sourceField{
			{"service", FRequestTime, UnitMilli}, {"connect", FUpstreamConnectTime, UnitMilli},
			{"fwd", FRemoteAddr, 0}, {"dyno", FUpstreamAddr, 0}, {"status", FStatus, 0},
			{"method", FMethod, 0}, {"path", FURI, 0}, {"host", FHost, 0},
		}},
	// Bifrost's request logs (its logs API's {"logs":[…]}, or its logs
	// table exported from SQLite or PostgreSQL): one row a provider call,
	// a fallback's call a row of its own. latency and time_to_first_token
	// are ms (the provider call's, from Go's Milliseconds()); status is
	// "success", "error" or "processing" (a call not finished, no request
	// yet). An error's HTTP status is error_details.status_code, absent
	// for an error Bifrost raised itself (a timeout); a success has none:
	// 200. The caller is the virtual key; selected_key_* is the provider
	// key Bifrost chose, not a caller.
	{name: "bifrost", title: "Bifrost request logs",
		signatures: []signature{{2, []string{"selected_key_id", "selected_key_name", "virtual_key_id", "virtual_key_name",
			"number_of_retries", "fallback_index", "routing_rule_id", "routing_engines_used"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0}, {"latency", FRequestTime, UnitMilli},
			{"time_to_first_token", FTTFT, UnitMilli},
			{"status", FKind, 0}, {"error_details.status_code", FStatus, 0},
			{"virtual_key_name", FClient, 0}, {"virtual_key_id", FClient, 0}, {"user_id", FClient, 0},
			{"model", FModel, 0}, {"stream", FStream, 0},
			{"token_usage.prompt_tokens", FPromptTokens, 0}, {"token_usage.completion_tokens", FCompletionTokens, 0},
			{"prompt_tokens", FPromptTokens, 0}, {"completion_tokens", FCompletionTokens, 0},
		},
		requests:  []string{"success", "error"},
		succeeded: "success"},
	// Portkey's log export columns (req_units, res_units: tokens;
	// stream_mode TRUE/FALSE; virtual_key) and its analytics record, the
	// same names with stream_mode 0/1, api_key_id, and the gateway's times
	// in ms beside response_time, upstream_response_time among them.
	{name: "portkey", title: "Portkey export",
		signatures: []signature{{2, []string{"ai_model", "response_time", "response_status_code", "ai_provider"}}},
		fields: []sourceField{
			{"created_at", FTime, 0}, {"response_time", FRequestTime, UnitMilli},
			{"upstream_response_time", FUpstreamResponseTime, UnitMilli},
			{"time_to_first_token", FTTFT, UnitMilli}, {"response_status_code", FStatus, 0},
			{"ai_model", FModel, 0}, {"stream_mode", FStream, 0}, {"is_streaming", FStream, 0},
			{"req_units", FPromptTokens, 0}, {"res_units", FCompletionTokens, 0},
			// The caller's Portkey API key, else the provider key it used.
			{"api_key_id", FClient, 0}, {"virtual_key", FClient, 0}, {"user", FClient, 0},
		}},
	// Cloudflare's HTTP request logs (Logpush, Logpull): PascalCase
	// names, the edge's start and end as epoch ns (Logpush's default
	// timestamp format; RFC 3339 text when chosen), the origin's time and
	// the edge's time to first byte in ms.
	{name: "cloudflare", title: "Cloudflare HTTP request logs (Logpush / Logpull)",
		signatures: []signature{{3, []string{"EdgeStartTimestamp", "EdgeEndTimestamp", "EdgeResponseStatus", "ClientRequestURI", "ClientRequestHost", "RayID", "OriginResponseDurationMs"}}},
		fields: []sourceField{
			{"EdgeStartTimestamp", FTime, 0}, {"EdgeEndTimestamp", FEndTime, 0},
			{"EdgeResponseStatus", FStatus, 0}, {"OriginResponseStatus", FUpstreamStatus, 0},
			{"OriginResponseDurationMs", FUpstreamResponseTime, UnitMilli},
			{"EdgeTimeToFirstByteMs", FTTFB, UnitMilli},
			{"ClientIP", FRemoteAddr, 0}, {"ClientRequestMethod", FMethod, 0},
			{"ClientRequestURI", FURI, 0}, {"ClientRequestPath", FURI, 0}, {"ClientRequestHost", FHost, 0},
			{"OriginIP", FUpstreamAddr, 0},
		},
		wholeSeconds: true},
	// Cloudflare AI Gateway's logs (an LLM gateway; not the HTTP request
	// logs above): the REST API's List Gateway Logs (GET
	// /accounts/{account_id}/ai-gateway/gateways/{gateway_id}/logs, in
	// {"result":[…],"result_info":{…},"success":true}), snake_case, and
	// Logpush's ai_gateway_events dataset, PascalCase.
	//
	// The API's schema gives duration as a number with no unit: it is
	// not read (--map request_time=duration:ms for who knows it to be ms,
	// as the Logpush dataset's Metrics.durationMs is). Nor is request_type,
	// whose values the schema does not list (the generic table would read
	// ai_stream/ai_chat as a stream flag); metadata is the caller's own
	// text, no documented client. Logpush documents Metrics only by its
	// example {"cost":…,"durationMs":…}: no token names are read from it;
	// Timestamp is epoch or RFC 3339 text, as the job's timestamp format
	// says, which the magnitude tells. A cached response is a request
	// like any other; cached and Cached are not read.
	{name: "cloudflare-aig", title: "Cloudflare AI Gateway logs (REST API, Logpush ai_gateway_events)",
		signatures: []signature{
			{3, []string{"tokens_in", "tokens_out", "cached", "custom_cost", "model_type", "request_content_type", "response_content_type"}},
			{3, []string{"Gateway", "Endpoint", "RateLimited", "RequestedModel", "RoutingDecisionID", "RoutingReason", "RequestBody", "ResponseBody", "Metrics.durationMs"}},
		},
		fields: []sourceField{
			{"created_at", FTime, 0}, {"Timestamp", FTime, 0},
			{"duration", ignored, 0}, {"Metrics.durationMs", FRequestTime, UnitMilli},
			{"status_code", FStatus, 0}, {"StatusCode", FStatus, 0},
			// The model that served the request (Logpush's RequestedModel
			// is the one asked for).
			{"model", FModel, 0}, {"Model", FModel, 0},
			{"path", FURI, 0}, {"Endpoint", FURI, 0},
			{"provider", FUpstreamAddr, 0}, {"Provider", FUpstreamAddr, 0},
			{"tokens_in", FPromptTokens, 0}, {"tokens_out", FCompletionTokens, 0},
			{"request_type", ignored, 0},
		}},
	// Akamai DataStream 2's CDN log in its JSON form: every value a
	// string, names as its data set parameters give them
	// (https://techdocs.akamai.com/datastream2/docs/data-set-parameters).
	// reqTimeSec is when the edge accepted the request, epoch s (with
	// ms when the stream logs them). The request's time is logged only
	// as its phases, ms: reqEndTimeMSec, the edge's time to read the
	// whole request; turnAroundTimeMSec, from its last byte to the
	// response's first; transferTimeMSec, from the first byte of the
	// response to its last. request_time, from the request's start to
	// its last byte as nginx's is, is their sum (unitPhaseMs), not
	// turnAroundTimeMSec alone, a time to first byte. Nor is the
	// turnaround read as any other field: it counts the edge's own
	// work, and is there for a response the edge served itself (from
	// its cache, or its own 429) that reached no origin and no model,
	// so it is neither SPEC §3's upstream times (the upstream's) nor
	// ttft (a model's first token, which the edge's first byte, a
	// stream's headers, may precede). The Structured form (space- or
	// tab-delimited values in the order the stream chose, no names:
	// https://techdocs.akamai.com/datastream2/docs/log-format) has no
	// names to tell it by, and is not read; there is no CSV form.
	{name: "akamai", title: "Akamai DataStream 2 (JSON)",
		signatures: []signature{{3, []string{"reqTimeSec", "reqEndTimeMSec", "turnAroundTimeMSec", "transferTimeMSec",
			"tlsOverheadTimeMSec", "dnsLookupTimeMSec", "cliIP", "reqHost", "reqPath", "reqMethod", "edgeIP", "reqId"}}},
		fields: []sourceField{
			{"reqTimeSec", FTime, 0}, {"statusCode", FStatus, 0},
			{"reqEndTimeMSec", FRequestTime, unitPhaseMs}, {"turnAroundTimeMSec", FRequestTime, unitPhaseMs},
			{"transferTimeMSec", FRequestTime, unitPhaseMs},
			{"cliIP", FRemoteAddr, 0}, {"reqMethod", FMethod, 0}, {"reqPath", FURI, 0}, {"reqHost", FHost, 0},
		}},
	// Fastly's real-time log streaming in JSON, as its log format is
	// written in the common recipe (Fastly's "Useful log formats",
	// https://docs.fastly.com/en/guides/useful-log-formats, and the log
	// formats log services give for it): time_start and time_end the
	// request's start and end (%{begin:msec}t, epoch ms, or begin's
	// strftime text, to the second), time_elapsed time.elapsed.usec
	// (µs: %D, "the time taken to serve the request, in microseconds",
	// https://docs.fastly.com/en/guides/custom-log-formats), request
	// req.request, the method alone, url req.url, response_status
	// resp.status, client_ip Fastly-Client-IP.
	{name: "fastly", title: "Fastly real-time log streaming (JSON)",
		signatures: []signature{
			{2, []string{"service_version", "fastly_server", "fastly_is_edge", "fastly_is_shield", "fastly_pop", "fastly_shield_used"}},
			{3, []string{"time_elapsed", "time_start", "time_end", "response_status"}}},
		fields: []sourceField{
			{"time_start", FTime, 0}, {"time_end", FEndTime, 0}, {"time_elapsed", FRequestTime, UnitMicro},
			{"response_status", FStatus, 0}, {"request", FMethod, 0}, {"url", FURI, 0}, {"host", FHost, 0},
			{"client_ip", FRemoteAddr, 0},
		},
		wholeSeconds: true},
	// Linkerd's proxy's HTTP access log in its json format (the
	// config.linkerd.io/access-log annotation; linkerd2-proxy's
	// linkerd/http/access-log): total_ns, the request's time, ns, as a
	// decimal string; processing_ns the proxy's own part of it, no
	// upstream's; client.id the caller's mTLS identity ("-" without one),
	// client.addr its address and port; uri the whole URL.
	{name: "linkerd", title: "Linkerd proxy access log (json)",
		signatures: []signature{{2, []string{"client.addr", "client.id", "total_ns", "processing_ns", "request_bytes", "response_bytes"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0}, {"total_ns", FRequestTime, UnitNano}, {"status", FStatus, 0},
			{"method", FMethod, 0}, {"uri", FURI, 0}, {"host", FHost, 0},
			{"client.id", FClient, 0}, {"client.addr", FRemoteAddr, 0},
			{"processing_ns", ignored, 0},
		}},
	// Google Cloud's request logs (external Application Load Balancer,
	// Cloud Run, GKE ingress) in Cloud Logging's LogEntry: the request
	// in httpRequest, its latency a protobuf Duration ("6.210452s").
	// Knative's queue-proxy (KServe's too) writes its request log as
	// that object alone, {"httpRequest":{…},"traceId":…}, for Cloud
	// Logging to lift into its LogEntry: the latency "0.5s" in the
	// documented template, the bare seconds of .Response.Latency in its
	// config-observability _example
	// (https://knative.dev/docs/serving/observability/logging/request-logging,
	// knative/serving config/core/configmaps/observability.yaml).
	{name: "gcp", title: "Google Cloud request logs (LogEntry httpRequest; Knative's queue-proxy request log)",
		signatures: []signature{{3, []string{"httpRequest", "insertId", "logName", "resource", "severity", "receiveTimestamp"}},
			{3, []string{"httpRequest.latency", "httpRequest.status", "httpRequest.requestMethod", "httpRequest.requestUrl", "httpRequest.remoteIp"}}},
		fields: []sourceField{
			{"httpRequest.latency", FRequestTime, UnitSecond}, {"httpRequest.status", FStatus, 0},
			{"httpRequest.remoteIp", FRemoteAddr, 0}, {"httpRequest.requestMethod", FMethod, 0},
			{"httpRequest.requestUrl", FURI, 0}, {"httpRequest.serverIp", FUpstreamAddr, 0},
			{"timestamp", FTime, 0},
		}},
	// Amazon Bedrock's model invocation log, as CloudWatch Logs keeps it
	// and as it is delivered to S3 (JSON lines, gzipped): one call to a
	// model (modelId: a model, or an inference profile's ARN), its caller
	// identity.arn, made in region and, when cross-region inference sent
	// it elsewhere, run in inferenceRegion. Its duration is only in the
	// response body, which the log keeps when its text data delivery is
	// on: Converse's metrics.latencyMs, ConverseStream's last event's
	// metadata.metrics.latencyMs, a response stream's last chunk's
	// amazon-bedrock-invocationMetrics (invocationLatency, and
	// firstByteLatency: the first token); InvokeModel's body has none,
	// nor a body too large for the log (outputBodyS3Path). A call that
	// failed has an errorCode (ThrottlingException …) and no output: its
	// status is the HTTP status Bedrock answers that exception with
	// (errorStatus), and one without succeeded (statusFix).
	{name: "bedrock", title: "Amazon Bedrock model invocation log",
		signatures: []signature{{3, []string{"schemaType", "schemaVersion", "accountId", "modelId", "inferenceRegion", "requestMetadata"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0}, {"modelId", FModel, 0},
			{"inferenceRegion", FRegion, 0}, {"region", FRegion, 0}, {"region", FClientRegion, 0},
			{"identity.arn", FClient, 0},
			{"input.inputTokenCount", FPromptTokens, 0}, {"output.outputTokenCount", FCompletionTokens, 0},
			{"output.outputBodyJson.metrics.latencyMs", FRequestTime, UnitMilli},
			{"output.outputBodyJson.metadata.metrics.latencyMs", FRequestTime, UnitMilli},
			{"output.outputBodyJson.amazon-bedrock-invocationMetrics.invocationLatency", FRequestTime, UnitMilli},
			{"output.outputBodyJson.amazon-bedrock-invocationMetrics.firstByteLatency", FTTFT, UnitMilli},
			{"operation", FStream, 0}, {"errorCode", FStatus, 0},
			{"status", ignored, 0}, {"requestId", ignored, 0},
		}},
	// Amazon API Gateway's access log (REST and HTTP APIs) is a format of
	// $context variables its owner writes; most keep the key names of
	// the console's JSON template (requestId, ip, requestTime as CLF
	// time, httpMethod, resourcePath or routeKey, status, protocol,
	// responseLength) and add the latencies, in ms. The template quotes
	// every value; "-" is an empty one.
	{name: "aws-apigateway", title: "Amazon API Gateway access log (JSON)",
		signatures: []signature{{4, []string{"requestId", "extendedRequestId", "requestTime", "requestTimeEpoch", "httpMethod",
			"routeKey", "resourcePath", "responseLength", "responseLatency", "integrationLatency", "integrationStatus"}}},
		fields: []sourceField{
			{"requestTimeEpoch", FTime, 0}, {"requestTime", FTime, 0},
			{"responseLatency", FRequestTime, UnitMilli},
			{"integrationLatency", FUpstreamResponseTime, UnitMilli}, {"integration.latency", FUpstreamResponseTime, UnitMilli},
			{"status", FStatus, 0}, {"integrationStatus", FUpstreamStatus, 0}, {"integration.status", FUpstreamStatus, 0},
			{"httpMethod", FMethod, 0},
			// The path requested, else the resource's (REST) or the
			// route's ("POST /v1/chat", HTTP APIs) template.
			{"path", FURI, 0}, {"resourcePath", FURI, 0}, {"routeKey", FRequest, 0},
			{"ip", FRemoteAddr, 0}, {"sourceIp", FRemoteAddr, 0},
			// The caller: the API key's id, a Lambda authorizer's
			// principal, an IAM caller or user; else the address.
			{"apiKeyId", FClient, 0}, {"principalId", FClient, 0}, {"caller", FClient, 0}, {"user", FClient, 0},
			{"domainName", FHost, 0},
		}},
	// Azure API Management's gateway log, the usual AI gateway in front of
	// Azure OpenAI: the resource log (category GatewayLogs, as a
	// diagnostic setting writes it to storage or Event Hubs: durationMs
	// and the request in properties, in camelCase or PascalCase), and the
	// Log Analytics table ApiManagementGatewayLogs (TotalTime,
	// BackendTime, ...; times in ms), with the model and tokens of
	// ApiManagementGatewayLlmLog where an export joins them.
	{name: "azure-apim", title: "Azure API Management gateway logs (GatewayLogs, ApiManagementGatewayLogs)",
		signatures: []signature{
			{3, []string{"properties.apimSubscriptionId", "properties.backendTime", "properties.clientTime", "properties.backendResponseCode",
				"properties.backendUrl", "properties.apiRevision", "properties.clientTlsVersion",
				"properties.ApimSubscriptionId", "properties.BackendTime", "properties.ClientTime", "properties.BackendResponseCode",
				"properties.BackendUrl", "properties.ApiRevision", "properties.ClientTlsVersion"}},
			{3, []string{"TotalTime", "BackendTime", "ClientTime", "ApimSubscriptionId", "BackendResponseCode", "BackendUrl",
				"ApiRevision", "ClientTlsVersion"}},
		},
		fields: []sourceField{
			{"time", FTime, 0}, {"TimeGenerated", FTime, 0},
			{"durationMs", FRequestTime, UnitMilli}, {"TotalTime", FRequestTime, UnitMilli},
			{"properties.backendTime", FUpstreamResponseTime, UnitMilli}, {"BackendTime", FUpstreamResponseTime, UnitMilli},
			{"properties.responseCode", FStatus, 0}, {"ResponseCode", FStatus, 0},
			{"properties.backendResponseCode", FUpstreamStatus, 0}, {"BackendResponseCode", FUpstreamStatus, 0},
			{"properties.method", FMethod, 0}, {"Method", FMethod, 0},
			{"properties.url", FURI, 0}, {"Url", FURI, 0},
			{"callerIpAddress", FRemoteAddr, 0},
			// The caller's subscription (its key), else its address.
			{"properties.apimSubscriptionId", FClient, 0}, {"ApimSubscriptionId", FClient, 0},
			// The region of the gateway that served the request.
			{"location", FRegion, 0}, {"Region", FRegion, 0},
			{"ModelName", FModel, 0}, {"DeploymentName", FModel, 0},
			{"PromptTokens", FPromptTokens, 0}, {"CompletionTokens", FCompletionTokens, 0},
			// ApiManagementGatewayLlmLog splits a call's record whose
			// messages are long into rows of the same CorrelationId,
			// numbered from 0 (learn.microsoft.com/azure/azure-monitor/
			// reference/tables/apimanagementgatewayllmlog): joined to
			// GatewayLogs, each later row repeats the request, and is
			// passed over.
			{"SequenceNumber", FKind, 0},
		},
		requests: []string{"0"}},
	// JD Cloud's ALB access log in its Log Service (its field list:
	// jdcloudcom/en, documentation/Management/Log-Service/Introduction/
	// ResourceLog/ALBLog.md): nginx's names and seconds for the request
	// (request_time), the backend's under names of its own.
	{name: "jdcloud-alb", title: "JD Cloud ALB access log (Log Service)",
		signatures: []signature{{2, []string{"alb_id", "lb_vip", "lb_vport", "backend_server_ip_port", "backend_response_time", "backend_server_status"}}},
		fields: []sourceField{
			{"timestamp", FTime, 0}, {"request_time", FRequestTime, UnitSecond},
			{"backend_connect_time", FUpstreamConnectTime, UnitSecond}, {"backend_response_time", FUpstreamResponseTime, UnitSecond},
			{"status", FStatus, 0}, {"backend_server_status", FUpstreamStatus, 0}, {"backend_server_ip_port", FUpstreamAddr, 0},
			{"client_ip", FRemoteAddr, 0}, {"request_method", FMethod, 0}, {"request_uri", FURI, 0}, {"host", FHost, 0},
		}},
	// Baidu AI Cloud BLB's layer-7 access log (its field list:
	// cloud.baidu.com/doc/BLB/s/qk98jzi94, 访问日志): nginx's names for
	// most, but the status it answered with is response_status, and
	// remote_addr is the address of the BGW gateway in front of it
	// unless cip_forward is on: cip is the client's. Its times are
	// floats under nginx's names, with no unit given: nginx's seconds.
	{name: "baidu-blb", title: "Baidu AI Cloud BLB layer-7 access log",
		signatures: []signature{{2, []string{"vdum_ups_id", "vdum_rs_proto", "dylimit_id", "cport", "vport"}}},
		fields: []sourceField{
			{"time_local", FTime, 0}, {"response_status", FStatus, 0}, {"cip", FRemoteAddr, 0},
			{"request_time", FRequestTime, UnitSecond}, {"upstream_response_time", FUpstreamResponseTime, UnitSecond},
			{"upstream_connect_time", FUpstreamConnectTime, UnitSecond}, {"ssl_handshake_time", FSSLHandshakeTime, UnitSecond},
		}},
	// Azure Application Gateway v2's access log: the resource log
	// (ApplicationGatewayAccessLog, in storage or Event Hubs: timeStamp
	// and the request in properties, many numbers as text) and the Log
	// Analytics table AGWAccessLogs. timeTaken and serverResponseLatency
	// are seconds. v1 (retired in April 2026) wrote timeTaken in ms and,
	// in its documented sample, none of v2's names the signatures ask
	// for, so a v1 log is not read in the wrong unit. No name gives a
	// region: the gateway's is in none of its records.
	{name: "azure-appgw", title: "Azure Application Gateway v2 access log (ApplicationGatewayAccessLog, AGWAccessLogs)",
		signatures: []signature{
			{3, []string{"properties.transactionId", "properties.serverResponseLatency", "properties.serverRouted", "properties.serverStatus",
				"properties.clientResponseTime", "properties.originalRequestUriWithArgs", "properties.upstreamSourcePort",
				"properties.WAFEvaluationTime", "properties.error_info"}},
			{3, []string{"TransactionId", "ServerResponseLatency", "ServerRouted", "ServerStatus", "ClientResponseTime",
				"OriginalRequestUriWithArgs", "UpstreamSourcePort", "WafEvaluationTime"}},
			// The same in Log Analytics' AzureDiagnostics table, each
			// property a column suffixed by its type (_s text, _d
			// number, _g GUID), as Front Door's are.
			{3, []string{"transactionId_g", "serverResponseLatency_s", "serverRouted_s", "serverStatus_s", "clientResponseTime_d",
				"originalRequestUriWithArgs_s", "upstreamSourcePort_s", "WAFEvaluationTime_s", "error_info_s"}},
		},
		fields: []sourceField{
			{"timeStamp", FTime, 0}, {"time", FTime, 0}, {"TimeGenerated", FTime, 0},
			{"properties.timeTaken", FRequestTime, UnitSecond}, {"TimeTaken", FRequestTime, UnitSecond},
			{"properties.serverResponseLatency", FUpstreamResponseTime, UnitSecond}, {"ServerResponseLatency", FUpstreamResponseTime, UnitSecond},
			{"properties.httpStatus", FStatus, 0}, {"HttpStatus", FStatus, 0},
			{"properties.serverStatus", FUpstreamStatus, 0}, {"ServerStatus", FUpstreamStatus, 0},
			{"properties.serverRouted", FUpstreamAddr, 0}, {"ServerRouted", FUpstreamAddr, 0},
			{"properties.httpMethod", FMethod, 0}, {"HttpMethod", FMethod, 0},
			// The path after the gateway's rewrites, else the one asked.
			{"properties.requestUri", FURI, 0}, {"RequestUri", FURI, 0},
			{"properties.originalRequestUriWithArgs", FURI, 0}, {"OriginalRequestUriWithArgs", FURI, 0},
			{"properties.clientIP", FRemoteAddr, 0}, {"ClientIp", FRemoteAddr, 0},
			{"properties.host", FHost, 0}, {"Host", FHost, 0},
			{"properties.originalHost", FHost, 0}, {"OriginalHost", FHost, 0},
			{"timeTaken_d", FRequestTime, UnitSecond}, {"serverResponseLatency_s", FUpstreamResponseTime, UnitSecond},
			{"httpStatus_d", FStatus, 0}, {"serverStatus_s", FUpstreamStatus, 0}, {"serverRouted_s", FUpstreamAddr, 0},
			{"httpMethod_s", FMethod, 0}, {"requestUri_s", FURI, 0}, {"originalRequestUriWithArgs_s", FURI, 0},
			{"clientIP_s", FRemoteAddr, 0}, {"host_s", FHost, 0}, {"originalHost_s", FHost, 0},
		}},
	// Azure Front Door's access log, Standard/Premium (FrontDoorAccessLog)
	// and classic (FrontdoorAccessLog): the resource log in storage or
	// Event Hubs (time and the request in properties, numbers as text),
	// and its rows in Log Analytics, where only the shared AzureDiagnostics
	// table holds them: columns suffixed by type (_s text; _d where a
	// workspace first saw a number). timeTaken and timeToFirstByte are
	// seconds; requestUri a full URL. pop is the edge the caller entered
	// by, near the caller, not the endpoint's region: it is left unread.
	// Azure App Service's HTTP log, category AppServiceHTTPLogs
	// (learn.microsoft.com/azure/azure-monitor/reference/tables/
	// appservicehttplogs): the resource log's properties (in storage or
	// Event Hubs: CsMethod, CsUriStem, ScStatus as text, TimeTaken), or
	// the Log Analytics table's columns. TimeTaken is "time taken by HTTP
	// request in milliseconds"; TimeGenerated and time are UTC. An app
	// behind it (a gateway on App Service) is a request each.
	{name: "azure-appservice", title: "Azure App Service HTTP log (AppServiceHTTPLogs)",
		signatures: []signature{
			{3, []string{"properties.CsUriStem", "properties.ScStatus", "properties.TimeTaken", "properties.CsMethod", "properties.CIp",
				"properties.CsHost", "properties.ScSubStatus", "properties.ComputerName", "properties.SPort"}},
			{3, []string{"CsUriStem", "ScStatus", "TimeTaken", "CsMethod", "CIp", "CsHost", "ScSubStatus", "ScWin32Status", "ComputerName", "SPort"}},
		},
		fields: []sourceField{
			{"time", FTime, 0}, {"TimeGenerated", FTime, 0},
			{"properties.TimeTaken", FRequestTime, UnitMilli}, {"TimeTaken", FRequestTime, UnitMilli},
			{"properties.ScStatus", FStatus, 0}, {"ScStatus", FStatus, 0},
			{"properties.CsMethod", FMethod, 0}, {"CsMethod", FMethod, 0},
			{"properties.CsUriStem", FURI, 0}, {"CsUriStem", FURI, 0},
			{"properties.CIp", FRemoteAddr, 0}, {"CIp", FRemoteAddr, 0},
			{"properties.CsHost", FHost, 0}, {"CsHost", FHost, 0},
		}},
	{name: "azure-frontdoor", title: "Azure Front Door access log (FrontDoorAccessLog, AzureDiagnostics)",
		signatures: []signature{
			{3, []string{"properties.trackingReference", "properties.timeToFirstByte", "properties.routingRuleName", "properties.originName",
				"properties.cacheStatus", "properties.socketIp", "properties.httpStatusDetails", "properties.backendHostname", "properties.pop"}},
			{3, []string{"trackingReference_s", "timeToFirstByte_s", "timeToFirstByte_d", "routingRuleName_s", "originName_s",
				"cacheStatus_s", "socketIp_s", "httpStatusDetails_s", "backendHostname_s", "pop_s"}},
		},
		fields: []sourceField{
			{"time", FTime, 0}, {"TimeGenerated", FTime, 0},
			{"properties.timeTaken", FRequestTime, UnitSecond}, {"timeTaken_s", FRequestTime, UnitSecond}, {"timeTaken_d", FRequestTime, UnitSecond},
			{"properties.timeToFirstByte", FTTFB, UnitSecond}, {"timeToFirstByte_s", FTTFB, UnitSecond}, {"timeToFirstByte_d", FTTFB, UnitSecond},
			// As written: 0 when the request to the origin timed out,
			// 499 when the client closed the connection.
			{"properties.httpStatusCode", FStatus, 0}, {"httpStatusCode_s", FStatus, 0}, {"httpStatusCode_d", FStatus, 0},
			{"properties.httpMethod", FMethod, 0}, {"httpMethod_s", FMethod, 0},
			{"properties.requestUri", FURI, 0}, {"requestUri_s", FURI, 0},
			{"properties.clientIp", FRemoteAddr, 0}, {"clientIp_s", FRemoteAddr, 0},
			{"properties.hostName", FHost, 0}, {"hostName_s", FHost, 0},
			// The origin (Standard/Premium: N/A when none was asked), or
			// the backend (classic: blank then).
			{"properties.originName", FUpstreamAddr, 0}, {"originName_s", FUpstreamAddr, 0},
			{"properties.backendHostname", FUpstreamAddr, 0}, {"backendHostname_s", FUpstreamAddr, 0},
		}},
	// Azure OpenAI's (Cognitive Services accounts') resource log of
	// category RequestResponse: in storage or Event Hubs, the top-level
	// schema common to Azure's resource logs (time in UTC; durationMs in
	// ms; resultSignature, for a REST call, its HTTP status; location,
	// the region of the resource; callerIpAddress), and in Log Analytics
	// its AzureDiagnostics rows (TimeGenerated, DurationMs,
	// ResultSignature, CallerIPAddress, properties_s). Microsoft documents
	// no property of the category: the names below (apiName,
	// requestLength, responseLength, requestTime, responseTime, objectId,
	// streamType, modelDeploymentName, modelName, modelVersion) are those
	// of records the service writes, as Elastic's Azure OpenAI
	// integration keeps them, and match the dimensions Microsoft names
	// for the service's metrics (ModelDeploymentName, ModelName,
	// StreamType, ApiName). properties is an object or its JSON text.
	// Left unread: streamType, whose "Non-Streaming" is seen but whose
	// streaming value no source gives; requestTime and responseTime,
	// undocumented .NET ticks; objectId, undocumented and empty for a
	// call with a key; operationName (ChatCompletions_Create) and apiName
	// ("Azure OpenAI API version …"), neither a method nor a path; and
	// the region of a Log Analytics row, which has no column that
	// Microsoft documents as one.
	{name: "azure-openai", title: "Azure OpenAI resource log (RequestResponse, AzureDiagnostics)",
		signatures: []signature{
			{3, []string{"properties.apiName", "properties.requestLength", "properties.responseLength", "properties.requestTime",
				"properties.responseTime", "properties.streamType", "properties.modelDeploymentName", "properties.modelVersion"}},
			{3, []string{"properties_s.apiName", "properties_s.requestLength", "properties_s.responseLength", "properties_s.requestTime",
				"properties_s.responseTime", "properties_s.streamType", "properties_s.modelDeploymentName", "properties_s.modelVersion"}},
		},
		fields: []sourceField{
			{"time", FTime, 0}, {"TimeGenerated", FTime, 0},
			// A name with a unit matches its own spelling only.
			{"durationMs", FRequestTime, UnitMilli}, {"DurationMs", FRequestTime, UnitMilli},
			// Names without a unit match whatever their case:
			// ResultSignature, CallerIPAddress too.
			{"resultSignature", FStatus, 0}, {"callerIpAddress", FRemoteAddr, 0},
			{"location", FRegion, 0},
			// The model, else the deployment's name (its owner's).
			{"properties.modelName", FModel, 0}, {"properties_s.modelName", FModel, 0},
			{"properties.modelDeploymentName", FModel, 0}, {"properties_s.modelDeploymentName", FModel, 0},
			// properties' requestTime is in ticks, not the time the
			// generic alias RequestTime reads: a nested name that feeds
			// nothing is looked up by its own name, which must then feed
			// nothing too (the records have no top-level requestTime).
			{"requestTime", ignored, 0},
		}},
	// OpenTelemetry traces exported as OTLP/JSON (otel.go): told by their
	// shape, {"resourceSpans":[…]}, not by names; its names are the
	// attributes' keys of a span and of its resource. The GenAI semantic
	// conventions' (gen_ai.*: the response's model, else the request's;
	// usage.input_tokens and output_tokens, prompt_tokens and
	// completion_tokens before 1.27; request.stream; and
	// response.time_to_first_chunk, seconds), OpenLLMetry's
	// llm.is_streaming, OpenInference's llm.* (model_name, token_count.*),
	// and HTTP's (http.response.status_code, http.status_code before 1.21,
	// url.path, http.target, http.route, client.address), server.address,
	// user.id, and the resource's cloud.region. A span's status is no
	// HTTP status; the request time is end − start, the time the start.
	{name: "otel", title: "OpenTelemetry traces, OTLP/JSON (GenAI, OpenLLMetry, OpenInference, HTTP spans)",
		fields: otelNames, requests: []string{"call"}},
	// Jaeger's spans as JSON (spans.go: its query API's, its UI's
	// download, its Elasticsearch span index): their tags are an OTLP
	// span's attributes, or OpenTracing's tags, read by the otel
	// source's names. startTime and duration are µs, read by spans.go
	// itself: not as SPEC §3's generic names, whose duration is ms.
	{name: "jaeger", title: "Jaeger spans (query API, UI download, Elasticsearch span index)",
		signatures: []signature{{3, []string{"traceID", "spanID", "operationName", "references", "processID", "startTimeMillis", "flags"}}},
		fields:     append(spanOwnNames(), otelNames...),
		requests:   []string{"call"}},
	// Zipkin's spans as JSON, v2 (a list of spans; /api/v2/traces, a
	// list of traces) and v1 (spans.go): the tags of Zipkin's
	// instrumentation (Brave's http.path), the caller's address the
	// remote endpoint of a server's span.
	{name: "zipkin", title: "Zipkin spans, v2 and v1 JSON (API, UI download)",
		signatures: []signature{{3, []string{"traceId", "id", "localEndpoint", "remoteEndpoint"}},
			{3, []string{"traceId", "id", "annotations", "binaryAnnotations"}}},
		fields: append(append(spanOwnNames(),
			sourceField{"http.path", FURI, 0},
			sourceField{"remoteEndpoint.ipv4", FRemoteAddr, 0}, sourceField{"remoteEndpoint.ipv6", FRemoteAddr, 0}),
			otelNames...),
		requests: []string{"call"}},
	// Apache's access log in LTSV as alp documents it (LogFormat
	// "…\treqtime_microsec:%D\tapptime:%D…"): %D is microseconds, in
	// both labels, where nginx's reqtime and apptime are seconds.
	{name: "apache-ltsv", title: "Apache httpd LTSV (alp's format: reqtime_microsec)",
		signatures: []signature{{1, []string{"reqtime_microsec"}}},
		fields: []sourceField{
			{"reqtime_microsec", FRequestTime, UnitMicro}, {"apptime", FUpstreamResponseTime, UnitMicro},
		}},
	// alp's JSON log_format (its README): "request_time":$request_time,
	// "response_time":"$upstream_response_time", "host":"$remote_addr",
	// "vhost":"$host". Its example log writes response_time alone ("-"
	// beside a request_time of its own): there it is the request's time
	// too, the best the record has.
	{name: "alp", title: "nginx escape=json (alp convention)",
		signatures: []signature{{2, []string{"response_time", "body_bytes", "uri", "apptime"}}},
		fields: []sourceField{
			{"request_time", FRequestTime, UnitSecond},
			{"response_time", FUpstreamResponseTime, UnitSecond}, {"response_time", FRequestTime, UnitSecond},
			{"reqtime", FRequestTime, UnitSecond}, {"apptime", FUpstreamResponseTime, UnitSecond},
			{"host", FRemoteAddr, 0}, {"vhost", FHost, 0},
		}},
	// The JSON log_format of countless ELK / Filebeat / Logstash guides
	// (access_json): $request_time as "responsetime", the upstream's
	// times as "upstreamtime", "uct", "uht" (nginx's seconds, lists of
	// several tries as nginx writes them), and "host" for $server_addr,
	// the server's own address, not the Host header ("http_host",
	// "domain").
	{name: "nginx-elk", title: "nginx JSON log_format (ELK convention: responsetime, upstreamtime)",
		signatures: []signature{{2, []string{"responsetime", "upstreamtime", "upstreamhost", "upstreamaddr", "clientip"}}},
		fields: []sourceField{
			{"responsetime", FRequestTime, UnitSecond}, {"upstreamtime", FUpstreamResponseTime, UnitSecond},
			{"uct", FUpstreamConnectTime, UnitSecond}, {"uht", FUpstreamHeaderTime, UnitSecond},
			{"upstreamhost", FUpstreamAddr, 0}, {"upstreamaddr", FUpstreamAddr, 0},
			{"clientip", FRemoteAddr, 0}, {"url", FURI, 0}, {"requesturl", FRequest, 0},
			{"http_host", FHost, 0}, {"domain", FHost, 0}, {"host", ignored, 0},
		}},
	// New Relic's Transaction and Span events, as an NRQL query returns
	// them (SELECT * FROM Transaction, FROM Span: the UI's CSV export,
	// NerdGraph's data.actor.account.nrql.results, the Insights query
	// API's results[].events). Its agents write the timestamp in epoch
	// ms and the duration in seconds ("Timestamp in milliseconds,
	// duration in seconds": newrelic/node-newrelic lib/spans/span-event.js;
	// the data dictionary's Transaction and Span, docs.newrelic.com/
	// attribute-dictionary), not the generic alias's ms. The status is
	// http.statusCode, else the older httpResponseCode and
	// response.status (strings); the path request.uri, a span's
	// http.url, else the transaction's name ("WebTransaction/Expressjs/
	// POST//v1/chat"). appName is the application that answered. Of a
	// trace's spans, only the entry span of each transaction is a
	// request: nr.entryPoint true (the agent writes it on that span
	// only), or span.kind server; a client (External/, Datastore/) or
	// internal span is part of one, and a span of neither, of an agent
	// that writes no kind on internal spans, is told by its category
	// (generic, http, datastore). A Transaction event has none of
	// these: each is a request.
	{name: "newrelic", title: "New Relic Transaction and Span events (NRQL: CSV, NerdGraph, Insights API)",
		signatures: []signature{{2, []string{"nr.entryPoint", "nr.apdexPerfZone", "nr.guid", "nr.pg", "nr.tripId",
			"appName", "appId", "httpResponseCode", "transactionType", "transactionSubType", "totalTime", "webDuration",
			"databaseDuration", "externalDuration", "queueDuration", "guid", "transactionId", "trustedParentId", "tracingVendors",
			"entityGuid", "entity.guid"}}},
		fields: []sourceField{
			{"timestamp", FTime, UnitMilli}, {"duration", FRequestTime, UnitSecond},
			{"http.statusCode", FStatus, 0}, {"httpResponseCode", FStatus, 0}, {"response.status", FStatus, 0},
			{"request.method", FMethod, 0}, {"http.method", FMethod, 0},
			{"request.uri", FURI, 0}, {"http.url", FURI, 0}, {"name", FURI, 0},
			{"appName", FHost, 0},
			{"nr.entryPoint", FKind, 0}, {"span.kind", FKind, 0}, {"category", FKind, 0},
		},
		requests: []string{"true", "server"}},
	// Elastic Common Schema: the documents Filebeat's and Elastic Agent's
	// integrations (nginx, Apache, HAProxy, Traefik, AWS ELB, …) and
	// Elastic APM keep in Elasticsearch, as an export gives them (its
	// hits' _source, a document a line, Kibana's CSV of their fields).
	// event.duration is nanoseconds, APM's transaction.duration.us
	// microseconds; of APM's documents (processor.event: transaction,
	// span, error, metric) only transactions are requests. Dotted names
	// read a nested object's members and a flat key alike. event.duration
	// alone tells it: ECS's name, in a Kibana export of a few columns.
	{name: "ecs", title: "Elastic Common Schema (Elasticsearch documents of Filebeat, Elastic Agent, APM)",
		signatures: []signature{{1, []string{"ecs.version", "event.duration"}},
			{3, []string{"event.dataset", "event.module", "event.duration", "http.response.status_code", "url.original", "user_agent.original", "source.ip"}},
			{2, []string{"processor.event", "transaction.duration.us", "transaction.id"}}},
		fields: []sourceField{
			{"@timestamp", FTime, 0},
			{"event.duration", FRequestTime, UnitNano}, {"transaction.duration.us", FRequestTime, UnitMicro},
			{"http.response.status_code", FStatus, 0}, {"http.request.method", FMethod, 0},
			{"url.path", FURI, 0}, {"url.original", FURI, 0},
			{"source.ip", FRemoteAddr, 0}, {"source.address", FRemoteAddr, 0},
			{"client.ip", FRemoteAddr, 0}, {"client.address", FRemoteAddr, 0},
			{"user.name", FClient, 0}, {"user.id", FClient, 0},
			{"cloud.region", FRegion, 0},
			{"processor.event", FKind, 0},
		},
		requests: []string{"transaction"}},
	// Datadog's logs as its Logs API returns them: v2's search,
	// {"data":[{"id","type":"log","attributes":{"timestamp","host",
	// "service","status","message","tags","attributes":{…}}}],"links",
	// "meta"}, and v1's list, {"logs":[{"id","content":{…}}]}. A log's
	// own attributes are a level further in, named by Datadog's standard
	// attributes: duration ns, http.status_code, http.method,
	// http.url_details.path (else http.url), network.client.ip, usr.id
	// (else usr.name) the caller.
	{name: "datadog", title: "Datadog logs (Logs API: v2 search, v1 list)",
		signatures: []signature{{3, []string{"attributes.timestamp", "attributes.host", "attributes.service", "attributes.status", "attributes.message", "attributes.tags"}},
			{3, []string{"content.timestamp", "content.host", "content.service", "content.message", "content.tags"}}},
		fields: datadogFields()},
	// Alibaba Cloud's load balancers' layer-7 access log, CLB's (once
	// SLB's, __topic__ slb_layer7_access_log) and ALB's
	// (alb_layer7_access_log), as Simple Log Service keeps it and
	// exports it (JSON lines, the GetLogs API's records, CSV), every
	// value a string (help.aliyun.com/zh/sls/user-guide/slb,
	// www.alibabacloud.com/help/en/sls/alb). Its names are nginx's and
	// read as such: request_time and upstream_response_time s,
	// tcpinfo_rtt µs, time the log's own (with its zone; __time__,
	// SLS's epoch s, weighed against it), client_ip the caller. Its own
	// read_request_time and write_response_time are ms spent reading the
	// request and writing the response, no request time: no field holds
	// them, so they stay unread. It is told by the names nginx has not:
	// the instance's id (slbid, app_lb_id), the listener's port, the
	// proxy's read and write times. Before nginx's JSON and TokenHub,
	// whose names it shares (region, in CLB's export of the newer page).
	{name: "aliyun-lb", title: "Alibaba Cloud CLB (SLB) and ALB layer-7 access log (Simple Log Service)",
		signatures: []signature{{1, []string{"slbid", "app_lb_id", "slb_vport", "read_request_time", "write_response_time"}}}},
	// nginx's own access log as JSON: a log_format (escape=json, nginx
	// 1.11.8 on) whose keys are the names of the variables it writes,
	// as the nginx documentation lists them
	// (https://nginx.org/en/docs/http/ngx_http_log_module.html#log_format,
	// ngx_http_core_module's and ngx_http_upstream_module's embedded
	// variables) and the common recipes spell them
	// ('{"time_local":"$time_local","remote_addr":"$remote_addr",
	// "request":"$request","status":"$status","body_bytes_sent":…,
	// "request_time":"$request_time","http_referrer":"$http_referer",…}':
	// gist.github.com/gnilchee/242f93bebb21d69f21c79b1cebb01b6f,
	// gist.github.com/burdandrei/3482a590c3be2c9beabed42efa080a7e; many
	// write $http_referer under "http_referrer"). Its names are the
	// canonical ones, read as TokenHub's are; a record that carries
	// TokenHub's own names or CLS's is TokenHub's.
	{name: "nginx-json", title: "nginx JSON log_format (keys named after its variables)",
		signatures: []signature{{4, []string{"time_local", "time_iso8601", "msec", "remote_addr", "remote_user", "request",
			"request_method", "request_uri", "status", "body_bytes_sent", "bytes_sent", "request_length", "request_time",
			"http_referer", "http_referrer", "http_user_agent", "http_x_forwarded_for", "upstream_addr", "upstream_status",
			"upstream_response_time", "upstream_connect_time", "upstream_header_time"}}},
		unless:    []string{"__TIMESTAMP__", "__TAG__.*", "__SOURCE__", "first_token_ms", "region", "client_region"},
		canonical: true},
	{name: "tokenhub", title: "TokenHub / CLS JSON and CSV",
		signatures: []signature{{1, []string{"__TIMESTAMP__", "__TAG__.*", "__SOURCE__"}},
			{2, []string{"request_time", "first_token_ms", "region", "client_region", "upstream_response_time", "model"}}},
		canonical: true},
}

// otelNames are the names of the otel source: an OTLP span's
// attributes' keys and its resource's, and a Jaeger or Zipkin span's
// tags, which are the attributes of a span sent as OTLP.
var otelNames = []sourceField{
	{"gen_ai.response.model", FModel, 0}, {"gen_ai.request.model", FModel, 0},
	{"llm.response.model_name", FModel, 0}, {"llm.model_name", FModel, 0}, {"llm.request.model_name", FModel, 0},
	{"http.response.status_code", FStatus, 0}, {"http.status_code", FStatus, 0},
	// A failed call's error.type: the provider's error code, or
	// the exception's class (statusOfText).
	{"error.type", FStatus, unitOutcome},
	{"gen_ai.request.stream", FStream, 0}, {"llm.is_streaming", FStream, 0},
	{"gen_ai.usage.input_tokens", FPromptTokens, 0}, {"gen_ai.usage.prompt_tokens", FPromptTokens, 0},
	{"llm.token_count.prompt", FPromptTokens, 0},
	{"gen_ai.usage.output_tokens", FCompletionTokens, 0}, {"gen_ai.usage.completion_tokens", FCompletionTokens, 0},
	{"llm.token_count.completion", FCompletionTokens, 0},
	{"gen_ai.response.time_to_first_chunk", FTTFT, UnitSecond},
	{"http.request.method", FMethod, 0}, {"http.method", FMethod, 0},
	{"url.path", FURI, 0}, {"http.target", FURI, 0}, {"http.route", FURI, 0},
	{"client.address", FRemoteAddr, 0}, {"http.client_ip", FRemoteAddr, 0},
	{"user.id", FClient, 0}, {"llm.user", FClient, 0},
	{"server.address", FHost, 0},
	{"cloud.region", FRegion, 0},
}

// spanOwnNames are the names of a Jaeger or Zipkin span's own members
// that spans.go reads in their own unit (µs), and that SPEC §3's generic
// names do not read: none of the file's names is refused as a duration
// that is not in its unit (implausibleDurations).
func spanOwnNames() []sourceField {
	return []sourceField{
		{"startTime", ignored, 0}, {"startTimeMillis", ignored, 0}, {"timestamp", ignored, 0}, {"duration", ignored, 0},
	}
}

// datadogFields are the names of Datadog's logs: the same under v2's
// attributes and v1's content.
func datadogFields() []sourceField {
	var fs []sourceField
	for _, in := range []string{"attributes.", "content."} {
		at := in + "attributes."
		fs = append(fs,
			sourceField{in + "timestamp", FTime, 0},
			sourceField{at + "duration", FRequestTime, UnitNano},
			sourceField{at + "http.status_code", FStatus, 0},
			sourceField{at + "http.method", FMethod, 0},
			sourceField{at + "http.url_details.path", FURI, 0}, sourceField{at + "http.url", FURI, 0},
			sourceField{at + "network.client.ip", FRemoteAddr, 0},
			sourceField{at + "usr.id", FClient, 0}, sourceField{at + "usr.name", FClient, 0},
		)
	}
	return fs
}

// openrouterNames are the names only OpenRouter's generation stats
// carry, under prefix.
func openrouterNames(prefix string) []string {
	var names []string
	for _, n := range []string{"generation_time", "moderation_latency", "tokens_prompt", "tokens_completion",
		"native_tokens_prompt", "native_tokens_completion", "native_tokens_reasoning", "upstream_inference_cost",
		"native_finish_reason", "is_byok",
		// The TypeScript SDK's GenerationResponse, camelCase
		// (openrouter.ai/docs/sdks/typescript/api-reference/models/generationresponse).
		"generationTime", "moderationLatency", "tokensPrompt", "tokensCompletion", "nativeTokensPrompt",
		"nativeTokensCompletion", "nativeTokensReasoning", "upstreamInferenceCost", "nativeFinishReason", "isByok"} {
		names = append(names, prefix+n)
	}
	return names
}

// openrouterFields are the names of OpenRouter's generation stats: the
// data objects' own, and the same under the API answer's "data".
func openrouterFields() []sourceField {
	var fs []sourceField
	for _, in := range []string{"", "data."} {
		fs = append(fs,
			sourceField{in + "created_at", FTime, 0},
			sourceField{in + "latency", FRequestTime, UnitMilli},
			sourceField{in + "model", FModel, 0},
			sourceField{in + "streamed", FStream, 0},
			sourceField{in + "provider_name", FUpstreamAddr, 0},
			sourceField{in + "native_tokens_prompt", FPromptTokens, 0}, sourceField{in + "tokens_prompt", FPromptTokens, 0},
			sourceField{in + "native_tokens_completion", FCompletionTokens, 0}, sourceField{in + "tokens_completion", FCompletionTokens, 0},
			sourceField{in + "external_user", FClient, 0}, sourceField{in + "app_id", FClient, 0},
			// The TypeScript SDK's names.
			sourceField{in + "createdAt", FTime, 0}, sourceField{in + "providerName", FUpstreamAddr, 0},
			sourceField{in + "nativeTokensPrompt", FPromptTokens, 0}, sourceField{in + "tokensPrompt", FPromptTokens, 0},
			sourceField{in + "nativeTokensCompletion", FCompletionTokens, 0}, sourceField{in + "tokensCompletion", FCompletionTokens, 0},
			sourceField{in + "externalUser", FClient, 0}, sourceField{in + "appId", FClient, 0},
		)
	}
	return fs
}

// envoyFields are the names of Envoy's JSON access logs (Istio's default
// encoding and Higress's) that the generic aliases lack.
var envoyFields = []sourceField{
	{"downstream_remote_address", FRemoteAddr, 0}, {"upstream_host", FUpstreamAddr, 0},
	// Envoy Gateway's default JSON format names its keys after the
	// headers: the upstream's time (ms) and the path before rewrites.
	{"x-envoy-upstream-service-time", FUpstreamResponseTime, UnitMilli},
	{"x-envoy-origin-path", FURI, 0}, {":authority", FHost, 0},
	// %RESPONSE_DURATION% under its own name (ms): the upstream's
	// response began (the text format's operator, envoy.go).
	{"response_duration", FUpstreamHeaderTime, UnitMilli},
	// Envoy AI Gateway's access log fields (its observability docs):
	// the model and tokens of the call, in either spelling.
	{"genai_model_name", FModel, 0}, {"gen_ai.request.model", FModel, 0}, {"gen_ai.response.model", FModel, 0},
	{"genai_tokens_input", FPromptTokens, 0}, {"gen_ai.usage.input_tokens", FPromptTokens, 0},
	{"genai_tokens_output", FCompletionTokens, 0}, {"gen_ai.usage.output_tokens", FCompletionTokens, 0},
}

// textSources are the sources recognised by their text format, not by
// field names: named in the report, they add no names but the W3C
// ones, whose names are those their #Fields directive gives (w3c.go).
var textSources = []*source{
	{name: "nginx", title: "nginx text (combined, main, timed main, ingress upstreaminfo, custom log_format)"},
	{name: "ltsv", title: "LTSV (alp, ISUCON)"},
	{name: "envoy-text", title: "Envoy / Istio default text format"},
	{name: "apisix-text", title: "APISIX default access log"},
	// The sources a report names for text formats, so that a name read
	// in a report is one --source takes.
	{name: "istio", title: "Istio default text format"},
	{name: "ingress-nginx", title: "ingress-nginx upstreaminfo"},
	{name: "haproxy", title: "HAProxy HTTP log (option httplog, or its log-format given with --log-format)"},
	{name: "gin", title: "Gin request log (Ollama, one-api, new-api)"},
	{name: "tei", title: "text-embeddings-inference router (text)"},
	{name: "tracing", title: "Rust tracing text log of another program (a span's total_time)"},
	{name: "apache", title: "Apache httpd access log (its LogFormat given with --log-format)"},
	{name: "gunicorn", title: "gunicorn access log (its access_log_format given with --log-format)"},
	{name: "uvicorn", title: "uvicorn access log (no request time)"},
	{name: "llama-server", title: "llama.cpp server (llama-server) request log, text (no request time)"},
	{name: "morgan", title: "morgan (Express) request log: dev, tiny, short, or its format given with --log-format"},
	{name: "aws-alb", title: "AWS Application Load Balancer access log"},
	{name: "aws-elb", title: "AWS Classic Load Balancer access log (no request time)"},
	{name: "chi", title: "chi (Go) request log"},
	{name: "huawei-apig", title: "Huawei Cloud API Gateway access log"},
	{name: "huawei-elb", title: "Huawei Cloud ELB layer-7 access log"},
	{name: "reactor-netty", title: "Reactor Netty access log (Spring Cloud Gateway, WebFlux)"},
	{name: "quarkus", title: "Quarkus HTTP access log through its logging"},
	{name: "bentoml", title: "BentoML access log"},
	{name: "granian", title: "granian access log (its default format)"},
	{name: "django", title: "Django development server log (manage.py runserver)"},
	{name: "werkzeug", title: "werkzeug development server log (flask run)"},
	{name: "hypercorn", title: "Hypercorn access log behind its logger's line (its default format, or its access_log_format given with --log-format)"},
	{name: "ray-serve", title: "Ray Serve access log"},
	{name: "lighttpd", title: "lighttpd access log (its default format)"},
	{name: "squid", title: "Squid native access.log"},
	{name: "koa", title: "koa-logger request log"},
	{name: "hono", title: "Hono logger middleware request log"},
	{name: "emissary", title: "Emissary-ingress (Ambassador) default access log"},
	{name: "kuma", title: "Kuma / Kong Mesh default HTTP access log"},
	{name: "iis", title: "IIS W3C extended log (time-taken ms)", fields: w3cFields(UnitMilli)},
	{name: "aspnetcore-w3c", title: "ASP.NET Core W3CLogger (AddW3CLogging) W3C log (time-taken ms)", fields: w3cFields(UnitMilli)},
	{name: "cloudfront", title: "Amazon CloudFront standard log (time-taken s)", fields: cloudfrontFields},
	{name: "w3c", title: "W3C extended log of another program (time-taken s, as the draft says)", fields: w3cFields(UnitSecond)},
}

// sourceByName finds a source of either table.
func sourceByName(name string) *source {
	for _, s := range sources {
		if s.name == name {
			return s
		}
	}
	for _, s := range textSources {
		if s.name == name {
			return s
		}
	}
	return nil
}

// SourceNames returns the names --source accepts, sorted.
func SourceNames() []string {
	var names []string
	for _, s := range sources {
		names = append(names, s.name)
	}
	for _, s := range textSources {
		names = append(names, s.name)
	}
	sort.Strings(names)
	return names
}

// CheckSource reports whether name is a known source.
func CheckSource(name string) error {
	if sourceByName(name) == nil {
		return fmt.Errorf("unknown source %q (want one of %s)", name, strings.Join(SourceNames(), ", "))
	}
	return nil
}

// detectSource returns the first source of the table whose signature
// the names and paths match, or nil. A signature matches when at least
// need of its names are carried: each by a name of the record, one
// ending in "*" by a name it starts, and a dotted one by a nested
// value's path too.
//
// The names are looked up once, in an index of every signature's names
// (signatureIndex), instead of each signature's names being sought among
// the record's: a JSON-lines file's source is detected on its first
// records, and over many small files that search was most of the run.
func detectSource(names, paths []string) *source {
	x := signatureIndex()
	var small [8]uint64
	have := small[:]
	if n := (len(x.wants) + 63) / 64; n > len(small) {
		have = make([]uint64, n)
	}
	set := func(place int32) { have[place/64] |= 1 << (place % 64) }
	for _, n := range names {
		for _, place := range x.places[n] {
			set(place)
		}
	}
	for _, place := range x.prefixes {
		start := strings.TrimSuffix(x.wants[place], "*")
		for _, n := range names {
			if strings.HasPrefix(n, start) {
				set(place)
				break
			}
		}
	}
	for _, p := range paths {
		for _, place := range x.places[p] {
			if x.dotted[place] {
				set(place)
			}
		}
	}
	place := int32(0)
	for _, s := range sources {
		for _, sig := range s.signatures {
			n := 0
			for range sig.names {
				if have[place/64]&(1<<(place%64)) != 0 {
					n++
				}
				place++
			}
			if n >= sig.need && !carriesAny(names, s.unless) {
				return s
			}
		}
	}
	return nil
}

// carriesAny reports whether names holds any of want ("x*": any name
// starting with x).
func carriesAny(names, want []string) bool {
	for _, w := range want {
		start, prefix := strings.CutSuffix(w, "*")
		for _, n := range names {
			if n == w || prefix && strings.HasPrefix(n, start) {
				return true
			}
		}
	}
	return false
}

// sigIndex is every signature's names, in the table's order, each at
// its place (one per name of each signature).
type sigIndex struct {
	wants    []string           // by place
	places   map[string][]int32 // the places of each name
	prefixes []int32            // the places of the names ending in "*"
	dotted   []bool             // by place: also carried by a nested value's path
}

// signatureIndex indexes the signatures of the sources table, once.
var signatureIndex = sync.OnceValue(func() *sigIndex {
	x := &sigIndex{places: map[string][]int32{}}
	for _, s := range sources {
		for _, sig := range s.signatures {
			for _, want := range sig.names {
				place := int32(len(x.wants))
				x.wants = append(x.wants, want)
				x.places[want] = append(x.places[want], place)
				prefix := strings.HasSuffix(want, "*")
				if prefix {
					x.prefixes = append(x.prefixes, place)
				}
				x.dotted = append(x.dotted, strings.Contains(want, ".") && !prefix)
			}
		}
	}
	return x
})

// before reports whether detectSource tries source a before source b.
func before(a, b *source) bool {
	for _, s := range sources {
		switch s {
		case b:
			return false
		case a:
			return true
		}
	}
	return false
}

// request reports whether r is a request to the schema's source: true
// but for a record whose kind (FKind) is none of the source's requests.
// A record of the source's failed kind loses its ttft here, and one of
// a wholeSeconds source the request_time of two instants to the second.
func (s *Schema) request(r *Record) bool {
	if s.source == nil {
		return true
	}
	if s.source.wholeSeconds && r.prio[FRequestTime] == prioDerived && r.TimeNS%1e9 == 0 && r.endNS%1e9 == 0 {
		r.set &^= 1 << FRequestTime
	}
	if !r.Has(FKind) {
		return true
	}
	kind := r.Text(FKind)
	if s.source.failed != "" && strings.EqualFold(string(kind), s.source.failed) {
		r.set &^= 1 << FTTFT
	}
	if s.source.succeeded != "" && (r.set|r.unread)&(1<<FStatus) == 0 && strings.EqualFold(string(kind), s.source.succeeded) {
		r.put(FStatus, prioDerived, 200)
	}
	if s.source.requests == nil {
		return true
	}
	for _, k := range s.source.requests {
		if strings.EqualFold(string(kind), k) ||
			strings.HasSuffix(k, "*") && len(kind) >= len(k)-1 && strings.EqualFold(string(kind[:len(k)-1]), k[:len(k)-1]) {
			return true
		}
	}
	return false
}

// stray reports whether r, of a file of a program's log, has a time and
// no other field but its kind: no request of the program, whose requests
// all carry more, but the server's own log line among them (Traefik's
// {"level":"info","msg":…,"time":…}). A file of no known source, or of
// the canonical names (TokenHub's), reads such a record: its other names
// may need --map, or its fields were dropped.
func (s *Schema) stray(r *Record) bool {
	return s.source != nil && !s.source.canonical && r.set&^(1<<FTime|1<<FKind) == 0
}

// noClient, as the name a file's client is read from, reads it from no
// name: the file's client is remote_addr without its port.
const noClient = "\x00"

// clientName returns the name, among a file's names and paths, that its
// client is read from: the best of the schema's client names present, or
// "" when none is (then client is remote_addr without its port).
func (s *Schema) clientName(names, paths []string) string {
	best, bestPrio := "", -1
	for _, ns := range [][]string{names, paths} {
		for _, n := range ns {
			for _, b := range s.LookupString(n) {
				if b.Field == FClient && (bestPrio < 0 || int(b.Prio) < bestPrio) {
					best, bestPrio = n, int(b.Prio)
				}
			}
		}
	}
	return best
}

// commonClient returns the client name the most of records' carry as
// their best, the better name of two carried by as many; "" when none
// carries one.
func (s *Schema) commonClient(records iter.Seq2[[]string, []string]) string {
	count := map[string]int{}
	best := ""
	for names, paths := range records {
		c := s.clientName(names, paths)
		if c == "" {
			continue
		}
		count[c]++
		if best == "" || count[c] > count[best] || count[c] == count[best] && s.clientPrio(c) < s.clientPrio(best) {
			best = c
		}
	}
	return best
}

// clientPrio is the priority of name as a client name: lower is better.
func (s *Schema) clientPrio(name string) int {
	p := math.MaxInt
	for _, b := range s.LookupString(name) {
		if b.Field == FClient {
			p = min(p, int(b.Prio))
		}
	}
	return p
}

// ForNames returns the schema for a file whose first record carries
// names, and paths of values nested in it ("consumer.username"): its
// source's (forced, or detected from names), with client read from one
// name or path only. It also returns the source's name ("" when none
// matched) and the zone the source fixes for its times (nil: --tz).
//
// When the first record's names are no source's, the first of the later
// records (as far as the caller read ahead) whose names are one's tells
// the source.
//
// When the first record carries no client name (a health check's, a call
// whose key was null), later gives the names and paths of the records
// after it, as far as the caller read ahead: the client is the name the
// most of them carry as their best (ties to the better name). When none
// carries one, the file's client is remote_addr, for the records that
// carry a client name too: one file never mixes two sources of client.
func (s *Schema) ForNames(names, paths []string, forced string, later iter.Seq2[[]string, []string]) (*Schema, string, *time.Location) {
	var src *source
	if forced != "" {
		src = sourceByName(forced)
	} else if src = detectSource(names, paths); later != nil {
		// The first record may be no request (a server's own log line,
		// Traefik's {"level":"info","msg":…}): the first of the later
		// ones whose names are a source's tells the file's, and its
		// client name. Or it may lack what a later one shows, as a
		// Higress log's line of a route without AI (its ai_log "-") is
		// Envoy's: a later record of a source that detectSource tries
		// before the first's, a more particular one, tells the file's.
		for n, p := range later {
			if s := detectSource(n, p); s != nil && (src == nil || before(s, src)) {
				src, names, paths = s, n, p
				break
			}
		}
	}
	sch := s.derive(src, "")
	client := sch.clientName(names, paths)
	if client == "" && later != nil {
		client = sch.commonClient(later)
	}
	if client == "" && len(names) > 0 {
		client = noClient
	}
	if client != "" {
		sch = s.derive(src, client)
	}
	name := ""
	var loc *time.Location
	if src != nil {
		name, loc = src.name, src.loc
	}
	return sch, name, loc
}
