package ingest_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// FuzzRun feeds arbitrary bytes through the whole pipeline as stdin, with
// format detection, decompression and every parser behind it: no input may
// panic or hang, and every record counted is one a sink saw.

// wrappedSeeds are lines in each wrapper: containerd's (a cut line, a
// stderr line), Docker's, a time before JSON (tabs, Fluentd's), syslog,
// a shipper's record, journald's, a CloudWatch event list of text,
// Fluent Bit's records of CRI lines, its file output's lines and its
// stdout output's (a record over two lines, one the line ends in) and
// its file output's in its ltsv format,
// Grafana's logs downloaded as JSON and as CSV, Splunk's results, and
// Cloud Logging's entries, in gcloud's array and in a sink's lines, and
// the AWS CLI's text output of log events.
var wrappedSeeds = []string{
	"2026-12-04T10:00:00.1Z stdout P {\"request_time\":\n2026-12-04T10:00:00.1Z stdout F 0.5,\"status\":200}\n2026-12-04T10:00:01Z stderr F I1204 starting\n",
	`{"log":"{\"request_time\":0.5,\"status\":200}\n","stream":"stdout","time":"2026-12-04T10:00:00Z"}` + "\n",
	"2026-12-04T10:00:00+00:00\tnginx.access\t{\"request_time\":0.5}\n2026-12-04T10:00:01Z gw/1 {\"status\":200}\n",
	`<190>1 2026-12-04T10:00:00Z gw nginx - - [a b="]"] {"request_time":0.5}` + "\nDec  4 10:00:00 gw nginx: {\"status\":200}\n",
	`{"@timestamp":"2026-12-04T10:00:00Z","message":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1 0.5"}` + "\n",
	`{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1796378400000000","MESSAGE":"{\"request_time\":0.5}"}` + "\n",
	`{"events":[{"message":"{\"request_time\":0.5}\n","timestamp":1,"eventId":"1"},{"message":"START x","eventId":"2"}]}`,
	// Fluent Bit's records of CRI lines, as stored and as an
	// Elasticsearch search's hits.
	`{"time":"2026-12-04T02:00:00Z","stream":"stdout","_p":"P","log":"{\"request_time\":0.5,\"status\":200}","kubernetes":{"pod_name":"gw"}}` + "\n" +
		`{"time":"2026-12-04T02:00:01Z","stream":"stderr","_p":"F","log":"I1204 starting"}` + "\n" +
		`{"date":1796349601.5,"stream":"stdout","logtag":"P","message":"{\"request_time\":"}` + "\n" +
		`{"date":1796349601.5,"stream":"stdout","logtag":"F","message":"0.5}"}` + "\n",
	"nginx.access: [1796349601.125000000, {\"log\":\"{\\\"request_time\\\":0.5}\"}]\nnginx.access: [1796349601.125000, {\"status\":200}]\n",
	"[0] gw: [[1796349601.125000000, {}], {\"log\"=>\"{\"request_time\":0.5}\n\", \"stream\"=>\"stdout\"}]\n[1] gw: [1796349601.125000000, {\"status\"=>200, \"a\"=>[nil, -1.500000, {}]}]\n[2] gw: [[1, {}], {\"log\"=>\"x\n",
	"\"time\":1796349601.125000\t\"log\":\"{\"request_time\":0.5}\"\n\"time\":1796349601.125000\t\"status\":200\t\"request_time\":\"0.\n5\"\n\"time\":1\t\"x\":\"\n",
	`{"hits":{"hits":[{"_id":"1","_source":{"@timestamp":"2026-12-04T02:00:00Z","time":"2026-12-04T02:00:00Z","stream":"stdout","_p":"F","log":"{\"request_time\":0.5}"}},` +
		`{"_id":"2","_source":{"stream":"stderr","log":"2026/12/04 10:00:00 [error] 1#1: x\n"}}]}}`,
	"[\n  {\n    \"insertId\": \"a1\",\n    \"jsonPayload\": {\n      \"request_time\": 0.5,\n      \"status\": 200\n    },\n    \"timestamp\": \"2026-12-04T02:00:00Z\"\n  },\n  {\"insertId\": \"a2\", \"textPayload\": \"x\\n\"}\n]\n",
	`[{"line":"{\"request_time\":0.5}","timestamp":"1796378400123456789","date":"2026-12-04T10:00:00.123Z","fields":{"app":"gw"}},{"line":"x","timestamp":"1","fields":{}}]`,
	"\"Date\",\"Time\",\"Line\",\"tsNs\",\"id\"\n\"2026-12-04T02:00:00.123Z\",\"1796349600123\",\"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"\"GET / HTTP/1.1\"\" 200 1 0.5\",\"1796349600123456789\",\"1796349600123456789_a\"\n",
	"@timestamp,kubernetes.pod_name,log\n\"Dec 4, 2026 @ 02:00:00.000\",gw,\"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"\"GET / HTTP/1.1\"\" 200 1 0.5\n\"\n\"Dec 4, 2026 @ 02:00:01.000\",gw,\"garbage\n\"\n",
	`{"preview":false,"init_offset":0,"messages":[],"fields":[{"name":"_raw"}],"results":[{"_raw":"{\"request_time\":0.5}","_time":"2026-12-04T10:00:00.000+08:00","_cd":"1:2"},{"_raw":"x","_bkt":"b"}]}`,
	`{"insertId":"a1","logName":"projects/p/logs/stdout","textPayload":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1 0.5\n","timestamp":"2026-12-04T02:00:00Z"}` + "\n",
	`{"data":[{"id":"AQ1","type":"log","attributes":{"timestamp":"2026-12-04T02:00:00.510Z","host":"n","service":"gw","status":"info","tags":[],"message":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1 0.5","attributes":{}}},{"id":"AQ2","type":"log","attributes":{"host":"n","service":"gw","status":"info","message":"x"}}],"meta":{"status":"done"}}`,
	"Date,Host,Service,Message\n2026-12-04T02:00:00.510Z,n,gw,\"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"\"GET / HTTP/1.1\"\" 200 1 0.5\"\n",
	`{"date":1796349601.125,"remote_addr":"10.0.1.3","status":"200","request_time":"0.188"}` + "\n",
	// The AWS CLI's text output of log events: the token of
	// --no-paginate, events, searched streams, the token to go on with.
	"AYADeHZ3eXl6\nEVENTS\t37516444111055343347641349063442428475868536476094283776\t1796349602010\tgw-1\t{\"request_time\":0.5}\t1796349601251\n" +
		"EVENTS\t37516444111055343347641349063442428475868536476094283777\t1796349602010\tgw-1\tSTART x\t1796349601251\nSEARCHEDLOGSTREAMS\tgw-1\tTrue\nNEXTTOKEN\tx==\n",
	// Azure Monitor's ContainerLogV2 rows: the query API's answer (a
	// LogMessage as text, as an object, null) and the portal's CSV.
	`{"tables":[{"name":"PrimaryResult","columns":[{"name":"TimeGenerated","type":"datetime"},{"name":"PodName","type":"string"},{"name":"LogMessage","type":"dynamic"}],"rows":[` +
		`["2026-12-04T02:00:00.5000000Z","gw","10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1 0.5"],["2026-12-04T02:00:01Z","gw",{"status":200}],["x","gw",null]]}]}`,
	"\ufeffTimeGenerated [UTC],PodName,LogMessage\r\n\"12/4/2026, 2:00:00.500 AM\",gw,\"{\"\"request_time\"\":0.5}\"\r\n",
}

func FuzzRun(f *testing.F) {
	for _, name := range []string{"tokenhub-1.jsonl", "tokenhub-2-cls.json.gz", "tokenhub-3.csv", "tokenhub-4-nginx.log", "tokenhub-5.parquet", "tokenhub-6.arrow"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "logs", name))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 4096 && name != "tokenhub-5.parquet" && name != "tokenhub-6.arrow" && name != "tokenhub-2-cls.json.gz" {
			b = b[:4096]
		}
		f.Add(b)
	}
	clb, err := os.ReadFile(filepath.Join("..", "testdata", "shared", "examples", "tokenhub-sample-clb.log"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(clb[:4096])
	// JSON documents: a pretty-printed array and a pretty-printed
	// envelope (an Elasticsearch export), and the text formats of other
	// gateways; sources told by nested paths (Azure API Management's
	// properties.*) and the cloud gateways' JSON; Langfuse's
	// observations, some passed over, some CSV cells JSON objects;
	// LangSmith's runs, in lines and in the runs query's envelope; OTLP
	// trace exports, their spans with their resources; Bedrock's calls.
	for _, name := range []string{"jsondoc/litellm-spend-logs.json", "jsondoc/es-export.json",
		"text/access.ltsv", "text/envoy-default.log", "text/istio-text.log", "text/apisix.log",
		"text/iis.log", "text/cloudfront.log", "text/aspnetcore-w3c.log",
		// Serilog's request events: CLEF, JsonFormatter, and the
		// Elasticsearch sink's documents, whose message is rendered.
		"sources/serilog-clef.jsonl", "sources/serilog-json.jsonl", "sources/serilog-es.jsonl", "text/serilog.log",
		// ASP.NET Core's own events through the JSON console formatter.
		"sources/aspnetcore.jsonl", "sources/aspnetcore-httplogging.jsonl", "sources/aspnetcore-both.jsonl",
		"sources/azure-apim.json", "sources/azure-apim-records.json", "sources/azure-apim-la.json",
		"sources/azure-appgw.json", "sources/azure-appgw-records.json", "sources/azure-appgw-la.json",
		"sources/azure-frontdoor.json", "sources/azure-frontdoor-records.json", "sources/azure-frontdoor-la.json",
		"sources/azure-appservice.jsonl", "sources/azure-appservice-la.json",
		"sources/railway.jsonl",
		"sources/azure-openai.json", "sources/azure-openai-records.json", "sources/azure-openai-la.json",
		"sources/aws-apigateway.json", "sources/aws-apigateway-http.json",
		"sources/langfuse.jsonl", "sources/langfuse.csv", "sources/langfuse-api.json",
		"sources/langsmith.jsonl", "sources/langsmith-api.json", "sources/lunary.jsonl", "sources/lunary.csv", "sources/lunary-api.json",
		"sources/opik.jsonl", "sources/opik-api.json", "sources/weave.jsonl", "sources/promptlayer.jsonl", "sources/promptlayer-search.json", "sources/laminar.json",
		"sources/agentgateway.jsonl", "sources/agentgateway-0.7.jsonl", "sources/fiber-json.jsonl", "sources/loggerjson-plug.jsonl",
		"sources/otel.jsonl", "sources/otel-http.json", "compressed/access.jsonl.lz4",
		// Jaeger's and Zipkin's spans: a line each, an Elasticsearch
		// search's hits, a list; µs, tags in a list or a map; trimmed
		// by jq to their ids, start, duration and tags; trimmed of
		// their start too, their duration left unread.
		"sources/jaeger.jsonl", "sources/jaeger-es.json", "sources/zipkin.json", "sources/zipkin-v1.json",
		"sources/jaeger-trimmed.jsonl", "sources/zipkin-trimmed.jsonl", "sources/zipkin-kindless.jsonl",
		"sources/jaeger-untimed.jsonl", "sources/zipkin-untimed.jsonl", "sources/zipkin-untimed-kindless.jsonl",
		// Bedrock's invocation log: response streams' chunks in arrays.
		"sources/bedrock.jsonl",
		// CDN logs: Akamai's request_time summed from its phases,
		// Fastly's µs beside its start and end, epoch ms or text.
		"sources/akamai.jsonl", "sources/fastly.jsonl", "sources/fastly-text.jsonl",
		// Triton's trace file: objects paired by id.
		"sources/triton-trace.json",
		// Python's loggers: python-json-logger's records of uvicorn's
		// access lines, structlog's seconds, loguru's serialized records.
		"python/pjl-uvicorn.jsonl", "python/troncos-asgi-access.jsonl", "python/loguru-serialize.jsonl",
		// NIM's JSON Lines log: uvicorn's access lines among NIM's and
		// vLLM's own records.
		"python/nim-jsonl.jsonl",
		// Bifrost's logs: a kind that passes over, a status from a kind.
		// CLS's time of a log beside the log's own.
		"cls/stamped.jsonl",
		"sources/bifrost.json", "sources/nginx-json.json", "sources/pino.jsonl", "sources/fastify.jsonl", "sources/echo.jsonl", "sources/sanic.jsonl", "sources/slog-http.jsonl", "sources/ginzap.jsonl", "sources/aliyun-apigw.json", "sources/edgeone.jsonl", "sources/edgeone.csv", "sources/gravitee-v4.jsonl", "sources/wso2-apim.jsonl", "sources/haproxy-json.jsonl", "sources/apigee.csv", "sources/baidu-blb.jsonl",
		// logfmt: Go's loggers', Heroku's router's, a program's own,
		// agentgateway's text (tabs, then its request target's pairs).
		"text/logfmt.log", "text/heroku-router.log", "text/logfmt-own.log", "text/agentgateway.log",
		// one-hub's zap console lines with Gin's date; its logs table,
		// the admin API's page and a PostgreSQL CSV export.
		"text/one-hub.log", "sources/one-hub-api.json", "sources/one-hub.csv",
		// ClickHouse's JSONCompact; pandas' tables by split, index,
		// column and values.
		"jsondoc/clickhouse-jsoncompact.json", "jsondoc/pandas-split.json", "jsondoc/pandas-index.json",
		"jsondoc/pandas-columns.json", "jsondoc/pandas-columns-iso.json", "jsondoc/pandas-values.json",
		// pandas' tables by index and by column of a time index: epoch ms
		// and ISO keys.
		"jsondoc/pandas-index-time.json", "jsondoc/pandas-index-time-iso.json", "jsondoc/pandas-columns-time.json", "jsondoc/pandas-columns-time-iso.json",
		// ClickHouse's JSONColumns, bare and with its metadata.
		"jsondoc/clickhouse-jsoncolumns.json", "jsondoc/clickhouse-jsoncolumnswithmetadata.json", "jsondoc/arrays-not-table.json",
		// AWS's Classic LB (a TCP connection passed over), chi's log.
		"text/aws-elb.log", "text/chi.log", "text/chi-reqid.log",
		// Huawei Cloud's API Gateway and ELB.
		"text/huawei-apig.log", "text/huawei-elb.log",
		// SGLang's router's JSON and text: a request's two lines, its answer the
		// request; latency µs, or as Rust's Debug writes a Duration.
		"sources/smg.jsonl", "sources/sglang-router.jsonl", "text/smg.log", "text/sglang-router.log",
		// tower-http's TraceLayer events in tracing-subscriber's JSON,
		// nested and flattened, and its full and compact text formats:
		// latency "778 ms", a space before its unit.
		"sources/tower-http.jsonl", "sources/tower-http-flat.jsonl", "text/tower-http.log", "text/tower-http-compact.log",
		// Knative's queue-proxy request log: the gcp source's httpRequest alone.
		"sources/knative.jsonl", "sources/knative-example.jsonl",
		// logback-access's JSON, its message Apache's common log format
		// beside its own fields.
		"sources/logstash-access.jsonl",
		// Reactor Netty's access log, bare and through Spring Boot's logger.
		"text/reactor-netty.log", "text/reactor-netty-boot.log",
		// Quarkus's access log through its logging, among its own lines.
		"text/quarkus-console.log", "text/quarkus-combined.log",
		// ASP.NET Core's "Request finished" through the console
		// formatters, among the host's and the application's lines.
		"text/aspnetcore-console.log", "text/aspnetcore-singleline.log", "text/aspnetcore-systemd.log",
		// BentoML's access log among its own lines.
		"text/bentoml.log",
		// granian's default access log among its own lines.
		"text/granian.log",
		// Hypercorn's behind its logger's line, among its error log's.
		"text/hypercorn.log", "text/hypercorn-timed.log",
		// Sanic's production and legacy text formats among its own lines.
		"text/sanic-prod.log", "text/sanic-legacy.log", "text/sanic-legacy-24.log",
		// gin-contrib/zap's request log in zap's console lines, the
		// program's own entry and a stack trace among them.
		"text/ginzap-development.log",
		// WSO2 API Manager's analytics events behind log4j2's layout,
		// its reporter's own line among them.
		"text/wso2-apim-metrics.log",
		// Ray Serve's, today's and 2.9's, and as its driver prints it.
		"text/ray-serve.log", "text/ray-serve-29.log", "text/ray-serve-driver.log",
		// and its JSON logs' records, today's and 2.9's.
		"text/ray-serve-json.log", "text/ray-serve-json-29.log", "text/ray-serve-client.log", "text/ray-serve-json-client.log",
		// Envoy's default after Emissary-ingress's "ACCESS ", and Kuma's.
		"text/emissary.log", "text/kuma.log",
		// lighttpd's default, a line without a Host among them, and with
		// a number after it.
		"text/lighttpd.log", "text/lighttpd-timed.log",
		// Squid's native access.log: padded times, a tunnel, no request.
		"text/squid.log",
		// Linkerd's proxy's apache access log among its own lines.
		"text/linkerd-apache.log",
		// llama.cpp's server's text log, in order and sorted, among its
		// own lines.
		"text/llama-server.log", "text/llama-server-sorted.log", "text/llama-server-ollama.log", "text/gin-ollama-runner.log", "text/gin-ollama-serve.log", "text/gin-oneapi.log", "text/gin-ollama-load.log", "text/gin-newapi-tags.log", "text/gin-aiproxy.log", "text/gin-krakend.log", "text/gin-krakend-lura.log",
		// uvicorn's access lines behind SGLang's, FastChat's and Open
		// WebUI's logging, among their own lines.
		"text/uvicorn-sglang.log", "text/uvicorn-fastchat.log", "text/uvicorn-openwebui.log", "text/uvicorn-openwebui-extra.log",
		// ... and behind NIM's and Xinference's; among LMDeploy's and the
		// vLLM production-stack router's own lines, coloured or JSON.
		"text/uvicorn-nim.log", "text/uvicorn-nim-1x.log", "text/uvicorn-xinference.log", "text/uvicorn-xinference-29.log",
		"text/uvicorn-xinference-210.log", "text/uvicorn-lmdeploy.log", "text/uvicorn-vllm-router.log", "text/uvicorn-vllm-router-json.log",
		// TensorZero's tables: a time from a UUIDv7, CSV's \N.
		"sources/tensorzero-model.jsonl", "sources/tensorzero-model.csv", "sources/tensorzero-chat.jsonl",
		// OpenRouter's generation stats, bare and in the API's data.
		"sources/openrouter.jsonl", "sources/openrouter-api.jsonl",
		// Dify's runs: its table's CSV and its logs API's page.
		"sources/dify.csv", "sources/dify-api.json",
		// Envoy's and AWS Classic ELB's lines behind logcli's and aws
		// logs tail's time.
		"text/envoy-logcli.log", "text/envoy-awstail.log", "text/aws-elb-logcli.log",
		// Fluentd's out_file of its none parser's records.
		"text/fluentd-outfile-none.log",
		// OTLP log exports: lines in bodies, batches a line; attributes
		// and a body's map as records.
		"otlp/filelog-nginx.jsonl", "otlp/filelog-regex-attributes.jsonl", "otlp/kvlist-body.json",
		// OTLP log exports whose resources carry a cloud.region.
		"otlp/resource-regions.json", "otlp/resource-regions-attributes.jsonl",
		// Vector's native_json events: lines a source read, a remap's
		// fields, metrics and a trace among them.
		"vector/native-file.ndjson", "vector/native-k8s.ndjson", "vector/native-remap.ndjson",
		// and in JSON arrays, pretty and on one line.
		"vector/native-array.json", "vector/native-remap-array.json",
		// The AWS CLI's text output of filter-log-events and get-log-events.
		"text/cloudwatch-filter-text.txt", "text/cloudwatch-get-text.txt",
		// Papertrail's log archive (nginx and JSON lines, a tab within
		// one) and its search API's events.
		"text/papertrail-archive.tsv", "text/papertrail-archive-json.tsv", "jsondoc/papertrail-search.json",
		// Mezmo's export lines, nginx's own error among them.
		"text/mezmo-export.jsonl",
		// Better Stack's SQL API's rows: lines in raw logs' messages,
		// raw logs of fields.
		"text/betterstack-sql.jsonl", "text/betterstack-sql-fields.jsonl",
		// New Relic's events: NerdGraph's and the Insights API's
		// answers, spans passed over.
		"sources/newrelic-transaction.csv", "sources/newrelic-nerdgraph.json", "sources/newrelic-span-insights.json",
		// Phoenix's spans: a DataFrame's CSV and the API's data.
		"sources/phoenix-spans.csv", "sources/phoenix-api.json",
		// SigNoz's spans: v2's CSV, v3's ClickHouse FORMAT JSON.
		"sources/signoz-v2.csv", "sources/signoz-v3.json", "sources/honeycomb.csv", "sources/mlflow.csv",
		// Databricks' inference tables, legacy and AI Gateway's: JSON
		// bodies as text, a map as an object or its JSON text.
		"sources/databricks-legacy.jsonl", "sources/databricks-legacy.csv",
		"sources/databricks-gateway.jsonl", "sources/databricks-gateway.csv",
		// CLS's shipping to COS as CSV, its fields quoted with single
		// quotes; cut by spaces.
		"text/cls-cos-squote.csv", "text/cls-cos-space.csv",
		// Alibaba Cloud's CLB and ALB in SLS: JSON lines, GetLogsV2's
		// answer, the console's CSV.
		"sources/aliyun-slb.jsonl", "sources/aliyun-alb-getlogs.json", "sources/aliyun-alb.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range wrappedSeeds {
		f.Add([]byte(s))
	}
	// Rows of values cut by spaces, without the keys on their first line
	// (valueRowsSep).
	spaced, err := os.ReadFile(filepath.Join("testdata", "text", "cls-cos-space.csv"))
	if err != nil {
		f.Fatal(err)
	}
	_, rows, _ := bytes.Cut(spaced, []byte("\n"))
	f.Add(rows)
	// Instants that make no request_time or ttft (Record.Finish): an
	// end before the start, a first token 1e7 s after it.
	f.Add([]byte(`{"startTime":1796374800.1,"endTime":1796374799.6,"completionStartTime":1796374800.6,"model":"m","api_base":"b"}` + "\n" +
		`{"startTime":1796374800.1,"endTime":1796374802.35,"completionStartTime":1806374800.6,"model":"m","api_base":"b"}` + "\n"))
	// A CSV export of log lines (Splunk's _raw), one quoted across lines.
	f.Add([]byte("_time,host,_raw\n2026-12-05T10:00:00Z,gw,\"{\"\"request_time\"\":0.5}\"\n2026-12-05T10:00:01Z,gw,\"{\n\"\"status\"\":200}\"\n"))
	// A program's lines within containerd's: zap's console lines, a
	// Python JSON logger's record of an access line.
	f.Add([]byte("2026-12-05T10:00:00Z stdout F 2026/12/04 - 10:00:07\tINFO\tmiddleware/logger.go:67\tGIN request\t{\"status\": 200, \"latency\": \"1.2s\"}\n" +
		"2026-12-05T10:00:01Z stdout F {\"asctime\": \"2026-03-10 16:00:00,637\", \"levelname\": \"INFO\", \"message\": \"POST /v1/chat 200 409.9ms\"}\n"))
	// uvicorn's lines as kubectl logs --timestamps prints them.
	f.Add([]byte("2026-12-05T10:00:00.000000000Z INFO:     10.0.0.5:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n" +
		"2026-12-05T10:00:01.000000000Z INFO:     10.0.0.5:51236 - \"POST /v1/chat/completions HTTP/1.1\" 429 Too Many Requests\n"))
	// Other logs behind kubectl's times (unstamp.go): zap's console
	// lines after the program's own, koa-logger's, Squid's.
	f.Add([]byte("2026-12-05T10:00:00.1Z 2025-03-10T08:00:00.001+0800\tINFO\tserver/main.go:41\tlistening on :8080\n" +
		"2026-12-05T10:00:01.2Z 2025-03-10T08:00:12.995+0800\tINFO\tginzap@v1.1.4/zap.go:102\t\t{\"status\": 200, \"latency\": 2.93}\n" +
		"2026-12-05T10:00:02.3Z \n"))
	f.Add([]byte("2026-12-05T10:00:00Z   <-- GET /health\n2026-12-05T10:00:00Z   --> GET /health 200 1,042ms 2b\n" +
		"2026-12-05T10:00:01Z 1796436015.147   5169 10.8.0.2 TCP_MISS/200 2052 POST http://a/v1 - HIER_DIRECT/10.2.0.9 application/json\n"))
	// tracing's lines behind kubectl's source alone; Fiber's behind
	// stern's names and time, and uvicorn's behind its namespace too.
	f.Add([]byte("[pod/gw-0/app] 2025-03-10T10:00:13.469482Z DEBUG request{method=POST uri=/v1/completions}: tower_http::trace::on_response: finished processing request latency=3280 ms status=200\n" +
		"[pod/gw-1/app] 2025-03-10T10:00:14.1Z  INFO llm_proxy: listening\n"))
	f.Add([]byte("gw-7d9f8b6c5-x2k9p gw 2026-12-05T10:00:00.1Z 10:00:36 | 200 |   71.8ms |  10.0.1.4 | POST    | /v1/embeddings\n" +
		"\x1b[32mgw-7d9f8b6c5-q7w4z\x1b[0m \x1b[33mgw\x1b[0m 2026-12-05T10:00:01Z 10:00:37 | 500 | 1.2s | ::1 | GET | /health\n" +
		"prod gw-0 app INFO:     10.0.0.5:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"))
	// A stack's docker compose logs (services.go), kubectl's containers.
	f.Add([]byte("litellm-1  | INFO:     10.0.0.5:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n" +
		"envoy-1    | [2026-12-05T10:00:00.000Z] \"POST /v1 HTTP/1.1\" 200 - 1 2 30 28 \"-\" \"c\" \"r\" \"a\" \"10.0.0.1:80\"\n" +
		"litellm-2  | INFO:     10.0.0.6:51236 - \"GET /health HTTP/1.1\" 200 OK\nno prefix\n" +
		"[pod/gw-0/app] x\n[pod/gw-0/istio-proxy] {\"response_code\":200,\"duration\":12}\n"))
	// Azure's portal's export of a query's results, "[UTC]" in a
	// column's name: a CSV by its header (bracketedHeader).
	f.Add([]byte("TenantId,TimeGenerated [UTC],TotalTime,BackendTime,ClientTime,ResponseCode\nws1,\"12/4/2026, 9:00:12.611 AM\",950,930,20,200\n"))
	// An ASCII table as mysql -t draws it, a Markdown table; a Loki query's
	// answer, a Log Analytics query's, Sumo Logic's messages; CloudWatch
	// Logs Insights' results of a line and of extracted fields.
	f.Add([]byte("+------+--------+--------------+\n| time | status | request_time |\n+------+--------+--------------+\n| 2026-12-05 10:00:00 | 200 | 0.5 |\n+------+--------+--------------+\n1 row in set (0.00 sec)\n"))
	f.Add([]byte("| time | status | request_time |\n|:--|--:|--:|\n| 2026-12-05 10:00:00 | 200 | 0.5 |\n"))
	f.Add([]byte(`{"status":"success","data":{"resultType":"streams","result":[{"stream":{"app":"gw"},"values":[["1796392800000000000","{\"request_time\":0.5}"],["1796392800000000001","x",{}]]}]}}`))
	f.Add([]byte(`{"fields":[],"messages":[{"map":{"_raw":"{\"request_time\":0.5}","_messagetime":"1796392800000"}},{"map":{"_raw":"x"}},{"x":1}]}`))
	f.Add([]byte(`{"tables":[{"name":"PrimaryResult","columns":[{"name":"TimeGenerated","type":"datetime"},{"name":"DurationMs","type":"long"},{"name":"ResultSignature","type":"string"}],"rows":[["2026-12-04T15:00:00Z",5230,"200"],[null,1,"429"],[1]]}]}`))
	f.Add([]byte(`{"results":[[{"field":"@timestamp","value":"2026-12-05 10:00:00.000"},{"field":"@message","value":"{\"request_time\":0.5}"}],[{"field":"@timestamp","value":"2026-12-05 10:00:01.000"},{"field":"status","value":"200"}]],"statistics":{},"status":"Running"}`))
	f.Add(manyRowGroups(f.Fatal))
	f.Add([]byte("{\n  \"request_time\": 1\n}\n{\n  \"request_time\": 2\n}\n"))
	f.Add([]byte("\x1f\x8b"))
	f.Add([]byte("\x28\xb5\x2f\xfd"))
	f.Add([]byte("\x50\x2a\x4d\x18\x04\x00\x00\x00abcd\x28\xb5\x2f\xfd"))
	f.Add([]byte("\x5f\x2a\x4d\x18\xff\xff\xff\xff"))
	f.Add([]byte("PAR1"))
	f.Add([]byte("ARROW1"))
	// Snappy's framing: a stream of one chunk, and its identifier alone;
	// lzop's magic.
	f.Add(snappyFramed([]byte(`{"request_time":0.5,"status":200}` + "\n")))
	f.Add([]byte("\xff\x06\x00\x00sNaPpY"))
	f.Add([]byte("\x89LZO\x00\r\n\x1a\n"))
	// A tar and a zip of two small logs; a tar's header alone; bzip2's
	// and xz's magic.
	small := [][2]string{{"a.jsonl", "{\"time\":\"2026-11-29T10:00:00Z\",\"request_time\":0.5,\"status\":200}\n"},
		{"b.log", "10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\" 0.5\n"}}
	var tb, zb bytes.Buffer
	tw, zw := tar.NewWriter(&tb), zip.NewWriter(&zb)
	for _, m := range small {
		tw.WriteHeader(&tar.Header{Name: m[0], Mode: 0o644, Size: int64(len(m[1]))})
		tw.Write([]byte(m[1]))
		w, _ := zw.Create(m[0])
		w.Write([]byte(m[1]))
	}
	tw.Close()
	zw.Close()
	f.Add(tb.Bytes())
	f.Add(zb.Bytes())
	f.Add(tb.Bytes()[:512])
	f.Add([]byte("BZh91AY&SY\x00\x00"))
	f.Add([]byte("\xfd7zXZ\x00\x00\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sinks, res, err := ingest.Run([]string{"-"}, ingest.Options{Stdin: bytes.NewReader(data), Workers: 2},
			func() *countSink { return &countSink{} })
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, s := range sinks {
			n += s.n
		}
		if n != res.Records() {
			t.Fatalf("sinks saw %d records, the result counts %d", n, res.Records())
		}
	})
}

// manyRowGroups returns a Parquet file of eight row groups of 16 rows:
// at two workers, the workers decode its row groups (a file of fewer is
// decoded by the reader).
func manyRowGroups(fatal func(...any)) []byte {
	type row struct {
		Time        string  `parquet:"time"`
		Region      string  `parquet:"region,dict"`
		Status      int32   `parquet:"status"`
		RequestTime float64 `parquet:"request_time"`
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(16))
	rows := make([]row, 128)
	for i := range rows {
		rows[i] = row{Time: fmt.Sprintf("2026-11-29T10:%02d:00+08:00", i%60), Region: []string{"ap-beijing", "ap-shanghai"}[i%2],
			Status: 200, RequestTime: float64(i) / 100}
	}
	if _, err := w.Write(rows); err != nil {
		fatal(err)
	}
	if err := w.Close(); err != nil {
		fatal(err)
	}
	return buf.Bytes()
}

// digestSink keeps, in order, every field of every record it is given.
type digestSink struct{ b []byte }

func (s *digestSink) Add(r *ingest.Record) {
	s.b = fmt.Appendf(s.b, "%x", r.Fields())
	if r.Has(ingest.FTime) { // TimeNS means nothing without it
		s.b = fmt.Appendf(s.b, " %d", r.TimeNS)
	}
	for f := range ingest.Field(ingest.NumFields) {
		if t := r.Text(f); t != nil {
			s.b = fmt.Appendf(s.b, " %d:%q", f, t)
		} else if v, ok := r.Float(f); ok {
			s.b = fmt.Appendf(s.b, " %d=%v", f, v)
		}
	}
	s.b = append(s.b, '\n')
}

// batchDigestSink is a digestSink given records a batch at a time.
type batchDigestSink struct{ digestSink }

func (s *batchDigestSink) AddBatch(rs []ingest.Record) {
	for i := range rs {
		s.Add(&rs[i])
	}
}

// FuzzBatches feeds arbitrary bytes through the pipeline, as FuzzRun, to
// a sink that takes records a batch at a time and to one that takes
// them one at a time: both must see the same records, field for field,
// in the same order; a record of a batch keeps what the parser made for
// it while the lines after it are read.
func FuzzBatches(f *testing.F) {
	for _, name := range []string{"tokenhub-1.jsonl", "tokenhub-3.csv", "tokenhub-4-nginx.log"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "logs", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 8192)])
	}
	for _, name := range []string{"text/access.ltsv", "jsondoc/es-export.json", "sources/langfuse.jsonl", "sources/langfuse.csv",
		"sources/langfuse-legacy.json", "sources/langsmith.jsonl", "sources/langsmith-api.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	var esc bytes.Buffer
	for i := range 100 {
		fmt.Fprintf(&esc, `{"time":"2026-11-29T10:00:%02dZ","model":"m\"%d\\","region":"r\u00e9%d","request_time":0.5}`+"\n", i%60, i, i%3)
	}
	f.Add(esc.Bytes())
	f.Add([]byte("time,model,request_time\n2026-11-29T10:00:00Z,\"a\"\"b\",1\n2026-11-29T10:00:01Z,\"c,\"\"d\",2\n"))
	for _, s := range wrappedSeeds {
		f.Add([]byte(s))
	}
	// An ASCII table as mysql -t draws it, a Markdown table; a Loki query's
	// answer, a Log Analytics query's, Sumo Logic's messages; CloudWatch
	// Logs Insights' results of a line and of extracted fields.
	f.Add([]byte("+------+--------+--------------+\n| time | status | request_time |\n+------+--------+--------------+\n| 2026-12-05 10:00:00 | 200 | 0.5 |\n+------+--------+--------------+\n1 row in set (0.00 sec)\n"))
	f.Add([]byte("| time | status | request_time |\n|:--|--:|--:|\n| 2026-12-05 10:00:00 | 200 | 0.5 |\n"))
	f.Add([]byte(`{"status":"success","data":{"resultType":"streams","result":[{"stream":{"app":"gw"},"values":[["1796392800000000000","{\"request_time\":0.5}"],["1796392800000000001","x",{}]]}]}}`))
	f.Add([]byte(`{"fields":[],"messages":[{"map":{"_raw":"{\"request_time\":0.5}","_messagetime":"1796392800000"}},{"map":{"_raw":"x"}},{"x":1}]}`))
	f.Add([]byte(`{"tables":[{"name":"PrimaryResult","columns":[{"name":"TimeGenerated","type":"datetime"},{"name":"DurationMs","type":"long"},{"name":"ResultSignature","type":"string"}],"rows":[["2026-12-04T15:00:00Z",5230,"200"],[null,1,"429"],[1]]}]}`))
	f.Add([]byte(`{"results":[[{"field":"@timestamp","value":"2026-12-05 10:00:00.000"},{"field":"@message","value":"{\"request_time\":0.5}"}],[{"field":"@timestamp","value":"2026-12-05 10:00:01.000"},{"field":"status","value":"200"}]],"statistics":{},"status":"Running"}`))
	f.Add(manyRowGroups(f.Fatal)) // a batch sink's rows are set a column at a time
	for _, name := range []string{"tokenhub-5.parquet", "tokenhub-6.arrow"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "logs", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := ingest.Options{Stdin: bytes.NewReader(data), Workers: 1}
		batched, _, err := ingest.Run([]string{"-"}, in, func() *batchDigestSink { return &batchDigestSink{} })
		if err != nil {
			t.Fatal(err)
		}
		in.Stdin = bytes.NewReader(data)
		single, _, err := ingest.Run([]string{"-"}, in, func() *digestSink { return &digestSink{} })
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(batched[0].b, single[0].b) {
			t.Fatalf("records given in batches differ from those given one at a time:\n%s\n---\n%s", batched[0].b, single[0].b)
		}
	})
}

// snappyFramed is b in snappy's framing format.
func snappyFramed(b []byte) []byte {
	var out bytes.Buffer
	w := snappy.NewBufferedWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}
