package ingest

// The log formats loganalyze knows by name and recognises by the shape of
// a file's first lines: nginx's combined and the main of its default
// nginx.conf, with the timed variants real configurations append, and
// Apache's common; ingress-nginx; APISIX; Envoy and Istio; Traefik; AWS
// ALB; morgan's dev, tiny and short; uvicorn; granian; Sanic; Hypercorn.

import (
	"bytes"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"
)

// varSpec is how a known format reads one of its variables, beyond or
// instead of the schema's names.
type varSpec struct {
	field   Field
	unit    Unit
	bound   bool  // the variable feeds field
	none    bool  // the variable feeds nothing, whatever the schema says
	prio    uint8 // added to the binding's priority: higher loses
	how     uint8
	seconds bool // nginxVar.seconds
	code    bool // nginxVar.code
	// codeOrDash: code, or "-" where no status was written (a TCP
	// listener's line, a request the load balancer closed).
	codeOrDash bool
	slot       uint8 // nginxVar.slot
	lead       byte  // nginxVar.lead
	// strftime, spaces: nginxVar's, of a time of howStrftime.
	strftime string
	spaces   int
	// pad: the value, a number, is right-aligned in a column its writer
	// pads with spaces (nginxVar.pad).
	pad bool
}

// knownFormat is a log format loganalyze knows.
type knownFormat struct {
	name   string
	source string // FileStats.Source
	format string
	vars   map[string]varSpec
	join   bool // adjacent variables are allowed (APISIX's)
	// tail: a base format with timed fields appended; matched only
	// exactly (no trailing text) and with nginx-written times, and not
	// listed by LogFormatNames.
	tail bool
	// open: a tail format whose lines may go on past its times, as a
	// known format's with fields appended (SPEC §3): its times, nginx's
	// ("0.123", lists of them), end where the list does.
	open bool
	// fits, when set, tells a line of this format from one that other
	// formats write in the same shape: a line it rejects is not counted
	// for the format when a file's format is guessed (logFormat.fits).
	fits func(line []byte) bool
}

const (
	combinedFormat = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`
	mainFormat     = combinedFormat + ` "$http_x_forwarded_for"`
	upstreamTime   = `rt=$request_time uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time"`
	apisixFormat   = `$remote_addr - $remote_user [$time_local] $http_host "$request" $status $body_bytes_sent $request_time "$http_referer" "$http_user_agent" $upstream_addr $upstream_status $upstream_response_time "$upstream_scheme://$upstream_host$upstream_uri"`
	// The access log format of APISIX's ai-proxy documentation.
	apisixAIFormat   = `$remote_addr - $remote_user [$time_local] $http_host "$request_line" $status $body_bytes_sent $request_time "$http_referer" "$http_user_agent" $upstream_addr $upstream_status $apisix_upstream_response_time "$upstream_scheme://$upstream_host$upstream_uri" "$apisix_request_id" "$request_type" "$llm_time_to_first_token" "$llm_model" "$request_llm_model" "$llm_prompt_tokens" "$llm_completion_tokens"`
	haproxyCLFFormat = `%{+Q}o %{-Q}ci - - [%trg] %r %ST %B "" "" %cp %ms %ft %b %s %TR %Tw %Tc %Tr %Ta %tsc %ac %fc %bc %sc %rc %sq %bq %CC %CS %hrl %hsl`
	envoyFormat      = `[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"`
	// Traefik's default access log, its "Common Log Format" (CommonLogFormatter):
	// combined, then the requests Traefik received since it started, the
	// router, the server's URL and the duration in whole ms with "ms".
	traefikFormat = combinedFormat + ` $traefik_request_count "$traefik_router_name" "$traefik_service_url" ${traefik_duration}ms`
	// AWS Application Load Balancer's access log, its fields through
	// request_creation_time (the ones after it vary by date and are
	// left over). Names as AWS's documentation gives them, ":" as "_".
	// Go's chi router's request logger (middleware.Logger, its
	// DefaultLogFormatter) through Go's log package: the date and time
	// log.LstdFlags writes, the request line with the absolute URL, the
	// client's host:port, the status, the bytes written and the time the
	// handler took, as time.Duration prints it; with chi's RequestID
	// middleware, the request's id in brackets after the date.
	chiFormat   = `$chi_time "$request" from $remote_addr - $status ${body_bytes_sent}B in $chi_duration`
	chiIDFormat = `$chi_time [$request_id] "$request" from $remote_addr - $status ${body_bytes_sent}B in $chi_duration`
	// Huawei Cloud API Gateway's (APIG's dedicated gateways') access
	// log, its 54 fields as Huawei's "Log Analysis" page lists them; the
	// scheme and host are one token ("http://host").
	huaweiAPIGFormat = `$remote_addr $request_id $api_id $user_id $app_id [$time_local] $request_time $request_method $scheme://$host $router_uri $server_protocol $status $bytes_sent $request_length "$http_user_agent" "$http_x_forwarded_for" "$upstream_addr" $upstream_uri "$upstream_status" "$upstream_connect_time" "$upstream_header_time" "$upstream_response_time" $region_id $all_upstream_response_time $errorType $auth_type $access_model1 $access_model2 $inner_time $proxy_protocol_vni $proxy_protocol_vpce_id "$proxy_protocol_addr" $body_bytes_sent $api_name $app_name $provider_app_id $provider_app_name "$custom_data_log1" "$custom_data_log2" "$custom_data_log3" "$custom_data_log4" "$custom_data_log5" "$custom_data_log6" "$custom_data_log7" "$custom_data_log8" "$custom_data_log9" "$custom_data_log10" "$response_source" "$gzip_ratio" "$upstream_scheme" "$group_id" "$apig_err_code" "$function_urn"`
	// Huawei Cloud ELB's layer-7 access log (its documented format, which
	// "cannot be modified"), through its 22nd field: later versions append
	// more (the pool, the tenant, TLS, tcpinfo_rtt …), read past.
	huaweiELBFormat = `$msec $access_log_topic_id [$time_iso8601] $log_ver $remote_addr:$remote_port $status "$request" $request_length $bytes_sent $body_bytes_sent $request_time "$upstream_status" "$upstream_connect_time" "$upstream_header_time" "$upstream_response_time" "$upstream_addr" "$http_user_agent" "$http_referer" "$http_x_forwarded_for" $lb_name $listener_name $listener_id`
	// AWS's Classic Load Balancer's access log (its documented fields;
	// a TCP listener's line has "-" for the statuses and "- - - " for
	// the request).
	elbFormat = `$time $elb $client_port $backend_port $request_processing_time $backend_processing_time $response_processing_time $elb_status_code $backend_status_code $received_bytes $sent_bytes "$request" "$user_agent" $ssl_cipher $ssl_protocol`
	albFormat = `$type $time $elb $client_port $target_port $request_processing_time $target_processing_time $response_processing_time $elb_status_code $target_status_code $received_bytes $sent_bytes "$request" "$user_agent" $ssl_cipher $ssl_protocol $target_group_arn "$trace_id" "$domain_name" "$chosen_cert_arn" $matched_rule_priority $request_creation_time`
	// morgan's predefined formats (expressjs/morgan index.js): dev's
	// colours as it writes them, and without them, as a collector that
	// strips terminal escapes keeps them.
	morganDev      = "\x1b[0m:method :url \x1b[32m:status\x1b[0m :response-time ms - :res[content-length]\x1b[0m"
	morganDevPlain = `:method :url :status :response-time ms - :res[content-length]`
	morganTiny     = `:method :url :status :res[content-length] - :response-time ms`
	morganShort    = `:remote-addr :remote-user :method :url HTTP/:http-version :status :res[content-length] - :response-time ms`
	// uvicorn's INFO level prefix is "INFO:" padded to nine bytes; the
	// status is followed by its phrase ("200 OK").
	uvicornFormat = `INFO:     $remote_addr - "$request" $status $status_phrase`
	// uvicorn's access message as loguru writes it for Open WebUI.
	uvicornLoguruFormat = `$loguru_time | INFO     | $loguru_where - $remote_addr - "$request" $status`
	// Apache's Common Log Format: combined without the referer and the
	// user agent (morgan's common).
	commonFormat = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent`
	// Istio 1.3 to 1.8's default (EnvoyTextLogFormat13): the Mixer's
	// policy status and the transport failure, quoted, after the flags.
	istio13Format = `[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% "%DYNAMIC_METADATA(istio.mixer:status)%" "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME% %ROUTE_NAME%`
	istioFormat   = `[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %RESPONSE_CODE_DETAILS% %CONNECTION_TERMINATION_DETAILS% "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER_RAW% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME% %ROUTE_NAME%`
)

// nginxAddr reads the address slot of the nginx formats as real logs fill
// it: a $host or X-Forwarded-For list before the address.
var nginxAddr = map[string]varSpec{"remote_addr": {field: FRemoteAddr, bound: true, how: howAddrSlot}}

// apisixUpstreamTime reads $apisix_upstream_response_time: whole
// milliseconds from ai-proxy, nginx's seconds otherwise.
var apisixUpstreamTime = varSpec{field: FUpstreamResponseTime, bound: true, how: howMilliUnlessPoint}

// writerVars are variables read the same way in any log_format, a
// known one's or the user's: what their writer puts in them is fixed.
var writerVars = map[string]varSpec{
	// APISIX's request line (nginx's $request), in its default
	// access_log_format.
	"request_line":                  {field: FRequest, bound: true},
	"apisix_upstream_response_time": apisixUpstreamTime,
	"llm_time_to_first_token":       {field: FTTFT, unit: UnitMilli, bound: true},
}

var apisixAIVars = map[string]varSpec{
	"remote_addr":                   {field: FRemoteAddr, bound: true, how: howAddrSlot},
	"request_line":                  {field: FRequest, bound: true},
	"apisix_upstream_response_time": apisixUpstreamTime,
	"request_type":                  {field: FStream, bound: true},
	"llm_time_to_first_token":       {field: FTTFT, unit: UnitMilli, bound: true},
	"llm_model":                     {field: FModel, bound: true},
	"request_llm_model":             {field: FModel, bound: true, prio: 1},
	"llm_prompt_tokens":             {field: FPromptTokens, bound: true},
	"llm_completion_tokens":         {field: FCompletionTokens, bound: true},
}

// knownFormats are tried in this order on a file's first lines; of two
// that read as many lines, the earlier wins, so a more specific format
// comes before the one it extends.
var knownFormats = buildKnownFormats()

func buildKnownFormats() []*knownFormat {
	ks := []*knownFormat{
		// The Kubernetes ingress-nginx controller's default.
		{name: "upstreaminfo", source: "ingress-nginx", vars: nginxAddr,
			format: `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] [$proxy_alternative_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status $req_id`},
		// Its default before 0.24 (log-format-upstream): the address
		// twice, no alternative upstream; Alibaba Cloud's documentation
		// appends $host.
		{name: "upstreaminfo-0.2x", source: "ingress-nginx", vars: nginxAddr,
			format: `$remote_addr - [$the_real_ip] - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status $req_id`},
		// The same before $req_id was appended (its configmap's
		// documented log-format-upstream up to 0.2x).
		{name: "upstreaminfo-0.2x", source: "ingress-nginx", vars: nginxAddr,
			format: `$remote_addr - [$the_real_ip] - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status`},
		// The TokenHub gateway's format (SPEC's sample logs).
		{name: "tokenhub", source: "nginx:tokenhub", vars: nginxAddr,
			format: `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time urt="$upstream_response_time" uct="$upstream_connect_time" cr=$connection_requests conn=$connection ssl=$ssl_handshake_time rtt=$tcpinfo_rtt region=$region client_region=$client_region model=$model stream=$stream ttft=$first_token_ms ra=$retry_after`},
		{name: "apisix-ai", source: "apisix", format: apisixAIFormat, vars: apisixAIVars, join: true},
		// The same with the two spaces of the documentation's example.
		{name: "apisix-ai", source: "apisix", format: strings.Replace(apisixAIFormat, `" "$llm_prompt`, `"  "$llm_prompt`, 1), vars: apisixAIVars, join: true, tail: true},
		{name: "apisix", source: "apisix", format: apisixFormat, vars: nginxAddr, join: true},
		// APISIX 1.0 to 2.0's, before the upstream's URL was appended
		// (2.1): matched exactly, a line of today's going on past it.
		{name: "apisix", source: "apisix", format: apisixFormat[:strings.LastIndex(apisixFormat, ` "$upstream_scheme`)], vars: nginxAddr, tail: true},
		{name: "istio", source: "istio", format: istioFormat},
		// Before envoy's, whose leading fields it shares: read as
		// envoy's, its bytes received were taken for its duration.
		{name: "istio", source: "istio", format: istio13Format},
		{name: "traefik", source: "traefik", format: traefikFormat, vars: traefikVars},
		{name: "aws-alb", source: "aws-alb", format: albFormat, vars: albVars},
		{name: "aws-elb", source: "aws-elb", format: elbFormat, vars: elbVars},
		{name: "chi", source: "chi", format: chiFormat, vars: chiVars},
		{name: "huawei-apig", source: "huawei-apig", format: huaweiAPIGFormat, vars: huaweiAPIGVars},
		{name: "huawei-elb", source: "huawei-elb", format: huaweiELBFormat, vars: huaweiELBVars},
		{name: "chi", source: "chi", format: chiIDFormat, vars: chiVars},
		{name: "envoy", source: "envoy", format: envoyFormat},
		// Emissary-ingress's (Ambassador's) default: Envoy's, after
		// "ACCESS " (python/ambassador/envoy/v3/v3listener.py, the
		// envoy_log_format it uses when none is configured).
		{name: "emissary", source: "emissary", format: `ACCESS ` + envoyFormat},
		// Kuma's and Kong Mesh's default HTTP access log, today's and
		// before the trace's id was added.
		{name: "kuma", source: "kuma", format: kumaFormat, vars: kumaVars},
		{name: "kuma", source: "kuma", format: strings.Replace(kumaFormat, ` "%REQ(X-B3-TRACEID?X-DATADOG-TRACEID)%"`, "", 1), vars: kumaVars},
		{name: "linkerd", source: "linkerd", format: linkerdApacheFormat, vars: linkerdApacheVars},
		{name: "reactor-netty", source: "reactor-netty", format: reactorNettyFormat, vars: reactorNettyVars},
		// The same through Spring Boot's logging, to its console or its
		// file: its default patterns (spring-boot's
		// org/springframework/boot/logging/logback/defaults.xml,
		// CONSOLE_LOG_PATTERN and FILE_LOG_PATTERN) end with the logger
		// padded to 40 columns, "%-40.40logger{39}", then " : " and the
		// message. What comes before the logger (the date, the level, the
		// pid, the application's name, the thread) changed from release
		// to release and is not read: the request's start is the access
		// line's own.
		{name: "reactor-netty", source: "reactor-netty", format: `$spring_boot_head ` + reactorNettyLogger + `      : ` + reactorNettyFormat, vars: reactorNettyVars},
		// Quarkus's access log through its logging, its default
		// (quarkusAccessHead): its pattern "common" and "combined", with
		// the time taken appended and without.
		{name: "quarkus", source: "quarkus", format: quarkusAccessHead + commonFormat + ` $quarkus_duration`, vars: quarkusVars},
		{name: "quarkus", source: "quarkus", format: quarkusAccessHead + combinedFormat + ` $quarkus_duration`, vars: quarkusVars},
		{name: "quarkus", source: "quarkus", format: quarkusAccessHead + combinedFormat, vars: quarkusVars},
		{name: "quarkus", source: "quarkus", format: quarkusAccessHead + commonFormat, vars: quarkusVars},
		// BentoML's, with the trace its logger appends, and without
		// (no trace: the trace id 0).
		{name: "bentoml", source: "bentoml", format: bentoMLFormat + ` ($bentoml_trace)`, vars: bentoMLVars},
		{name: "bentoml", source: "bentoml", format: bentoMLFormat, vars: bentoMLVars},
		// Sanic's: its production text format (24.6 and after), and its
		// legacy one, its default before 24.6 and LegacyAccessFormatter's
		// since, the date in brackets or not.
		{name: "sanic", source: "sanic", format: sanicProdFormat, vars: sanicVars},
		{name: "sanic", source: "sanic", format: `[$sanic_time] ` + sanicLegacyFormat, vars: sanicVars},
		{name: "sanic", source: "sanic", format: `$sanic_time ` + sanicLegacyFormat, vars: sanicVars},
		// Hypercorn's default, behind its logger's line.
		{name: "hypercorn", source: "hypercorn", format: hypercornPrefix + hypercornFormat, vars: hypercornVars},
		// granian's, the Rust server of ASGI, RSGI and WSGI apps.
		{name: "granian", source: "granian", format: granianFormat, vars: granianVars},
		// The development servers of Django (manage.py runserver) and
		// of werkzeug (Flask's flask run), the same request line.
		{name: "django", source: "django", format: djangoFormat, vars: pyDevVars, fits: pyDevLine},
		{name: "werkzeug", source: "werkzeug", format: werkzeugFormat, vars: pyDevVars, fits: pyDevLine},
		// Serilog's request logging line in its file sink's default
		// output template (serilogFormat).
		{name: "serilog", source: "serilog", format: serilogFormat, vars: serilogVars},
		// Ray Serve's, today's with the client's address and without,
		// and 2.9's, in its log files and as its driver prints them
		// after the actor's name.
		{name: "ray-serve", source: "ray-serve", format: rayServeClientFormat, vars: rayServeVars},
		{name: "ray-serve", source: "ray-serve", format: rayServeFormat, vars: rayServeVars},
		{name: "ray-serve", source: "ray-serve", format: rayServe29Format, vars: rayServeVars},
		{name: "ray-serve", source: "ray-serve", format: `($ray_actor) ` + rayServeClientFormat, vars: rayServeVars},
		{name: "ray-serve", source: "ray-serve", format: `($ray_actor) ` + rayServeFormat, vars: rayServeVars},
		{name: "ray-serve", source: "ray-serve", format: `($ray_actor) ` + rayServe29Format, vars: rayServeVars},
		// Railway's HTTP logs as its CLI prints them (railway logs
		// --http; railwayapp/cli src/util/logs.rs format_http_log_string:
		// timestamp, method, path, status, totalDuration "{}ms",
		// requestId), before Ray Serve's message with a client, which
		// reads them too, the time taken for the client.
		{name: "railway", source: "railway", format: railwayFormat, vars: railwayVars},
		// Their messages alone, as its JSON log holds them (rayjson.go).
		{name: "ray-serve", source: "ray-serve", format: rayServeMessageFormat, vars: rayServeVars},
		{name: "ray-serve", source: "ray-serve", format: rayServe29MessageFormat, vars: rayServeVars},
		{name: "ray-serve", source: "ray-serve", format: rayServeClientMessageFormat, vars: rayServeVars, fits: rayClientMessage},
		// llama.cpp's server's request log in its text form.
		{name: "llama-server", source: "llama-server", format: llamaServerFormat, vars: llamaServerVars},
		// The same from its first release of the text form (February
		// 2024) until the server's JSON kept its members' order
		// (ggml-org/llama.cpp#6232, March 2024): the members sorted.
		{name: "llama-server", source: "llama-server", format: llamaServerSortedFormat, vars: llamaServerVars},
		// Ollama's copy of it (llm/ext_server, until its own runner in
		// Go): the function unpadded, the request at debug level or at
		// info, the members sorted.
		{name: "llama-server", source: "llama-server", format: `DEBUG ` + ollamaRunnerFormat, vars: llamaServerVars},
		{name: "llama-server", source: "llama-server", format: `INFO ` + ollamaRunnerFormat, vars: llamaServerVars},
		// ASP.NET Core's "Request finished" through the console
		// formatters (aspnetFinishedFormat): the simple formatter's
		// default, the message on its own line under "info: category[2]";
		// its SingleLine form, after the category, with its
		// TimestampFormat before the level or not; the systemd
		// formatter's, after the syslog severity, the time between them
		// when set.
		{name: "aspnetcore", source: "aspnetcore", format: `      ` + aspnetFinishedFormat, vars: aspnetVars},
		{name: "aspnetcore", source: "aspnetcore", format: `info: ` + aspnetFinishedEvent + ` ` + aspnetFinishedFormat, vars: aspnetVars},
		{name: "aspnetcore", source: "aspnetcore", format: `$aspnet_time info: ` + aspnetFinishedEvent + ` ` + aspnetFinishedFormat, vars: aspnetVars},
		{name: "aspnetcore", source: "aspnetcore", format: `$aspnet_stamp info: ` + aspnetFinishedEvent + ` ` + aspnetFinishedFormat, vars: aspnetVars},
		{name: "aspnetcore", source: "aspnetcore", format: `<6>` + aspnetFinishedEvent + ` ` + aspnetFinishedFormat, vars: aspnetVars},
		{name: "aspnetcore", source: "aspnetcore", format: `<6>$aspnet_time ` + aspnetFinishedEvent + ` ` + aspnetFinishedFormat, vars: aspnetVars},
		{name: "aspnetcore", source: "aspnetcore", format: `<6>$aspnet_stamp ` + aspnetFinishedEvent + ` ` + aspnetFinishedFormat, vars: aspnetVars},
		// lighttpd's default (mod_accesslog), told from Apache's and
		// nginx's combined by the host in the ident slot.
		{name: "lighttpd", source: "lighttpd", format: lighttpdFormat, fits: lighttpdLine},
		// Squid's native access.log, its default.
		{name: "squid", source: "squid", format: squidFormat, vars: squidVars},
		// koa-logger's and Hono's logger middleware's response lines.
		// Hono's first: its lines are koa-logger's without the size, and
		// a file of them is Hono's where both read every line whole.
		{name: "hono", source: "hono", format: honoFormat, vars: koaVars, fits: honoLine},
		{name: "koa", source: "koa", format: koaFormat, vars: koaVars, fits: koaLine},
		// HAProxy's option httplog clf: its source's clf_http_log_format
		// (src/log.c), a CLF line and HAProxy's fields after it.
		{name: "haproxy-clf", source: "haproxy", format: haproxyCLFFormat},
		{name: "morgan-dev", source: "morgan", format: morganDev},
		{name: "morgan-dev", source: "morgan", format: morganDevPlain, tail: true},
		// short before tiny, which reads a short line's address as its
		// method and no status.
		{name: "morgan-short", source: "morgan", format: morganShort},
		{name: "morgan-tiny", source: "morgan", format: morganTiny},
		// uvicorn's access log (its LOGGING_CONFIG's access formatter,
		// '%(levelprefix)s %(client_addr)s - "%(request_line)s"
		// %(status_code)s', without the colours it writes to a
		// terminal): no time, no request time.
		{name: "uvicorn", source: "uvicorn", vars: uvicornVars, format: uvicornFormat},
		// vLLM's OpenAI server writes it after the process's name and
		// pid ("(APIServer pid=35049) INFO:     …").
		{name: "uvicorn", source: "uvicorn", vars: uvicornVars, format: `($vllm_process) ` + uvicornFormat},
		// SGLang's server gives uvicorn's access formatter its date
		// (python/sglang/srt/utils: set_uvicorn_logging_configs,
		// '[%(asctime)s] %(levelprefix)s %(client_addr)s -
		// "%(request_line)s" %(status_code)s', datefmt "%Y-%m-%d
		// %H:%M:%S").
		{name: "uvicorn", source: "uvicorn", vars: uvicornVars, format: `[$uvicorn_time] ` + uvicornFormat},
		// FastChat's workers and servers send their standard output,
		// where uvicorn writes its access log, to the logger "stdout"
		// (fastchat/utils.py: build_logger, StreamToLogger; "%(asctime)s
		// | %(levelname)s | %(name)s | %(message)s", datefmt "%Y-%m-%d
		// %H:%M:%S").
		{name: "uvicorn", source: "uvicorn", vars: uvicornVars, format: `$uvicorn_time | INFO | stdout | ` + uvicornFormat},
		// Open WebUI hands uvicorn's records to loguru
		// (backend/open_webui/utils/logger.py: InterceptHandler, stdout_format
		// "{time:YYYY-MM-DD HH:mm:ss.SSS} | {level: <8} |
		// {name}:{function}:{line} - {message}"), then " - " and the
		// record's extra as JSON: always in its releases up to 0.6, only
		// when there is one since. The message is uvicorn's before its
		// formatter ('%s - "%s %s HTTP/%s" %d'): no level prefix, no
		// status phrase, so the status ends it, three digits.
		{name: "uvicorn", source: "uvicorn", vars: uvicornLoguruVars, format: uvicornLoguruFormat + ` - $loguru_extra`},
		{name: "uvicorn", source: "uvicorn", vars: uvicornLoguruVars, format: uvicornLoguruFormat, tail: true},
		// NVIDIA NIM for LLMs gives uvicorn's records its own prefix:
		// the level, its date to the ms, the file and line, then the
		// message before uvicorn's formatter (no level prefix, no status
		// phrase): "INFO 2025-09-10 19:08:21.184 httptools_impl.py:481]
		// 172.19.0.3:35474 - \"POST /v1/chat/completions HTTP/1.1\" 200"
		// (docs.nvidia.com/nim/large-language-models/latest/reference/
		// logging-and-observability.html; its workshops' logs). NIM 1.x
		// wrote the month and day, no year ("INFO 07-23 22:28:28.574
		// …", vLLM's logger's date and the ms): no time is read from it.
		{name: "uvicorn", source: "uvicorn", vars: nimVars, format: `INFO $nim_time $nim_where] $remote_addr - "$request" $status`},
		{name: "uvicorn", source: "uvicorn", vars: nimVars, format: `INFO $nim_day $nim_where] $remote_addr - "$request" $status`, fits: nimMonthDay},
		// Xinference's logging (xorbitsai/inference
		// xinference/deploy/utils.py, get_config_dict) sends uvicorn's
		// access records to its own formatter: up to v2.8 "%(asctime)s
		// %(name)-12s %(process)d %(levelname)-8s %(message)s"; v2.9
		// adds "[%(xinference_role)s@%(xinference_address)s] " before
		// the level; from v2.10 its TextFileFormatter writes the time in
		// UTC to the ms, the level, the logger, "pid:", "role:",
		// "address:" and "node:" (the host), then the message, uvicorn's
		// before its formatter.
		{name: "uvicorn", source: "uvicorn", vars: xinferenceVars, format: `$py_time uvicorn.access $xinf_pid INFO     $remote_addr - "$request" $status`},
		{name: "uvicorn", source: "uvicorn", vars: xinferenceVars,
			format: `$py_time uvicorn.access $xinf_pid [$xinf_role@$xinf_address] INFO     $remote_addr - "$request" $status`},
		{name: "uvicorn", source: "uvicorn", vars: xinferenceVars,
			format: `$xinf_time INFO uvicorn.access pid:$xinf_pid role:$xinf_role address:$xinf_address node:$xinf_node $remote_addr - "$request" $status`},
		// The same access log under gunicorn's UvicornWorker, which
		// writes it through gunicorn's logger: no level prefix, no
		// status phrase. Exact only: the line is short and bare.
		{name: "uvicorn", source: "uvicorn", vars: uvicornWorkerVars, format: `$remote_addr - "$request" $status`, tail: true},
	}
	// main and combined with the times most configurations append; the
	// main ones first, since a main line also fits the combined variant
	// of the same shape (its user agent taking in ` "-`).
	timed := []struct{ name, text string }{
		{"request_time+upstream_response_time", ` $request_time $upstream_response_time`},
		{"request_time", ` $request_time`},
		{"upstream_time", ` ` + upstreamTime},
		// The two times the other way round: told from the usual order
		// by the lines only it reads, an upstream list or "-" first
		// (nginx never writes either for $request_time).
		{"upstream_response_time+request_time", ` $upstream_response_time $request_time`},
	}
	for _, t := range timed {
		name := "main+" + t.name
		ks = append(ks, &knownFormat{name: name, source: "nginx:" + name, format: mainFormat + t.text, vars: timedVars, tail: true, open: true})
	}
	ks = append(ks,
		// nginx's documentation (admin guide, "Setting Up the Access
		// Log"); its example has no space before rt=, copies add one.
		&knownFormat{name: "upstream_time", source: "nginx:upstream_time", vars: nginxAddr, format: combinedFormat + ` ` + upstreamTime},
		&knownFormat{name: "upstream_time", source: "nginx:upstream_time", vars: nginxAddr, format: combinedFormat + upstreamTime, tail: true},
		// Its times only as nginx writes them ("0.123"): Traefik's
		// format puts a request count where $request_time would be.
		&knownFormat{name: "timed_combined", source: "nginx:timed_combined", vars: timedVars,
			format: combinedFormat + ` $request_time $upstream_response_time $pipe`},
	)
	// combined with the four times quoted, as nginx-prometheus
	// exporters' configurations log them.
	ks = append(ks, &knownFormat{name: "combined+quoted_times", source: "nginx:combined+quoted_times", vars: timedVars, tail: true, open: true,
		format: combinedFormat + ` "$request_time" "$upstream_connect_time" "$upstream_header_time" "$upstream_response_time"`})
	for _, t := range timed[:2] {
		name := "combined+" + t.name
		ks = append(ks, &knownFormat{name: name, source: "nginx:" + name, format: combinedFormat + t.text, vars: timedVars, tail: true, open: true})
	}
	return append(ks,
		// The format of nginx's default nginx.conf.
		&knownFormat{name: "main", source: "nginx:main", format: mainFormat, vars: nginxAddr},
		// nginx's predefined format.
		&knownFormat{name: "combined", source: "nginx:combined", format: combinedFormat, vars: nginxAddr},
		&knownFormat{name: "common", source: "nginx:common", format: commonFormat, vars: nginxAddr},
	)
}

// traefikVars are the variables of Traefik's format: its duration is
// ms, its server's URL the upstream.
var traefikVars = map[string]varSpec{
	"remote_addr":         {field: FRemoteAddr, bound: true, how: howAddrSlot},
	"traefik_duration":    {field: FRequestTime, unit: UnitMilli, bound: true},
	"traefik_service_url": {field: FUpstreamAddr, bound: true},
}

// uvicornVars read uvicorn's client, written "host:port" (an IPv6
// address without brackets), and the date a program's logging puts
// before its line, Python's asctime without a zone (--tz).
var uvicornVars = map[string]varSpec{
	"remote_addr":   {field: FRemoteAddr, bound: true, how: howHostPort},
	"status_phrase": {none: true},
	"vllm_process":  {none: true},
	"uvicorn_time":  {field: FTime, bound: true, how: howStrftime, strftime: "%Y-%m-%d %H:%M:%S", spaces: 1},
}

// uvicornLoguruVars read uvicorn's access message through loguru: its
// date, to the ms without a zone (--tz); the caller's module, function
// and line, and the extra, feed nothing.
var uvicornLoguruVars = map[string]varSpec{
	"loguru_time":  {field: FTime, bound: true, how: howStrftime, strftime: "%Y-%m-%d %H:%M:%S.%f", spaces: 1},
	"remote_addr":  {field: FRemoteAddr, bound: true, how: howHostPort},
	"status":       {field: FStatus, bound: true, code: true},
	"loguru_where": {none: true},
	"loguru_extra": {none: true},
}

// nimVars read uvicorn's access message behind NIM's prefix: its date
// without a zone (--tz), the ms unpadded (howPyMsecs); 1.x's month and
// day, the file and the line feed nothing.
var nimVars = map[string]varSpec{
	"nim_time":    {field: FTime, bound: true, how: howPyMsecs, spaces: 1},
	"nim_day":     {none: true, spaces: 1},
	"nim_where":   {none: true},
	"remote_addr": {field: FRemoteAddr, bound: true, how: howHostPort},
	"status":      {field: FStatus, bound: true, code: true},
}

// nimMonthDay reports whether line is NIM 1.x's, its date a month and a
// day ("INFO 07-23 22:28:28.574 …"), which the format of the year's
// would not read.
func nimMonthDay(line []byte) bool {
	return len(line) > 11 && isDigit(line[5]) && isDigit(line[6]) && line[7] == '-' && isDigit(line[8]) && isDigit(line[9]) && line[10] == ' '
}

// xinferenceVars read uvicorn's access message behind Xinference's
// prefix: asctime's date without a zone (--tz) or TextFileFormatter's in
// UTC; the process, role, address and host feed nothing.
var xinferenceVars = map[string]varSpec{
	"py_time":      {field: FTime, bound: true, how: howPyMsecs, spaces: 1},
	"xinf_time":    {field: FTime, bound: true},
	"xinf_pid":     {none: true},
	"xinf_role":    {none: true},
	"xinf_address": {none: true},
	"xinf_node":    {none: true},
	"remote_addr":  {field: FRemoteAddr, bound: true, how: howHostPort},
	"status":       {field: FStatus, bound: true, code: true},
}

// uvicornWorkerVars read the line of uvicorn's under gunicorn's
// UvicornWorker, whose status ends it: three digits, or the line is
// another's.
var uvicornWorkerVars = map[string]varSpec{
	"remote_addr": {field: FRemoteAddr, bound: true, how: howHostPort},
	"status":      {field: FStatus, bound: true, code: true},
}

// albVars read AWS ALB's fields: the request's time is from when the
// load balancer received it (request_creation_time) to when it sent its
// response (time), the whole body included, where the three processing
// times stop at the target's headers; -1 (a step not reached) is absent.
// The other names, some of which mean something else elsewhere, feed
// nothing.
var albVars = withNone(map[string]varSpec{
	"time":                   {field: FEndTime, bound: true},
	"request_creation_time":  {field: FTime, bound: true},
	"client_port":            {field: FRemoteAddr, bound: true, how: howHostPort},
	"target_port":            {field: FUpstreamAddr, bound: true},
	"target_processing_time": {field: FUpstreamHeaderTime, bound: true},
	"elb_status_code":        {field: FStatus, bound: true, code: true, codeOrDash: true},
	"target_status_code":     {field: FUpstreamStatus, bound: true},
	"request":                {field: FRequest, bound: true},
	"domain_name":            {field: FHost, bound: true},
	"type":                   {none: true},
	"target_group_arn":       {none: true},
	"trace_id":               {none: true},
	"chosen_cert_arn":        {none: true},
	"matched_rule_priority":  {none: true},
}, awsLBNone)

// awsLBNone are the names of AWS's load balancers' logs, Application and
// Classic, that feed nothing (elbFormat's fields, the most of albFormat's).
var awsLBNone = []string{"elb", "request_processing_time", "response_processing_time",
	"received_bytes", "sent_bytes", "user_agent", "ssl_cipher", "ssl_protocol"}

// withNone returns vars, to which it adds each of names as feeding
// nothing.
func withNone(vars map[string]varSpec, names []string) map[string]varSpec {
	for _, n := range names {
		vars[n] = varSpec{none: true}
	}
	return vars
}

// chiVars read chi's request log: Go's log date without a zone (--tz),
// the client's host:port, the duration with its unit ("1.234567ms",
// "2.5s", "850µs": the whole request as the handler served it).
var chiVars = map[string]varSpec{
	"chi_time":     {field: FTime, bound: true, how: howStrftime, strftime: "%Y/%m/%d %H:%M:%S", spaces: 1},
	"remote_addr":  {field: FRemoteAddr, bound: true, how: howHostPort},
	"chi_duration": {field: FRequestTime, bound: true},
	"request_id":   {none: true},
}

// kumaFormat is the default HTTP access log of Kuma's (and Kong Mesh's)
// MeshAccessLog and TrafficLog policies (kumahq/kuma,
// pkg/plugins/policies/meshaccesslog, defaultHttpAccessLogFormat):
// Envoy's default with the mesh's name after the time, the trace's id, and
// the source's and destination's services and the source's address (the
// caller's) before the upstream host.
const kumaFormat = `[%START_TIME%] %KUMA_MESH% "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-B3-TRACEID?X-DATADOG-TRACEID)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%KUMA_SOURCE_SERVICE%" "%KUMA_DESTINATION_SERVICE%" "%KUMA_SOURCE_ADDRESS_WITHOUT_PORT%" "%UPSTREAM_HOST%"`

// kumaVars are the operators of Kuma's own that feed nothing (its source
// address is envoyOperators').
var kumaVars = map[string]varSpec{
	"KUMA_MESH":                {none: true},
	"KUMA_SOURCE_SERVICE":      {none: true},
	"KUMA_DESTINATION_SERVICE": {none: true},
}

// linkerdApacheFormat is Linkerd's proxy's HTTP access log in its
// "apache" format (config.linkerd.io/access-log: apache, the proxy's
// LINKERD2_PROXY_ACCESS_LOG; https://linkerd.io/2/features/access-logging/),
// which the proxy writes to its standard error beside its own log lines
// ("[     0.001952s]  INFO ThreadId(01) …", ownlog.go). linkerd2-proxy's
// linkerd/tracing/src/access_log.rs (ApacheCommonVisitor) writes the
// access span's fields in the order linkerd/http/access-log/src/lib.rs
// declares them: client.addr (the caller's host:port), client.id (its mTLS
// identity, "-" without one) and "-", the timestamp in brackets (RFC 3339
// in UTC, humantime's and since 2025 jiff's, nanoseconds when it has
// them), the method, the URI (an HTTP/2 request's absolute) and the
// version quoted, and the status, recorded when the response began. It
// skips total_ns and processing_ns (ApacheCommon::SKIPPED_FIELDS), which
// its json format writes: this one has no duration.
const linkerdApacheFormat = `$remote_addr $remote_user - [$time_iso8601] "$request" $status`

// linkerdApacheVars read Linkerd's apache format: the caller's host:port,
// its identity the client as $remote_user (the JSON form's client.id).
var linkerdApacheVars = map[string]varSpec{
	"remote_addr": {field: FRemoteAddr, bound: true, how: howHostPort},
}

// llamaServerFormat is the request line of llama.cpp's HTTP server
// (llama-server, from its --log-format option, ggml-org/llama.cpp#5700,
// February 2024, until its logs moved to common/log, #9418, September
// 2024; ik_llama.cpp's still) in its text form (--log-format text):
// examples/server/server.cpp's log_server_request, LOG_INFO("request",
// {remote_addr, remote_port, status, method, path, params}) for each
// request httplib served, and examples/server/utils.hpp's server_log,
// which writes the level and the function's name right-aligned ("%4s
// [%24s] %s"), the message, " |", then each member of an ordered JSON
// object, tid and timestamp (time(nullptr): epoch seconds, when the line
// was written, at the response's end) first, as " key=" and its JSON:
// `INFO [      log_server_request] request | tid="132614511681536"
// timestamp=1773129600 remote_addr="10.0.3.200" remote_port=38160
// status=200 method="POST" path="/v1/chat/completions" params={}`. It has
// no duration: the server's timing lines (print_timings) are its slot's
// task's, not the request's. Its other lines (the slots', the tasks', the
// start-up's, a verbose request's bodies) are its own (ownlog.go). Its
// JSON form (--log-format json) is JSON lines, read by their names.
const (
	llamaServerFormat       = `INFO [      log_server_request] request | tid="$llama_tid" timestamp=$llama_timestamp remote_addr="$remote_addr" remote_port=$remote_port status=$status method="$request_method" path="$uri" params=$llama_params`
	llamaServerSortedFormat = `INFO [      log_server_request] request | method="$request_method" params=$llama_params path="$uri" remote_addr="$remote_addr" remote_port=$remote_port status=$status tid="$llama_tid" timestamp=$llama_timestamp`
)

// ollamaRunnerFormat is the same request line as Ollama's copy of the
// server wrote it, after its level (ollama/ollama llm/ext_server/utils.hpp,
// server_log: `ss << level << " [" << function << "] " << message << " |"`,
// no padding, its members in a json, not an ordered_json, so sorted;
// server.cpp's log_server_request: LOG_DEBUG, LOG_INFO before, /health
// not logged). Ollama runs that server for each model it loads and calls
// it from 127.0.0.1 (llm/server.go: /completion, /embedding, /tokenize,
// /detokenize) while it serves a request of its own API, which its Gin
// log times (gin.go): in Ollama's log these lines are that log's
// requests again and are passed over there; alone, they are read as
// llama-server's.
const ollamaRunnerFormat = `[log_server_request] request | method="$request_method" params=$llama_params path="$uri" remote_addr="$remote_addr" remote_port=$remote_port status=$status tid="$llama_tid" timestamp=$llama_timestamp`

// llamaServerVars read llama-server's request line: its time epoch
// seconds, its status three digits; the thread, the port and the query's
// parameters feed nothing.
var llamaServerVars = map[string]varSpec{
	"llama_timestamp": {field: FTime, unit: UnitSecond, bound: true},
	"status":          {field: FStatus, bound: true, code: true},
	"llama_tid":       {none: true},
	"remote_port":     {none: true},
	"llama_params":    {none: true},
}

// reactorNettyFormat is Reactor Netty's access log (reactor-netty-http's
// reactor/netty/http/server/logging/BaseAccessLogHandler.java,
// DEFAULT_LOG_FORMAT "{} - {} [{}] \"{} {} {}\" {} {} {} ms"), which
// Spring Cloud Gateway and any WebFlux server on Netty write when started
// with -Dreactor.netty.http.server.accessLogEnabled=true: the client's
// host:port (getHostString, an IPv6 address without brackets), the user
// ("-"), the request's start in CLF, the request line, the status, the
// content length ("-" when chunked) and the duration,
// AbstractAccessLogArgProvider.duration(): whole ms from the request's
// start to the response's last content.
const reactorNettyFormat = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent $reactor_duration ms`

// reactorNettyVars read Reactor Netty's access log: the client's
// host:port, the duration in whole ms.
var reactorNettyVars = map[string]varSpec{
	"remote_addr":      {field: FRemoteAddr, bound: true, how: howHostPort},
	"reactor_duration": {field: FRequestTime, unit: UnitMilli, bound: true},
	"spring_boot_head": {none: true},
}

// reactorNettyLogger is the logger Reactor Netty writes its access log to.
const reactorNettyLogger = "reactor.netty.http.server.AccessLog"

// quarkusAccessLogger is the category Quarkus writes its HTTP access log
// to when it logs it through its logging, not to a file of its own
// (quarkus.http.access-log.log-to-file=false, the default; quarkusio/quarkus
// extensions/vertx-http/runtime/src/main/java/io/quarkus/vertx/http/runtime/
// AccessLogConfig.java, category() "io.quarkus.http.access-log"), as its
// default console and file formats print it: "%c{3.}", each part but the
// last cut to three letters (core/runtime/src/main/java/io/quarkus/runtime/
// logging/LogRuntimeConfig.java, "%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%c{3.}]
// (%t) %s%e%n"; its file's has the host and the process before the level).
const quarkusAccessLogger = "[io.qua.htt.access-log]"

// quarkusAccessHead is what Quarkus's logging writes before an access
// line: "2026-03-05 17:00:07,339 INFO  [io.qua.htt.access-log]
// (executor-thread-2) ", the date, the level, the category and the
// thread. The date is when the line was written; the request's time is
// the access line's own %t.
const quarkusAccessHead = `$quarkus_head ` + quarkusAccessLogger + ` ($quarkus_thread) `

// quarkusVars read Quarkus's access line. Its pattern is "common" unless
// configured (AccessLogConfig.java, pattern() "common": `%h %l %u %t "%r"
// %s %b`; "combined" adds `"%{i,Referer}" "%{i,User-Agent}"`), whose
// fields are nginx's. A number after them is the time taken: %D, whole
// milliseconds, not Apache's microseconds, or %T, seconds with a point
// (docs/src/main/asciidoc/http-reference.adoc, "Time taken to process the
// request, in millis"; extensions/vertx-http/runtime/src/main/java/io/
// quarkus/vertx/http/runtime/attribute/ResponseTimeAttribute.java, which
// writes %T "s.mmm").
var quarkusVars = map[string]varSpec{
	"quarkus_duration": {field: FRequestTime, bound: true, how: howMilliUnlessPoint},
	"quarkus_head":     {none: true},
	"quarkus_thread":   {none: true},
}

// bentoMLFormat is BentoML's access log, on by default in its servers:
// its logger's line (src/bentoml/_internal/log.py, TRACED_LOG_FORMAT
// "%(asctime)s %(levelname_bracketed)s %(component)s
// %(message)s%(trace_msg)s", DATE_FORMAT "%Y-%m-%dT%H:%M:%S%z") around
// AccessLogMiddleware's message (src/bentoml/_internal/server/http/access.py:
// "%s (%s) (%s) %.3fms", the client's host:port, the request's scheme,
// method, path, content type and length, the response's status, content
// type and length, the latency), with the content types and lengths its
// default configuration logs (logging.access.request_content_type …):
// "2024-04-13T02:03:49+0000 [INFO] [entry_service:Summarization:1]
// 44.1.2.104:7181 (scheme=http,method=GET,path=/docs.json,type=,length=)
// (status=200,type=application/json,length=5543) 1.972ms
// (trace=7589d361df3e8ad3f0a71acb44d150be,span=07ef3bc1685d067c,sampled=0,service.name=Summarization)",
// docs/source/guides/logging.rst's example. The latency is ms from the
// request's arrival to its response's last body message; the time is
// when the line was written, at that end.
const bentoMLFormat = `$bentoml_time [$bentoml_level] [$bentoml_component] $remote_addr (scheme=$scheme,method=$request_method,path=$uri,type=$bentoml_request_type,length=$request_length) (status=$status,type=$bentoml_response_type,length=$body_bytes_sent) ${bentoml_latency}ms`

// hypercornPrefix is the line Hypercorn's logger writes before each of
// its access log's (pgjones/hypercorn src/hypercorn/logging.py,
// _create_logger: "%(asctime)s [%(process)d] [%(levelname)s] %(message)s",
// datefmt "[%Y-%m-%d %H:%M:%S %z]"), when --access-logfile names its
// target: "[2026-12-05 10:00:00 +0800] [12] [INFO] ". Its error log's lines
// have it too (ownlog.go).
const hypercornPrefix = `[$hypercorn_time] [$hypercorn_pid] [INFO] `

// hypercornFormat is Hypercorn's default access_log_format
// (src/hypercorn/config.py: '%(h)s %(l)s %(l)s %(t)s "%(r)s" %(s)s %(b)s
// "%(f)s" "%(a)s"', gunicorn's atoms as its AccessLogAtoms fills them):
// combined's shape, the client's "ip:port", the request line's version
// the ASGI http_version ("POST /v1/chat/completions 1.1"). No request
// time: its atoms %(D)s (µs), %(L)s (s) and %(T)s are given with
// --log-format, read behind the same line (gunicornTokens).
const hypercornFormat = `$remote_addr - - [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`

// hypercornVars read Hypercorn's access log: the client's host:port; its
// logger's time, the instant %(t)s writes again, and its pid feed
// nothing.
var hypercornVars = map[string]varSpec{
	"remote_addr":    {field: FRemoteAddr, bound: true, how: howHostPort},
	"hypercorn_time": {none: true},
	"hypercorn_pid":  {none: true},
}

// sanicProdFormat is Sanic's access log as its ProdAccessFormatter
// writes it where its output is no terminal, its default since 24.6
// (sanic-org/sanic sanic/logging/formatter.py: PREFIX_FORMAT
// "%(ident)s{limit}|%(asctime)s %(levelname)s: {start}" and MESSAGE_FORMAT
// "%(host)s %(request)s %(right)s%(status)s %(byte)s %(duration)s", their
// colours and cursor moves, and %(right)s, written only to a terminal;
// DATE_FORMAT "%Y-%m-%d %H:%M:%S %z"): "Srv 0|2026-12-05 10:00:00 +0800
// INFO: 10.0.2.151:33801 POST http://llm-api:8000/v1/chat/completions 200
// 8393  508.4ms". The ident is the worker's (sanic/worker/manager.py,
// "Srv" and its number in two columns, "Srv 0") or "Main " in a single
// process; the values are sanic/http/http1.py's log_response's: host the
// client's "ip:port", request the method and the absolute URL, byte the
// response's content-length, "chunked" or 0, and duration, with a space
// before it, the ms from the handler's start to the response's headers
// (" 508.4ms"; "" when no handler ran): the whole request for a response
// sent at once, the time to the first chunk of a streamed one, as
// morgan's :response-time. The line is written when the headers are
// sent. A response sent before any handler ran (a request Sanic could not
// read) has no duration, and its line is a bad line of the format; the
// lines Sanic writes of a connection's close and a WebSocket's, of the
// same shape, are its own (ownlog.go).
const sanicProdFormat = `$sanic_ident|$sanic_time INFO: $remote_addr $request_method $uri $status $sanic_byte  ${sanic_duration}ms`

// sanicLegacyFormat is the rest of Sanic's legacy access line after its
// date: its LOGGING_CONFIG_DEFAULTS' "access" formatter before 24.6
// (sanic/log.py: "%(asctime)s - (%(name)s)[%(levelname)s][%(host)s]:
// %(request)s %(message)s %(status)s %(byte)s", datefmt "[%Y-%m-%d
// %H:%M:%S %z]") and LegacyAccessFormatter's since (the date without
// brackets): "[2026-12-05 10:00:00 +0800] - (sanic.access)[INFO][10.0.2.151:33801]:
// POST http://llm-api:8000/v1/chat/completions  200 8393", the message
// empty. No duration.
const sanicLegacyFormat = `- (sanic.access)[INFO][$remote_addr]: $request_method $uri  $status $sanic_byte`

// sanicVars read Sanic's access log: its date with its zone (an ISO
// date and time, as the time readers read it), the client's host:port,
// the status three digits, the duration in ms (its unit written); the
// ident and the bytes ("chunked" at times) feed nothing.
var sanicVars = map[string]varSpec{
	"sanic_time":     {field: FTime, bound: true},
	"remote_addr":    {field: FRemoteAddr, bound: true, how: howHostPort},
	"status":         {field: FStatus, bound: true, code: true},
	"sanic_duration": {field: FRequestTime, unit: UnitMilli, bound: true},
	"sanic_ident":    {none: true},
	"sanic_byte":     {none: true},
}

// djangoFormat is the line of Django's development server (manage.py
// runserver): WSGIRequestHandler.log_message
// (django/core/servers/basehttp.py) logs http.server's '"%s" %s %s'
// (the request line, the status, the size, "-" when unknown) to the
// logger django.server with server_time, log_date_time_string()
// ("05/Dec/2026 10:00:00", the server's local time without a zone:
// --tz), and DEFAULT_LOGGING (django/utils/log.py) formats it
// "[{server_time}] {message}": `[05/Dec/2026 10:00:00] "POST
// /v1/chat/completions HTTP/1.1" 200 8393`. Its ServerFormatter colours
// the message by its status on a terminal (read without the colours).
// No duration: records without request_time.
const djangoFormat = `[$pydev_time] "$request" $status $body_bytes_sent`

// werkzeugFormat is the line of werkzeug's development server (Flask's
// flask run): WSGIRequestHandler.log_request and log
// (src/werkzeug/serving.py) write f"{address_string()} - -
// [{log_date_time_string()}] " and '"%s" %s %s' of the request line, the
// status and the size ("-" unless given): `127.0.0.1 - -
// [05/Dec/2026 10:00:00] "POST /x HTTP/1.1" 200 -`. Common Log
// Format's shape with http.server's date, no zone (--tz); on a terminal
// the request line is coloured by the status. No duration.
const werkzeugFormat = `$remote_addr - - [$pydev_time] "$request" $status $body_bytes_sent`

// pyDevLine reports whether line can be a development server's: its
// date in brackets as http.server writes it ("05/Dec/2026 10:00:00"),
// and nothing after the status and the size but a colour's reset. A line
// of another server's own format that begins alike (Envoy's
// `[%START_TIME%] "%REQ(:METHOD)% …" %RESPONSE_CODE% - %DURATION% …`)
// goes on past the size with what these servers never write: its
// durations.
func pyDevLine(line []byte) bool {
	open := bytes.IndexByte(line, '[')
	if open < 0 || len(line) < open+22 || line[open+21] != ']' {
		return false
	}
	if _, err := time.Parse("02/Jan/2006 15:04:05", string(line[open+1:open+21])); err != nil {
		return false
	}
	tail := line[bytes.LastIndexByte(line, '"')+1:]
	for bytes.HasSuffix(tail, []byte("m")) { // a colour's reset, "\x1b[0m"
		esc := bytes.LastIndexByte(tail, 0x1b)
		if esc < 0 {
			break
		}
		tail = tail[:esc]
	}
	f := bytes.Fields(tail)
	return len(f) == 2 && len(f[0]) == 3 && allDigits(f[0]) && (allDigits(f[1]) || string(f[1]) == "-")
}

// pyDevVars read the date of http.server's log_date_time_string,
// "%02d/%3s/%04d %02d:%02d:%02d" of the local time, without a zone.
var pyDevVars = map[string]varSpec{
	"pydev_time": {field: FTime, bound: true, how: howStrftime, strftime: "%d/%b/%Y %H:%M:%S", spaces: 1},
}

// granianFormat is granian's access log (--access-log), its default
// format (emmett-framework/granian granian/log.py, DEFAULT_ACCESSLOG_FMT
// '[%(time)s] %(addr)s - "%(method)s %(path)s %(protocol)s" %(status)d
// %(dt_ms).3f'): "[2026-12-05 10:00:00 +0800] 10.0.2.151 - \"POST
// /v1/chat/completions HTTP/1.1\" 200 508.372". log_request_builder fills
// the atoms: time, when the request came (time.time() before the app is
// called), strftime '%Y-%m-%d %H:%M:%S %z' in the server's zone; addr the
// client's address without its port (asgi.py and rsgi.py's _log_dict,
// scope['client'][0]); the path without its query and the protocol
// ("HTTP/" + the ASGI http_version); the status the app sent; dt_ms, ms
// from that start until the app returned (asgi.py's _http_logger logs in
// a finally after awaiting the app), its streamed body's last chunk
// included. A WebSocket's line has status 101 and the time of its
// handshake.
const granianFormat = `[$granian_time] $remote_addr - "$request" $status $granian_dt_ms`

// granianVars read granian's access log: its time with its zone (an ISO
// date and time, as the time readers read it), its status three digits,
// dt_ms in ms.
var granianVars = map[string]varSpec{
	"granian_time":  {field: FTime, bound: true},
	"status":        {field: FStatus, bound: true, code: true},
	"granian_dt_ms": {field: FRequestTime, unit: UnitMilli, bound: true},
}

// serilogFormat is the event of Serilog's request logging for ASP.NET
// Core in its default message template, "HTTP {RequestMethod}
// {RequestPath} responded {StatusCode} in {Elapsed:0.0000} ms"
// (serilog/serilog-aspnetcore RequestLoggingOptions.cs; Elapsed is ms,
// RequestLoggingMiddleware.cs), as Serilog's file sink writes it with
// its default output template, "{Timestamp:yyyy-MM-dd HH:mm:ss.fff zzz}
// [{Level:u3}] {Message:lj}" (serilog/serilog-sinks-file
// src/Serilog.Sinks.File/FileLoggerConfigurationExtensions.cs,
// DefaultOutputTemplate): the date with its zone, the level in three
// letters (INF, or ERR for a status over 499), the strings unquoted
// (:lj). The application's other lines, dated and levelled, are its own
// (ownLogLine).
const serilogFormat = `$serilog_time [$serilog_level] HTTP $request_method $uri responded $status in $serilog_elapsed ms`

// serilogVars read Serilog's request line: the time with its zone
// ("2026-03-05 17:00:07.339 +08:00"), Elapsed in ms.
var serilogVars = map[string]varSpec{
	"serilog_time":    {field: FTime, bound: true, how: howStrftime, strftime: "%Y-%m-%d %H:%M:%S.%f %z", spaces: 2},
	"serilog_level":   {none: true},
	"serilog_elapsed": {field: FRequestTime, unit: UnitMilli, bound: true},
	"status":          {field: FStatus, bound: true, code: true},
}

// bentoMLVars read BentoML's access log: its date with its zone, the
// client's host:port, the latency in ms.
var bentoMLVars = map[string]varSpec{
	"bentoml_time":          {field: FTime, bound: true, how: howStrftime, strftime: "%Y-%m-%dT%H:%M:%S%z"},
	"remote_addr":           {field: FRemoteAddr, bound: true, how: howHostPort},
	"bentoml_latency":       {field: FRequestTime, unit: UnitMilli, bound: true},
	"bentoml_level":         {none: true},
	"bentoml_component":     {none: true},
	"bentoml_request_type":  {none: true},
	"bentoml_response_type": {none: true},
	"bentoml_trace":         {none: true},
	"scheme":                {none: true},
}

// lighttpdFormat is lighttpd's default access log format
// (lighttpd1.4 src/mod_accesslog.c, mod_accesslog_set_defaults: "%h %V %u
// %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\""): Apache's
// combined with %V, the request's Host, where combined has %l, the
// identd name Apache writes as "-". lighttpd writes "-" for a value it
// does not have (accesslog_append_buffer: no Host, no user; a body of no
// bytes, accesslog_append_bytes). Its %t is when the request ended
// (FORMAT_FLAG_TIME_END, the default), to the second. It logs no
// duration: a configuration that appends one (%D µs, %T s, %{ms}T) writes
// a number whose unit the line does not tell, read past.
const lighttpdFormat = `$remote_addr $http_host $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`

// lighttpdLine reports whether line begins as lighttpd's default does,
// "addr host user [", the host not "-": Apache's and nginx's combined
// write "-" in that slot (or, an nginx address slot holding "host addr",
// one word more before the date), and a file of such lines is theirs.
func lighttpdLine(line []byte) bool {
	var words [3][]byte
	rest := line
	for k := range words {
		var ok bool
		if words[k], rest, ok = bytes.Cut(rest, []byte(" ")); !ok || len(words[k]) == 0 {
			return false
		}
	}
	return string(words[1]) != "-" && len(rest) > 0 && rest[0] == '['
}

// squidFormat is Squid's native access.log format, its default (squid-cache
// src/log/FormatSquidNative.cc, "%9ld.%03d %6ld %s %s/%03d %" PRId64 " …";
// src/cf.data.pre, logformat squid "%ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm
// %ru %[un %Sh/%<a %mt"): the time the line was written, epoch seconds and
// ms; the transaction's time in ms (client_side.cc: trTime, from the
// request's header received to the log, so a CONNECT tunnel's is the
// tunnel's life), right-aligned in six columns; the client's address; the
// result code and the status sent to the client, "000" when none was
// (no status: the client gone, or no answer); the reply's size; the
// method, "-" without a request; the URL, absolute (a CONNECT's
// "host:port"); the user, URL-encoded; the hierarchy code and the server
// or peer that answered; the reply's content type. With log_mime_hdrs on,
// the headers follow in brackets, read past.
const squidFormat = `$squid_time $squid_elapsed $remote_addr $squid_result/$status $bytes_sent $request_method $squid_url $remote_user $squid_hierarchy/$upstream_addr $squid_type`

// koaFormat is koa-logger's line of a response (koajs/logger index.js,
// log()): two spaces, "-->" ("xxx" when the request failed, "-x-" when
// the client closed first), the method, the original URL, the status,
// the time and the body's size ("23.58kb", "-", nothing for a 204). The
// time is from the request's arrival, humanize-number's text of the ms
// below 10 s ("1,042ms"), of the seconds rounded above ("12s"). Its
// request line, "  <-- GET /", is the request's start: no response yet,
// passed over (koaIncoming). Colours, when it wrote to a terminal, are
// taken off.
const koaFormat = `  $koa_flow $request_method $koa_url $status $koa_time`

// honoFormat is Hono's logger middleware's line of a response
// (honojs/hono src/middleware/logger/index.ts, log()): koa-logger's
// without the size, the path without the query, the status coloured
// unless NO_COLOR is set, the time "835ms" below a second, the seconds
// rounded above ("3s").
const honoFormat = `  $koa_flow $request_method $koa_url $status $koa_time`

// koaVars read koa-logger's and Hono's lines.
var koaVars = map[string]varSpec{
	"koa_flow":       {none: true},
	"request_method": {field: FMethod, bound: true},
	"koa_url":        {field: FURI, bound: true},
	"status":         {field: FStatus, bound: true, code: true},
	"koa_time":       {field: FRequestTime, unit: UnitMilli, bound: true, how: howKoaTime},
}

// koaLine reports whether a line is a response's of koa-logger or Hono:
// "-->", "xxx" or "-x-" first, behind koa-logger's two spaces or none.
func koaLine(line []byte) bool {
	line = bytes.TrimPrefix(line, []byte("  "))
	return len(line) > 4 && line[3] == ' ' && (string(line[:3]) == "-->" || string(line[:3]) == "xxx" || string(line[:3]) == "-x-")
}

// honoLine reports whether a line is a response's of Hono's logger:
// koa-logger's shape, and nothing after the time (koa-logger writes the
// size there but for a 204's).
func honoLine(line []byte) bool {
	return koaLine(line) && len(bytes.Fields(line)) == 5
}

// koaIncoming reports whether a line is koa-logger's or Hono's of a
// request's start, "<-- METHOD URL" and no more: no response yet.
func koaIncoming(line []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimPrefix(line, []byte("  ")), []byte("<-- "))
	if !ok {
		return false
	}
	method, url, ok := bytes.Cut(rest, []byte(" "))
	if !ok || len(method) == 0 || len(url) == 0 || bytes.IndexByte(url, ' ') >= 0 {
		return false
	}
	for _, c := range method {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// squidVars read Squid's native format: its time epoch seconds and ms as
// Squid writes them (no other time: one a runtime prints before the line
// is not taken for it, nor the line's time for the elapsed ms), its
// elapsed time ms after its padding, its status three digits, its URL the
// uri (counted by its path).
var squidVars = map[string]varSpec{
	"squid_time":      {field: FTime, unit: UnitSecond, bound: true, seconds: true},
	"squid_elapsed":   {field: FRequestTime, unit: UnitMilli, bound: true, pad: true},
	"status":          {field: FStatus, bound: true, code: true},
	"squid_url":       {field: FURI, bound: true},
	"squid_result":    {none: true},
	"squid_hierarchy": {none: true},
	"squid_type":      {none: true},
	"bytes_sent":      {none: true},
}

// Ray Serve's access log, on by default (LoggingConfig's
// enable_access_log), which its proxy writes of each HTTP request (and
// each replica of each request it serves) through Serve's logger
// (python/ray/serve/_private/logging_utils.py: ServeFormatter's
// "%(levelname)s %(asctime)s {component_name} {component_id} ", the
// request's id, then "-- %(message)s", constants.py's
// SERVE_LOG_RECORD_FORMAT; access_log_msg's message f"{method} {route}
// {status} {latency_ms:.1f}ms"): "INFO 2026-03-10 16:00:00,637 proxy
// 10.0.0.5 2827688d-e6a1-6a3b-0d46-4138a6233255 -- POST
// /v1/chat/completions 200 409.9ms". The latency is ms from the request's
// arrival to its response's last message; the time, Python's asctime
// without a zone (--tz), when the line was written, at that end. No
// client: the component's id is the proxy's node.
const rayServeFormat = `$ray_level $ray_time $ray_component $ray_component_id $request_id -- $request_method $uri $status ${ray_latency}ms`

// rayServeClientFormat is the same with the client's address before the
// method, as Serve writes it when RAY_SERVE_LOG_CLIENT_ADDRESS is set
// (ray-project/ray#60967: access_log_msg's f"{client} {method} {route}
// {status} {latency_ms:.1f}ms", the client format_client_address's
// "host:port" or "[v6]:port", uvicorn's scope["client"], which its
// ProxyHeadersMiddleware takes from X-Forwarded-For; the proxy's and the
// replica's lines alike; python/ray/serve/tests/unit/
// test_proxy_request_response.py: "10.0.0.1:54321 GET / 200 1.0ms").
// The address is read, its port left.
const rayServeClientFormat = `$ray_level $ray_time $ray_component $ray_component_id $request_id -- $ray_client $request_method $uri $status ${ray_latency}ms`

// rayServe29Format is the same as Ray 2.9 and the releases about it wrote
// it: the request's id and route, the application's name when the request
// has one, the file and line, then " - " and the message
// f"{method} {status} {latency_ms:.1f}ms" ("INFO 2023-07-20 13:47:54,221
// http_proxy 127.0.0.1 123-234 / default http_proxy.py:538 - GET 200
// 8.9ms", its monitoring guide's).
const rayServe29Format = `$ray_level $ray_time $ray_component $ray_component_id $request_id $uri $ray_where - $request_method $status ${ray_latency}ms`

// rayServeVars read Ray Serve's access log: Python's asctime, the latency
// in ms; its status a code, or the line is another's (a replica's handle
// call, "CALL __call__ OK 12.3ms").
// railwayFormat is a line of Railway's HTTP logs as its CLI prints them;
// railwayVars read its time (RFC 3339, ns, UTC) and its total duration,
// whole ms (the edge's, the request's whole time).
const railwayFormat = `$time_iso8601 $request_method $uri $status ${railway_duration}ms $railway_request_id`

var railwayVars = map[string]varSpec{
	"time_iso8601":       {field: FTime, bound: true},
	"railway_duration":   {field: FRequestTime, unit: UnitMilli, bound: true},
	"status":             {field: FStatus, bound: true, code: true},
	"railway_request_id": {none: true},
}

var rayServeVars = map[string]varSpec{
	"ray_time":         {field: FTime, bound: true, how: howStrftime, strftime: "%Y-%m-%d %H:%M:%S,%f", spaces: 1},
	"ray_latency":      {field: FRequestTime, unit: UnitMilli, bound: true},
	"ray_client":       {field: FRemoteAddr, bound: true, how: howHostPort},
	"status":           {field: FStatus, bound: true, code: true},
	"ray_level":        {none: true},
	"ray_component":    {none: true},
	"ray_component_id": {none: true},
	"ray_where":        {none: true},
	"ray_actor":        {none: true},
	"request_id":       {none: true},
}

// huaweiAPIGVars read Huawei Cloud APIG's fields: its times in seconds
// (nginx's), region_id the gateway's region; the others feed nothing,
// the caller's app_id and the address as the generic names read them.
var huaweiAPIGVars = map[string]varSpec{
	"remote_addr":                {field: FRemoteAddr, bound: true, how: howAddrSlot},
	"region_id":                  {field: FRegion, bound: true},
	"router_uri":                 {field: FURI, bound: true},
	"scheme":                     {none: true},
	"api_name":                   {none: true},
	"app_name":                   {none: true},
	"inner_time":                 {none: true},
	"errorType":                  {none: true},
	"all_upstream_response_time": {none: true},
}

// huaweiELBVars read Huawei Cloud ELB's fields: the time its ISO 8601
// one (msec, when the line was written, is the same instant to the ms),
// the client's address before its port, its times in seconds.
var huaweiELBVars = map[string]varSpec{
	"msec":         {none: true},
	"time_iso8601": {field: FTime, bound: true},
	"remote_addr":  {field: FRemoteAddr, bound: true},
	"remote_port":  {none: true},
	"log_ver":      {none: true},
	"lb_name":      {none: true},
}

// elbVars read AWS's Classic Load Balancer's fields. Its one time is
// when the load balancer received the request, and its three processing
// times end when the response began (AWS: request_processing_time until
// the request was sent to the instance, backend_processing_time until the
// instance began its response headers, response_processing_time until the
// load balancer began to send the response): no duration of the whole
// response, which a streamed answer's body outlasts. So no request_time:
// the backend's time to its headers is upstream_header_time, -1 (the
// instance never answered) absent.
var elbVars = withNone(map[string]varSpec{
	"time":                    {field: FTime, bound: true},
	"client_port":             {field: FRemoteAddr, bound: true, how: howHostPort},
	"backend_port":            {field: FUpstreamAddr, bound: true},
	"backend_processing_time": {field: FUpstreamHeaderTime, bound: true},
	"elb_status_code":         {field: FStatus, bound: true, code: true, codeOrDash: true},
	"backend_status_code":     {field: FUpstreamStatus, bound: true},
	"request":                 {field: FRequest, bound: true},
}, awsLBNone)

// looksALB reports whether a line starts as AWS ALB's access log does:
// the request's type, then an RFC 3339 time in UTC.
func looksALB(line []byte) bool {
	typ, rest, ok := bytes.Cut(line, []byte(" "))
	if !ok || len(rest) < 20 || rest[4] != '-' || rest[7] != '-' || rest[10] != 'T' {
		return false
	}
	switch string(typ) {
	case "http", "https", "h2", "grpcs", "ws", "wss":
		return true
	}
	return false
}

// timedVars reads the appended times only when nginx wrote them.
var timedVars = map[string]varSpec{
	"remote_addr":            {field: FRemoteAddr, bound: true, how: howAddrSlot},
	"request_time":           {field: FRequestTime, bound: true, seconds: true},
	"upstream_response_time": {field: FUpstreamResponseTime, bound: true, seconds: true},
}

// knownFormatByName returns the known format called name, or nil.
func knownFormatByName(name string) *knownFormat {
	name = strings.ToLower(name)
	for _, k := range knownFormats {
		if k.name == name {
			return k
		}
	}
	return nil
}

// LogFormatNames returns the names of the known formats --log-format
// accepts, sorted (the timed variants such as main+request_time are
// accepted too).
func LogFormatNames() []string {
	var names []string
	for _, k := range knownFormats {
		if !k.tail && !strings.Contains(k.name, "+") {
			names = append(names, k.name)
		}
	}
	sort.Strings(names)
	return slices.Compact(names) // a name of two variants once
}

// compile compiles k with schema.
func (k *knownFormat) compile(schema *Schema) (*logFormat, error) {
	var toks []formatToken
	var err error
	switch {
	case k.source == "morgan":
		toks, err = morganTokens(k.format)
	case k.source == "haproxy":
		if toks, err = haproxyTokens(k.format); err != nil {
			return nil, err
		}
		f := &logFormat{name: k.name, source: k.source, haproxy: true}
		if err := f.build(toks, nil, false, schema); err != nil {
			return nil, err
		}
		f.derive = hapDerives(f.vars)
		return f, nil
	case strings.Contains(k.format, "$"):
		toks, err = nginxTokens(k.format)
	default:
		toks, err = envoyTokens(k.format)
	}
	if err != nil {
		return nil, err
	}
	f := &logFormat{name: k.name, source: k.source, lenient: !k.tail || k.open, fits: k.fits}
	return f, f.build(toks, k.vars, k.join, schema)
}

// compileKnown compiles every known format, in guessing order.
func compileKnown(schema *Schema) []*logFormat {
	out := make([]*logFormat, 0, len(knownFormats))
	for _, k := range knownFormats {
		f, err := k.compile(schema)
		if err != nil {
			panic("BUG: known format " + k.name + ": " + err.Error())
		}
		out = append(out, f)
	}
	return out
}

// guessLines is how many of a file's first lines choose its format.
const guessLines = 20

// pickLogFormat returns the format among cands that reads the first
// lines of head best; nil when none reads any line. A line read to its
// end with each of its values read (Record.unread) counts 4; one read
// with text left after the format's end, or a value left unread, 3 when
// no format reads further into it, else 2 (a format with fields appended
// that reads them beats its base, which reads every line but less of
// it); one cut into a number where the format wants one but out of
// bounds (a negative time: a bad line of that format) 2; one cut into
// text where the format wants a number ("abc" for $request_time: a bad
// line of the format, or the format cutting the line wrongly) 1. So one
// bad value among the first lines does not hand the file to a format
// that reads no time at all, or to one that cuts every line into values
// out of bounds. A value that does not read counts 2 in a format given
// (--log-format) when the file is a text log (pickLogFormatTail's mine):
// the user says the lines are that format's. Of formats that score as
// much, the one that reads more lines wins, then the one that reads more
// to their end, then one given, then the one of more variables, then the
// earlier in cands.
//
// A server's own log lines (ownLogLine) among them follow no format: a
// format that reads them, cutting their words into its fields, is not
// chosen for them.
func pickLogFormat(head []byte, cands []*logFormat) *logFormat {
	f, _ := pickLogFormatTail(head, cands, false)
	return f
}

// pickLogFormatTail is pickLogFormat, and reports whether most of the
// lines the format read go on past its end: a known format that a
// configuration extended, whose fields after it are not read. With mine,
// the file is a text log (sniff chose it), and a value of a format given
// that does not read is that format's bad value; without, a format given
// reads a line only as a known one does, so that a file of another
// reader (Gin's, HAProxy's) is not taken for one whose every line is bad.
func pickLogFormatTail(head []byte, cands []*logFormat, mine bool) (*logFormat, bool) {
	lines := guessedLines(head)
	if wholeFirst {
		if f := readsWhole(lines, cands); f != nil {
			return f, false
		}
	}
	// How each format reads each line: its score but for a line it reads
	// with text left after its end, and, for such a line, where it ended.
	type reading struct{ score, read int }
	reads := make([][]reading, len(cands))
	most := make([]int, len(lines)) // of each line, the furthest a format read
	var rec Record
	for c, f := range cands {
		p := &nginxParser{f: f, loc: time.UTC}
		reads[c] = make([]reading, len(lines))
		for j, l := range lines {
			r := &reads[c][j]
			if f.fits != nil && !f.fits(l) {
				r.score = -1 // another format's line of the same shape
				continue
			}
			rec.Reset()
			trailing, err := p.parse(l, &rec)
			var ve *ValueError
			switch {
			case err == nil && !trailing && rec.unreadFields() == 0:
				// To its end, each value read: a status "200 OK" is a
				// format's that ends before the phrase, not this one's.
				r.score, r.read = 4, len(l)
			case err == nil:
				r.read = p.read
				if !trailing {
					r.read = len(l) // to its end, a value left unread
				}
			case errors.As(err, &ve) && (isNumeric(ve.Value) || mine && f.given):
				r.score = 2
			case ve != nil:
				// Not a number where the format wants one: a bad value
				// of this format ("abc" for $request_time), or the
				// format cutting the line wrongly.
				r.score = 1
			default:
				r.score = -1 // not read
			}
			most[j] = max(most[j], r.read)
		}
	}
	var best *logFormat
	bestScore, bestN, bestExact := 0, 0, 0
	for c, f := range cands {
		score, n, exact, whole := 0, 0, 0, 0
		for j, r := range reads[c] {
			switch {
			case r.score == 4:
				exact++
			case r.score == 0 && r.read == most[j]:
				r.score = 3 // read past its end, as far as any format
			case r.score == 0:
				r.score = 2 // another format reads further into it
			}
			if r.score >= 2 {
				n++
			}
			if r.score >= 3 {
				whole++
			}
			score += max(r.score, 0)
		}
		// A format that reads none of the lines without an error is not
		// theirs, however many of them it cuts into fields (a README's
		// prose in a log directory is no AWS ALB log).
		if n > 0 && whole > 0 && (score > bestScore || score == bestScore && (n > bestN || n == bestN && (exact > bestExact ||
			exact == bestExact && (f.given && !best.given || f.given == best.given && len(f.vars) > len(best.vars))))) {
			best, bestScore, bestN, bestExact = f, score, n, exact
		}
	}
	return best, best != nil && 2*bestExact < bestN
}

// guessedLines are the first lines of head that choose its format: a
// server's own lines among them left out.
func guessedLines(head []byte) [][]byte {
	return slices.DeleteFunc(headLines(head, guessLines), ownLogLine)
}

// wholeFirst has pickLogFormatTail try first for a format that reads
// every line whole (readsWhole); a test turns it off to check that the
// choice is the same.
var wholeFirst = true

// readsWhole returns the format pickLogFormatTail picks when one of
// cands reads each of lines to its end with each value read (each line
// counts 4), else nil. Such a format outscores every other: the one
// chosen is, of those, one given, then the one of more variables, then
// the earlier in cands. The formats are tried in that order, each only
// until a line it does not read whole, so that a file of a common
// format is read by a few formats' first lines instead of every format's
// every line (of twenty).
func readsWhole(lines [][]byte, cands []*logFormat) *logFormat {
	if len(lines) == 0 {
		return nil
	}
	var buf [64]int32
	order := buf[:0]
	for c := range cands {
		order = append(order, int32(c))
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		fa, fb := cands[a], cands[b]
		if fa.given != fb.given {
			if fa.given {
				return -1
			}
			return 1
		}
		return len(fb.vars) - len(fa.vars)
	})
	var rec Record
	for _, c := range order {
		f := cands[c]
		p := &nginxParser{f: f, loc: time.UTC}
		whole := true
		for _, l := range lines {
			rec.Reset()
			if f.fits != nil && !f.fits(l) {
				whole = false
				break
			}
			trailing, err := p.parse(l, &rec)
			if err != nil || trailing || rec.unreadFields() != 0 {
				whole = false
				break
			}
		}
		if whole {
			return f
		}
	}
	return nil
}

// isNumeric reports whether s reads as a number ("-5", "1e308"), not
// merely holds digits and signs as a date does ("2026-11-29").
func isNumeric(s string) bool {
	_, ok := parseNumber([]byte(s))
	return ok
}

// guessLogFormat returns the name of the known format that the most of
// the first lines of head follow, or "" when none fits any of them.
func guessLogFormat(head []byte, schema *Schema) string {
	if f := pickLogFormat(head, compileKnown(schema)); f != nil {
		return f.name
	}
	return ""
}

// headLines returns up to max non-blank lines from the start of head,
// without their line ends. head may end inside a line: that line is used
// only when it is all there is.
func headLines(head []byte, max int) [][]byte {
	var out [][]byte
	for rest := head; len(rest) > 0 && len(out) < max; {
		nl := bytes.IndexByte(rest, '\n')
		var l []byte
		if nl < 0 {
			if len(out) > 0 {
				break
			}
			l, rest = rest, nil
		} else {
			l, rest = rest[:nl], rest[nl+1:]
		}
		l = bytes.TrimRight(l, "\r")
		if !blank(l) {
			out = append(out, l)
		}
	}
	return out
}

// varNames returns the names of f's variables, each once, at most max:
// the format's own list (prepare), which every file read with it shares
// (a copy for each was most of what twenty thousand small files held),
// its capacity cut so that an append copies it.
func (f *logFormat) varNames(max int) []string {
	n := min(len(f.names), max)
	return f.names[:n:n]
}

// uniqueNames returns the names of vars, each once, in order.
func uniqueNames(vars []nginxVar) []string {
	var out []string
	for _, v := range vars {
		if !slices.Contains(out, v.name) {
			out = append(out, v.name)
		}
	}
	return out
}

// addrSlot reads nginx's address slot as real logs fill it: "addr";
// "host addr" or "\"xff, list\" addr" (the address is the last word);
// "a, b, c" (an X-Forwarded-For list written in its place: the first
// address, the client's).
func addrSlot(b []byte) []byte {
	k := bytes.LastIndexByte(b, ' ')
	if k < 0 {
		return b
	}
	if k > 0 && b[k-1] == ',' {
		return firstItem(b)
	}
	return b[k+1:]
}

// firstItem returns the first address of a comma-separated list.
func firstItem(b []byte) []byte {
	if i := bytes.IndexByte(b, ','); i >= 0 {
		b = b[:i]
	}
	return bytes.Trim(b, ` "`)
}

// nginxSeconds reports whether b is written as nginx writes times: "-"
// or digits, a dot and three digits ("0.123"), or a list of them
// ("0.100, 0.004 : -").
func nginxSeconds(b []byte) bool {
	for len(b) > 0 {
		item, rest := nextListItem(b)
		b = rest
		if len(item) == 1 && item[0] == '-' {
			continue
		}
		n := len(item)
		if n < 5 || item[n-4] != '.' {
			return false
		}
		for i, c := range item {
			if i != n-4 && (c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

// aspnetFinishedEvent is the category and event id of ASP.NET Core's
// "Request finished" (dotnet/aspnetcore
// src/Hosting/Hosting/src/Internal/LoggerEventIds.cs, RequestFinished = 2),
// as the console formatters write them: "category[id]".
const aspnetFinishedEvent = `Microsoft.AspNetCore.Hosting.Diagnostics[2]`

// aspnetFinishedFormat is the message of ASP.NET Core's "Request
// finished" (HostingRequestFinishedLog.ToString, after
// HostingRequestStartingLog's "{Protocol} {Method}
// {Scheme}://{Host}{PathBase}{Path}{QueryString}"): "Request finished
// HTTP/1.1 POST http://yarp-gw:8080/v1/chat/completions - 200 -
// application/json 2732.3432ms". The content length and type are "-"
// when absent, the type's spaces written "+"; the elapsed time is ms
// ("0.0000"), from the request's start in the Hosting layer to its end:
// YARP's proxy writes the same line. The URL is absolute, read as the
// uri (counted by its path).
//
// The console formatters (dotnet/runtime
// src/libraries/Microsoft.Extensions.Logging.Console/src/):
// SimpleConsoleFormatter writes "info: " then the category and event id
// and, on the next line, the message padded with six spaces (SingleLine:
// on the same line after a space); its TimestampFormat, when set, is
// written first with no separator of its own; SystemdConsoleFormatter
// writes "<6>", the time when set, the category and id, a space and the
// message. The simple formatter's default puts no time on the message's
// line: its records have no time ("no timestamps"), as none is written
// with it; a TimestampFormat without a date ("HH:mm:ss ", the
// documentation's example) gives none either.
const aspnetFinishedFormat = `Request finished $aspnet_protocol $request_method $uri - $status $aspnet_length $aspnet_type ${aspnet_elapsed}ms`

// aspnetVars read ASP.NET Core's "Request finished": the elapsed time
// ms, the status three digits; a TimestampFormat's date and time with no
// zone (--tz), and one the time readers do not read as a date
// (aspnet_stamp) passed over; the protocol, the length and the type
// feed nothing.
var aspnetVars = map[string]varSpec{
	"aspnet_elapsed":  {field: FRequestTime, unit: UnitMilli, bound: true},
	"status":          {field: FStatus, bound: true, code: true},
	"aspnet_time":     {field: FTime, bound: true},
	"aspnet_stamp":    {none: true},
	"aspnet_protocol": {none: true},
	"aspnet_length":   {none: true},
	"aspnet_type":     {none: true},
}
