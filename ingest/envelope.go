package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"sync"
	"time"
)

// Envelope is how a file's lines wrap the lines a program wrote: the
// container runtime's or the log shipper's that stored them. A gateway
// run in Kubernetes or Docker has its access log read from these files
// (/var/log/containers, kubectl logs, docker's json-file, a CloudWatch
// export), and each of its lines is read as the program's own once
// unwrapped: the file's format and source are those of the lines within.
type Envelope string

const (
	// NoEnvelope: the lines are the program's own.
	NoEnvelope Envelope = ""
	// EnvCRI is the CRI log of containerd and CRI-O, Kubernetes' node
	// log (/var/log/containers/*.log): "TIME STREAM TAG LINE", the tag
	// F for a whole line or its last part, P for a part cut at 16 KB.
	EnvCRI Envelope = "cri"
	// EnvDocker is Docker's json-file log, and a log shipper's record of
	// it (Fluent Bit, Fluentd): {"log":"LINE\n","stream":"stdout",…}; a
	// line cut at 16 KB has a part without the "\n". Fluent Bit's record
	// of a CRI line, {"time":…,"stream":"stdout","_p":"F","log":"LINE"}
	// or {"time":…,"stream":"stdout","logtag":"F","message":"LINE"}, is
	// read as one too (containerRecord).
	EnvDocker Envelope = "docker"
	// EnvStamped is a JSON line behind its time: kubectl logs
	// --timestamps, a CloudWatch Logs export to S3 ("TIME LINE"), aws
	// logs tail ("TIME STREAM LINE"), Fluentd's out_file
	// ("TIME\tTAG\tRECORD") and Fluent Bit's file output ("TAG: [TIME,
	// RECORD]", fluentBitFileLine), or a text format's line behind
	// its time (logcli's default output, aws logs tail: stampedtext.go);
	// and Fluent Bit's stdout output ("[N] TAG: [[TIME, {}], {"log"=>
	// "LINE"}]") and its file output's ltsv format ("\"time\":TIME\t
	// \"log\":\"LINE\"": fluentbitstdout.go), each record read as JSON.
	EnvStamped Envelope = "stamped"
	// EnvCloudWatch is a JSON document of CloudWatch Logs events (aws
	// logs filter-log-events, get-log-events): {"events":[{"message":
	// "LINE","timestamp":…,"logStreamName":…,"eventId":…},…]}, each
	// message a line of any format (an API Gateway's JSON, the nginx
	// text the CloudWatch agent sends).
	EnvCloudWatch Envelope = "cloudwatch"
	// EnvCloudWatchText is CloudWatch Logs events as the AWS CLI's text
	// output writes them (aws logs filter-log-events --output text,
	// get-log-events): a row an event, "EVENTS\t<eventId>\t
	// <ingestionTime>\t<logStreamName>\t<message>\t<timestamp>", the
	// message a line of any format (awscli.go).
	EnvCloudWatchText Envelope = "cloudwatch-text"
	// EnvPapertrail is Papertrail's log archive, a message a line of ten
	// tab-separated fields and no header, the line the last; and the
	// events of its search API, {"events":[{"message":"LINE",
	// "generated_at":…,…}]} (papertrail.go).
	EnvPapertrail Envelope = "papertrail"
	// EnvMezmo is Mezmo's (LogDNA's) export of lines, its Export API
	// v1's JSON lines {"_app":…,"_host":…,"_ts":<epoch ms>,"_line":
	// "LINE",…} (mezmo.go).
	EnvMezmo Envelope = "mezmo"
	// EnvBetterStack is Better Stack's (Logtail's) logs: its SQL API's
	// rows, {"dt":"…","raw":"{…\"message\":\"LINE\"…}"}, JSON lines
	// (FORMAT JSONEachRow) or a document's data; and its legacy Query
	// API's {"data":[{"dt":…,"message":"LINE","source_id":…}]}
	// (betterstack.go).
	EnvBetterStack Envelope = "betterstack"
	// EnvOTelLogs is an OpenTelemetry log export in OTLP/JSON (the
	// Collector's file exporter: {"resourceLogs":[…]} a line), each log
	// record's body a line of any format, or the record the object of its
	// attributes' and its body's map (otellogs.go).
	EnvOTelLogs Envelope = "otlp-logs"
	// EnvInsights is CloudWatch Logs Insights' results of a query (aws
	// logs get-query-results, or the console's export of its table)
	// whose fields hold each event's line in @message, its time in
	// @timestamp (UTC), and no field read as the request time
	// (insightsRows).
	EnvInsights Envelope = "cloudwatch-insights"
	// EnvSumo is Sumo Logic's search messages (its Search Job API's
	// {"fields":[…],"messages":[{"map":{"_raw":"LINE","_messagetime":
	// "<epoch ms>",…}},…]}): each message's line in _raw, unless a
	// field beside it gives a request time (sumoMessage).
	EnvSumo Envelope = "sumo"
	// EnvAzureContainer is Azure Monitor's rows of a container's lines
	// (AKS Container Insights' ContainerLogV2 table, each line in
	// LogMessage; the older ContainerLog's in LogEntry), as Log
	// Analytics' query API answers a query of them: each row's line, or
	// the record of a JSON line, its time TimeGenerated
	// (azureContainerRow).
	EnvAzureContainer Envelope = "azure-container"
	// EnvSyslog is a JSON or LTSV line behind a syslog header, as rsyslog and
	// syslog-ng store what nginx's access_log syslog: sends, and
	// journalctl prints: RFC 3164's "<PRI>Mmm dd hh:mm:ss HOST TAG: "
	// (the priority optional; the seconds' fraction of journalctl -o
	// short-precise), the same with an RFC 3339 time ("TIME HOST TAG: ":
	// rsyslog's RSYSLOG_FileFormat, journalctl -o short-iso) or RFC
	// 5424's "<PRI>1 TIME HOST APP PROCID MSGID SD ".
	EnvSyslog Envelope = "syslog"
	// EnvAPIMMetrics is WSO2 API Manager's analytics log for ELK and
	// OpenSearch (repository/logs/apim_metrics.log): log4j2's layout,
	// then "apimMetrics: apim:response, properties :{…}", the JSON the
	// record (apimmetrics.go).
	EnvAPIMMetrics Envelope = "apim-metrics"
	// EnvShipper is a log shipper's record of a line it read from a
	// file, as stored or exported (Filebeat, Elastic Agent, Logstash,
	// Vector): {"@timestamp":…,"message":"LINE",…}, the line in
	// "message" and a mark of the shipper beside it (@timestamp,
	// @version, source_type), when the record has no request field of
	// its own (an ingest pipeline's parse of the line is read as it is).
	EnvShipper Envelope = "shipper"
	// EnvVector is Vector's native_json codec's events, one a line
	// (vector.go): a log event {"log":{…}}, its object read as a record
	// when it carries request fields of its own (a VRL remap parsed the
	// line), else as the shipper's record of the line Vector read
	// (EnvShipper within); metric and trace events are passed over.
	EnvVector Envelope = "vector"
	// EnvJournald is journald's export, journalctl -o json (a server run
	// as a systemd unit, such as Ollama): {"__CURSOR":…,
	// "__REALTIME_TIMESTAMP":"…","MESSAGE":"LINE",…}.
	EnvJournald Envelope = "journald"
	// EnvLoki is Grafana Loki's export, logcli query --output=jsonl:
	// {"labels":{…},"line":"LINE","timestamp":"…"}, labels left out
	// with --no-labels, and no other member.
	EnvLoki Envelope = "loki"
	// EnvGrafana is Grafana's "Download logs" as JSON (Explore's logs,
	// a logs panel's): an array of {"line":"LINE","timestamp":"<epoch
	// ns>","date":"…","fields":{…}} (grafanaRow), each line of any
	// data source's logs.
	EnvGrafana Envelope = "grafana"
	// EnvSplunk is Splunk's search export in JSON (REST
	// services/search/jobs/export?output_mode=json, splunk search …
	// -output json): {"preview":false,"offset":N,"result":{"_raw":"LINE",
	// "_time":"…",…}}, "lastrow":true on the last row, and a last line
	// {"preview":false,"lastrow":true} without a result.
	EnvSplunk Envelope = "splunk"
	// EnvCLS is Tencent Cloud CLS's record of a log (clsRecord): a
	// search result (the SearchLog API's Response.Results, or its
	// elements one a line), {"Time":…,"TopicId":…,"LogJson":"{…}",…},
	// the record the JSON object in the string LogJson, its time Time
	// (ms); or a log collected as full text, {"__CONTENT__":"LINE",
	// "__TIMESTAMP__":…,"__SOURCE__":…,…}, the line in __CONTENT__.
	EnvCLS Envelope = "cls"
	// EnvCloudLogging is Google Cloud Logging's LogEntry of a line a
	// container or a VM wrote (cloudLogging): gcloud logging read
	// --format=json (an array), a sink to Cloud Storage (one a line);
	// the line in textPayload, or, for a JSON line the agent parsed,
	// the record in jsonPayload, its time timestamp.
	EnvCloudLogging Envelope = "cloud-logging"
	// EnvDatadog is Datadog's log as its Logs API returns it (v2's
	// search {"id","type":"log","attributes":{…}}, v1's list
	// {"id","content":{…}}) when no pipeline parsed its line
	// (datadogLog): the line in message, its time timestamp.
	EnvDatadog Envelope = "datadog"
	// EnvLoguru is loguru's serialized record (serialize=True):
	// {"text":…,"record":{…,"extra":{…},"time":{…}}}, its extra read as
	// the record (loguru.go).
	EnvLoguru Envelope = "loguru"
	// EnvRawCSV is a CSV export of a log platform's search whose rows
	// hold each log line as it was written, in a column of its own:
	// Splunk's (_raw, its time _time), CloudWatch Logs Insights'
	// (@message, @timestamp) and Tencent Cloud CLS's of a log collected
	// as full text (__CONTENT__, __TIMESTAMP__), when no other column
	// gives a request time
	// (rawColumns). A row is one line of the file, or the lines a
	// quoted field goes on to (a log line kept with its end, Fluent
	// Bit's log: joinQuoted).
	EnvRawCSV Envelope = "csv-raw"
)

// rawColumns is the layout of an EnvRawCSV file: its header, how many
// columns it has, which holds the line and which its time (−1: none);
// message: the line's column is "message", which may hold a program's
// own text rather than a log line (rawMessages).
type rawColumns struct {
	header    []byte
	n         int
	raw, time int
	message   bool
	// utc: the time is CloudWatch Logs Insights' @timestamp beside its
	// @message, which Insights writes in UTC without saying so, or a
	// column Azure's portal names with " [UTC]" after it.
	utc bool
}

// rawCSVHeader returns the layout of a CSV header whose columns hold a
// log platform's lines (EnvRawCSV): a column _raw or @message, CLS's
// __CONTENT__ (a log collected as full text), Azure Monitor's LogMessage
// or LogEntry (its time TimeGenerated), Line beside tsNs
// (Grafana's), or message or log (Kibana's export of a Filebeat or a
// Fluent Bit index, Graylog's), and none that s reads as a request time.
// ok false for any other line.
func rawCSVHeader(line []byte, s *Schema) (rawColumns, bool) {
	line = bytes.TrimRight(line, "\r")
	if bytes.IndexByte(line, ',') < 0 {
		return rawColumns{}, false
	}
	names, err := (&csvParser{sep: ','}).split(line)
	if err != nil {
		return rawColumns{}, false
	}
	c := rawColumns{header: bytes.Clone(line), n: len(names), raw: -1, time: -1} // line is the reader's buffer, which the next reads overwrite
	lineCol, tsNs, appLog, app, appSvcLog, appSvc := -1, false, -1, false, -1, false
	for i, n := range names {
		name, utc := headerName(bytes.TrimSpace(n))
		switch string(name) {
		case "Log", "Log_s":
			// Azure Container Apps' line (azurecontainer.go), read
			// beside its app's or revision's name alone.
			appLog = i
		case "ContainerAppName", "ContainerAppName_s", "RevisionName", "RevisionName_s":
			app = true
		case "ResultDescription":
			// App Service's line (AppServiceConsoleLogs), beside its
			// ContainerId alone.
			appSvcLog = i
		case "ContainerId":
			appSvc = true
		case "_raw", "@message", "__CONTENT__":
			c.raw, c.message = i, false
		case "LogMessage", "LogEntry":
			// Azure Monitor's rows of a container's lines, as the
			// portal's "Export to CSV" writes them (azurecontainer.go):
			// ContainerLogV2's LogMessage, a JSON line's object as its
			// JSON text, and ContainerLog's LogEntry.
			c.raw, c.message = i, false
		case "TimeGenerated":
			// Their time, "TimeGenerated [UTC]" (headerName).
			c.time, c.utc = i, utc
		case "message", "log", "content", "Message", "Content":
			// Kibana's export of a Filebeat index, Graylog's; of a Fluent
			// Bit index, whose line is in log; Alibaba Cloud SLS's of a
			// container's lines, which Logtail keeps in content;
			// Datadog's Log Explorer's (Date, Host, Service, then the
			// line as Message or Content, and the facets shown).
			if c.raw < 0 {
				c.raw, c.message = i, true
			}
		case "Line":
			lineCol = i
		case "_time", "@timestamp", "timestamp", "__TIMESTAMP__":
			c.time = i
		case "Date":
			// Datadog's Log Explorer's time (and the day Grafana's
			// download puts before tsNs, which overrides it).
			if c.time < 0 {
				c.time = i
			}
		case "tsNs":
			c.time, tsNs = i, true
		}
		if readsRequestTime(string(name), s) {
			return rawColumns{}, false
		}
	}
	if c.raw < 0 && appLog >= 0 && app {
		c.raw, c.message = appLog, false
	}
	if c.raw < 0 && appSvcLog >= 0 && appSvc {
		c.raw, c.message = appSvcLog, false
	}
	if c.raw < 0 && lineCol >= 0 {
		// Grafana's "Download logs" as CSV: a Date column, then the
		// data frame of Loki's rows, Time, Line, tsNs (its time, epoch
		// ns), id (grafana/grafana public/app/features/logs/utils.ts).
		// A Line beside no tsNs is some other program's column, read as
		// message is.
		c.raw, c.message = lineCol, !tsNs
	}
	if c.raw >= 0 && c.time >= 0 && string(bytes.TrimSpace(names[c.raw])) == "@message" && string(bytes.TrimSpace(names[c.time])) == "@timestamp" {
		c.utc = true
	}
	return c, c.raw >= 0
}

// sourceRequestTime reports whether some source reads a column of this
// name as the request time (ECS's event.duration, Datadog's duration):
// a CSV export of extracted fields beside the lines, which the file's
// source, once detected, reads.
func sourceRequestTime(name string) bool {
	requestTimeNamesOnce.Do(func() {
		requestTimeNames = map[string]bool{}
		for _, src := range sources {
			for _, f := range src.fields {
				if f.field == FRequestTime {
					requestTimeNames[f.name] = true
				}
			}
		}
	})
	return requestTimeNames[name]
}

var (
	requestTimeNamesOnce sync.Once
	requestTimeNames     map[string]bool
)

// wrapsLines reports whether e wraps a file's lines (rather than a
// document's elements).
func (e Envelope) wrapsLines() bool {
	switch e {
	case EnvCRI, EnvDocker, EnvStamped, EnvSyslog, EnvAPIMMetrics, EnvShipper, EnvVector, EnvJournald, EnvLoki, EnvSplunk, EnvCLS, EnvCloudLogging, EnvDatadog, EnvLoguru, EnvRawCSV, EnvCloudWatchText, EnvPapertrail, EnvMezmo, EnvBetterStack:
		return true
	}
	return false
}

// envelopeOf returns the envelope of a file's first line, NoEnvelope when
// it has none of them.
func envelopeOf(line []byte) Envelope {
	if _, _, _, ok := cloudWatchTextRow(line); ok {
		return EnvCloudWatchText
	}
	if _, _, ok := papertrailRow(line); ok {
		return EnvPapertrail
	}
	if _, _, ok := criFields(line); ok {
		return EnvCRI
	}
	if dockerLine(line) {
		return EnvDocker
	}
	if _, _, err := new(topReader).loki(line); err == nil {
		return EnvLoki
	}
	if _, _, row, err := new(topReader).splunk(line); err == nil && row {
		return EnvSplunk
	}
	if _, _, err := new(topReader).clsRecord(line); err == nil {
		return EnvCLS
	}
	if _, _, err := new(topReader).cloudLogging(line); err == nil {
		return EnvCloudLogging
	}
	if _, _, err := new(topReader).datadogLog(line); err == nil {
		return EnvDatadog
	}
	if _, _, err := new(topReader).mezmoLine(line); err == nil {
		return EnvMezmo
	}
	if _, _, err := new(topReader).betterStack(line); err == nil {
		return EnvBetterStack
	}
	if _, _, err := new(topReader).loguru(line); err == nil || errors.Is(err, errOwnLine) {
		return EnvLoguru
	}
	if vectorLine(line) {
		return EnvVector
	}
	if _, _, journald, err := new(topReader).shipped(line); err == nil {
		if journald {
			return EnvJournald
		}
		return EnvShipper
	}
	if _, _, ok := stampedLine(line); ok || fluentBitStdoutLine(line) || fluentBitLTSVLine(line) {
		return EnvStamped
	}
	if _, _, ok := syslogLine(line); ok {
		return EnvSyslog
	}
	if _, ok := apimMetricsRecord(line); ok {
		return EnvAPIMMetrics
	}
	return NoEnvelope
}

// stampLen returns the length of the RFC 3339 time that begins b
// ("2024-05-01T10:00:00.123456789Z", "2024-05-01T10:00:00.123+00:00"),
// 0 when b does not begin with one followed by a space or a tab.
func stampLen(b []byte) int {
	if i := stampEnd(b); i < len(b) {
		return i
	}
	return 0
}

// stampEnd returns where the RFC 3339 time that begins b ends (a space,
// a tab or b's end), 0 when b does not begin with one.
func stampEnd(b []byte) int {
	// YYYY-MM-DDTHH:MM:SS, then fractions and a zone.
	const form = "dddd-dd-ddTdd:dd:dd"
	if len(b) < len(form) {
		return 0
	}
	for i := range len(form) {
		c := b[i]
		if form[i] == 'd' {
			if c < '0' || c > '9' {
				return 0
			}
		} else if c != form[i] && !(form[i] == 'T' && c == ' ') {
			return 0
		}
	}
	if b[10] == ' ' {
		return 0 // a date and a time apart: a text log's own
	}
	i := len(form)
	for i < len(b) && b[i] != ' ' && b[i] != '\t' {
		switch c := b[i]; {
		case c >= '0' && c <= '9', c == '.', c == ',', c == ':', c == '+', c == '-', c == 'Z':
		default:
			return 0
		}
		i++
	}
	return i
}

// criFields splits a CRI log line into its time and the line within,
// and says whether that is a part (tag P) whose next lines continue it.
func criFields(line []byte) (stamp []byte, partial bool, ok bool) {
	n := stampLen(line)
	if n == 0 {
		return nil, false, false
	}
	rest := line[n+1:]
	switch {
	case bytes.HasPrefix(rest, []byte("stdout ")), bytes.HasPrefix(rest, []byte("stderr ")):
		rest = rest[len("stdout "):]
	default:
		return nil, false, false
	}
	// The tags: P or F, then others after ':' (none are defined yet).
	if len(rest) < 1 || rest[0] != 'P' && rest[0] != 'F' {
		return nil, false, false
	}
	partial = rest[0] == 'P'
	end := bytes.IndexByte(rest, ' ')
	if end < 0 {
		end = len(rest) // a line without text: "… stdout F"
	}
	if end > 1 && rest[1] != ':' {
		return nil, false, false
	}
	return line[:n], partial, true
}

// criLine returns the line within a CRI log line.
func criLine(line []byte) []byte {
	n := stampLen(line)
	rest := line[n+1+len("stdout "):]
	if i := bytes.IndexByte(rest, ' '); i >= 0 {
		return rest[i+1:]
	}
	return nil
}

// stampedLine returns the JSON line behind a time, past the time's
// stream name when there is one (aws logs tail), and the time.
func stampedLine(line []byte) (in, stamp []byte, ok bool) {
	n := stampLen(line)
	if n == 0 {
		if n = ginStampLen(line); n > 0 {
			// zap's console encoder with Gin's date (zapStampLen).
			if rec, ok := zapConsoleRecord(line, n); ok {
				return rec, line[:n], true
			}
			return nil, nil, false
		}
		return fluentBitFileLine(line)
	}
	rest := bytes.TrimLeft(line[n+1:], " \t")
	if lokiLabels(rest) {
		// logcli's default output: the labels, then the line.
		if in := bytes.TrimLeft(rest[labelsEnd(rest):], " "); len(in) > 0 && in[0] == '{' {
			return in, line[:n], true
		}
		return nil, nil, false
	}
	if len(rest) > 0 && rest[0] == '{' {
		return rest, line[:n], true
	}
	// aws logs tail: a log stream's name, then the line; Fluentd's
	// out_file: a tab, the tag, a tab, the record.
	if i := bytes.IndexAny(rest, " \t"); i > 0 && bytes.IndexByte(rest[:i], '{') < 0 {
		if r := bytes.TrimLeft(rest[i+1:], " \t"); len(r) > 0 && r[0] == '{' {
			return r, line[:n], true
		}
	}
	// zap's console encoder: the level, the caller and the message
	// before the fields' object (zapconsole.go).
	if rec, ok := zapConsoleRecord(line, n); ok {
		return rec, line[:n], true
	}
	return nil, nil, false
}

// fluentBitFileLine returns the record and the time of a line of Fluent
// Bit's file output in its default format, "TAG: [TIME, RECORD]", TIME
// epoch seconds (plugins/out_file/file.c: "%s: [%"PRIu64".%09lu, %s]",
// and "%s: [%f, %s]" before v2.0).
func fluentBitFileLine(line []byte) (rec, stamp []byte, ok bool) {
	i := bytes.Index(line, []byte(": ["))
	if i <= 0 || bytes.IndexAny(line[:i], " \t\"{[") >= 0 {
		return nil, nil, false
	}
	rest := line[i+len(": ["):]
	j := bytes.IndexByte(rest, ',')
	if j <= 0 || !epochSeconds(rest[:j]) {
		return nil, nil, false
	}
	rec = bytes.TrimRight(bytes.TrimLeft(rest[j+1:], " "), " ")
	if len(rec) < 3 || rec[0] != '{' || rec[len(rec)-1] != ']' {
		return nil, nil, false
	}
	return rec[:len(rec)-1], rest[:j], true
}

// epochSeconds reports whether b is a number of epoch seconds as Fluent
// Bit writes one: digits, a point and digits.
func epochSeconds(b []byte) bool {
	dot := bytes.IndexByte(b, '.')
	return dot > 0 && dot < len(b)-1 && allDigits(b[:dot]) && allDigits(b[dot+1:])
}

// dockerLine reports whether line is a container log's record (Docker's
// json-file record, a shipper's record of a CRI line): an object whose
// "log" is a string and whose "stream" is "stdout" or "stderr".
func dockerLine(line []byte) bool {
	var d topReader
	c, err := d.fields(line)
	return err == nil && (string(c.stream) == "stdout" || string(c.stream) == "stderr")
}

// topReader reads the top-level members of a wrapper's JSON record
// (Docker's, a shipper's, journald's, a CloudWatch event): the text of
// the line within is unescaped into its scratch buffer.
type topReader struct {
	p jsonParser // its str and scratch only
	// raw is an EnvRawCSV file's layout, and csv the splitter of its rows.
	raw rawColumns
	csv csvParser
	// Of the last object top read: the members whose keys are not in
	// its keys, the text of the objects that are values of its keys, and
	// that of the numbers and literals (true, false, null).
	others int
	objs   [8][]byte
	lits   [8][]byte
	arrs   [8][]byte // the text of the arrays that are values of its keys
	// bytes holds a journald MESSAGE written as its bytes' numbers.
	bytes []byte
	// ms holds an Insights result's time as epoch ms (insightsMessage).
	ms []byte
	// obj holds a Cloud Logging entry's jsonPayload on one line
	// (appendCompact).
	obj []byte
	// stamp is how an EnvStamped file's lines are cut from their time:
	// JSON lines, or a text format's (stampedtext.go).
	stamp stampCut
	// printed reads a record of Fluent Bit's stdout output into JSON
	// (stdoutRecord).
	printed printedReader
	// rayServeRecord: the last record shipped read was Ray Serve's
	// (rayjson.go), whose message may be Serve's own.
	rayServeRecord bool
	// rayRoute is that record's route, nil when it has none.
	rayRoute []byte
	// pythonOwn: the last record shipped read was python-json-logger's
	// of a logger that is no access logger (pyjson.go).
	pythonOwn bool
	// nimRecord: the last record shipped read was NIM's JSON Lines
	// record (nimjson.go), whose message may be the program's own.
	nimRecord bool
	// lone: a record of "message" alone is a shipper's record of the line
	// in it (Fluentd's, within its out_file's lines: shipped).
	lone bool
}

var errNoLog = errors.New(`no "log" string in the container log's record`)

// dockerKeys are the keys of a container log's record that fields
// reads: Docker's json-file record's; the tag "_p" that Fluent Bit's
// record of a CRI line has beside them; the tag and line of a CRI line
// read by the cri parser of Fluent Bit's parsers.conf (or Fluentd's
// fluent-plugin-parser-cri), "logtag" and "message"; and the time
// Fluent Bit's JSON outputs put beside a record (json_date_key, epoch
// seconds), which is the line's when the parser dropped its "time".
var dockerKeys = []string{"log", "stream", "time", "_p", "logtag", "message", "date"}

// containerRecord is what a container log's record holds: the line
// within, its stream and time, and whether it is a part of a line that
// the next records continue.
type containerRecord struct {
	log, stream, stamp []byte
	partial            bool
}

// fields reads a container log's record; its line is decoded into d's
// scratch buffer when it holds escapes.
func (d *topReader) fields(line []byte) (c containerRecord, err error) {
	var vals [7][]byte
	found, strs, err := d.top(line, dockerKeys, vals[:])
	if err != nil {
		return c, err
	}
	c.log, c.stream, c.stamp = vals[0], vals[1], vals[2]
	if found&4 == 0 && found&64 != 0 {
		if c.stamp = vals[6]; c.stamp == nil {
			c.stamp = d.lits[6] // a number
		}
	}
	if strs&1 == 0 {
		if strs&(16|32) != 16|32 {
			return c, errNoLog
		}
		// The cri parser of Fluent Bit's conf/parsers.conf,
		// "^(?<time>[^ ]+) (?<stream>stdout|stderr) (?<logtag>[^ ]*)
		// (?<message>.*)$", and Fluentd's fluent-plugin-parser-cri:
		// one record a CRI line, its tag as the runtime wrote it, a line
		// cut in parts (P, then F) not joined.
		c.log, c.partial = vals[5], len(vals[4]) > 0 && vals[4][0] == 'P'
		return c, nil
	}
	if strs&8 != 0 {
		// Fluent Bit's record of a CRI line, read by its tail input's cri
		// multiline parser (src/multiline/flb_ml_parser_cri.c: the regex
		// "^(?<time>.+?) (?<stream>stdout|stderr) (?<_p>F|P) (?<log>.*)$",
		// the parts joined in log while _p is not F): the line is whole,
		// without a line end, whatever its _p. A line cut in parts is
		// one record, the first part's members around the joined log
		// (src/multiline/flb_ml.c, package_content keeps the first
		// record, flb_ml_flush_stream_group puts the joined text in its
		// log), so its _p is the first part's P.
		c.log = bytes.TrimSuffix(c.log, []byte("\r"))
		return c, nil
	}
	// Docker's: the line and its "\n", or a part cut at 16 KB without it.
	c.partial = true
	if n := len(c.log); n > 0 && c.log[n-1] == '\n' {
		c.log, c.partial = bytes.TrimSuffix(c.log[:n-1], []byte("\r")), false
	}
	return c, nil
}

// top reads the members of the JSON object line whose keys are in keys:
// bit i of found is set when keys[i] has a value, of strs when it is a
// string, and vals[i] is then the string, decoded into d's scratch
// buffer when it holds escapes. Other members are passed over.
func (d *topReader) top(line []byte, keys []string, vals [][]byte) (found, strs uint64, err error) {
	s := scanner{b: line}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return 0, 0, s.fail("not a JSON object")
	}
	s.i++
	d.others, d.objs, d.lits, d.arrs = 0, [8][]byte{}, [8][]byte{}, [8][]byte{}
	for {
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == '}' {
			return found, strs, nil
		}
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return 0, 0, s.fail("expected a key")
		}
		key, err := d.p.str(&s)
		if err != nil {
			return 0, 0, err
		}
		k := -1
		for i, name := range keys {
			if string(key) == name {
				k = i
			}
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return 0, 0, s.fail("expected ':'")
		}
		s.i++
		s.ws()
		if s.i >= len(s.b) {
			return 0, 0, s.fail("truncated")
		}
		if k >= 0 {
			found |= 1 << k
		} else {
			d.others++
		}
		switch c := s.b[s.i]; {
		case c == '"' && k >= 0:
			if vals[k], err = d.p.str(&s); err != nil {
				return 0, 0, err
			}
			strs |= 1 << k
		case c == '"':
			if err := skipString(&s); err != nil {
				return 0, 0, err
			}
		case c == '{' || c == '[':
			from := s.i
			if err := s.skip(); err != nil {
				return 0, 0, err
			}
			if c == '{' && k >= 0 && k < len(d.objs) {
				d.objs[k] = s.b[from:s.i]
			}
			if c == '[' && k >= 0 && k < len(d.arrs) {
				d.arrs[k] = s.b[from:s.i]
			}
		default: // a number or a literal
			from := s.i
			for s.i < len(s.b) && s.b[s.i] != ',' && s.b[s.i] != '}' && s.b[s.i] > ' ' {
				s.i++
			}
			if k >= 0 && k < len(d.lits) {
				d.lits[k] = s.b[from:s.i]
			}
		}
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
			continue
		}
		if s.i >= len(s.b) || s.b[s.i] != '}' {
			return 0, 0, s.fail("expected ',' or '}'")
		}
	}
}

// shipperKeys are the keys of a log shipper's record: the line, and the
// shipper's marks (Filebeat's and Logstash's @timestamp, Logstash's
// @version, Vector's source_type and timestamp); and of journald's
// export (journalctl -o json): the line in MESSAGE, marked by __CURSOR,
// its time __REALTIME_TIMESTAMP (epoch µs).
//
// Alibaba Cloud's Logtail (iLogtail's service_docker_stdout input:
// docs/cn/plugins/input/extended/service-docker-stdout.md) keeps a
// container's line in content, beside its own fields, _time_ (when it
// was collected, RFC 3339), _source_, _container_name_, _pod_name_…,
// as SLS exports them.
//
// Fly.io's log shipper (superfly/fly-log-shipper: Vector reading the
// NATS stream of an organization's apps, vector-configs/vector.toml)
// keeps an app's line in message beside timestamp and its fly object
// (fly.app.name, fly.app.instance, fly.region).
var shipperKeys = []string{"message", "@timestamp", "@version", "source_type", "timestamp",
	"MESSAGE", "__CURSOR", "__REALTIME_TIMESTAMP", "content", "_container_name_", "_pod_name_", "_time_", "fly"}

var errNotShipped = errors.New(`not a log shipper's record: no "message" string beside @timestamp, @version or source_type, nor journald's MESSAGE beside __CURSOR, nor Logtail's "content" beside _container_name_ or _pod_name_, nor Fluent Bit's "log" beside "date" alone, nor Ray Serve's "message" beside "levelname" and "component_name" or "deployment", nor python-json-logger's "message" beside "levelname" and "asctime" or "name", nor NIM's "message" beside "level", "time", "file_name" and "line_number", nor Fly.io's "message" beside "timestamp" and "fly"`)

// shipped returns the line a log shipper's record holds, its time, and
// whether the record is journald's.
func (d *topReader) shipped(line []byte) (msg, stamp []byte, journald bool, err error) {
	d.rayServeRecord, d.rayRoute, d.pythonOwn, d.nimRecord = false, nil, false, false
	var vals [13][]byte
	found, strs, err := d.top(line, shipperKeys, vals[:])
	if err != nil {
		return nil, nil, false, err
	}
	switch {
	case strs&(1<<8) != 0 && found&(1<<9|1<<10) != 0:
		msg, stamp = vals[8], vals[11] // Logtail's record of a container's line
	case strs&1 != 0 && found&(1<<1|1<<2|1<<3) != 0, strs&1 != 0 && strs&(1<<4) != 0 && found&(1<<12) != 0:
		msg, stamp = vals[0], vals[1]
		if stamp == nil {
			stamp = vals[4]
		}
	case d.lone && strs == 1 && found == 1 && d.others == 0:
		// Fluentd's record of a line its in_tail read with the none
		// parser, {"message":"LINE"} (https://docs.fluentd.org/parser/none:
		// message_key, default "message"), its time out_file's, before
		// it. Only there: a program's own JSON log of a message alone
		// is no shipper's.
		msg = vals[0]
	case strs&(1<<5) != 0 && found&(1<<6) != 0:
		msg, stamp, journald = vals[5], vals[7], true
	case d.arrs[5] != nil && found&(1<<6) != 0:
		// journald writes a MESSAGE that is not valid UTF-8 or holds
		// control bytes (a terminal's colours) as the array of its
		// bytes (systemd's JSON export format).
		var ok bool
		if d.bytes, ok = appendByteArray(d.bytes[:0], d.arrs[5]); !ok {
			return nil, nil, false, errNotShipped
		}
		msg, stamp, journald = d.bytes, vals[7], true
	default:
		var ok bool
		if msg, stamp, ok = d.fluentBit(line); ok {
			break
		}
		if msg, stamp, d.rayRoute, ok = d.rayServe(line); ok {
			d.rayServeRecord = true
			break
		}
		if msg, stamp, d.pythonOwn, ok = d.pythonJSON(line); ok {
			break
		}
		if msg, stamp, d.nimRecord = d.nimJSON(line); !d.nimRecord {
			return nil, nil, false, errNotShipped
		}
	}
	return bytes.TrimRight(msg, "\r\n"), stamp, journald, nil
}

// fluentBitKeys are the members of Fluent Bit's record of a line its
// tail input read: the line in log, and the time its JSON outputs put
// beside it (json_date_key: date by default, epoch seconds).
var fluentBitKeys = []string{"log", "date"}

// fluentBit returns the line and time of Fluent Bit's record of a line,
// {"date":1764928800.123,"log":"LINE"} (its stdout, s3 and http outputs'
// json_lines) or {"log":"LINE"} (its file output's plain format): those
// members and no other. Docker's record, whose stream is beside its log,
// is dockerLine's.
func (d *topReader) fluentBit(line []byte) (msg, stamp []byte, ok bool) {
	var vals [2][]byte
	found, strs, err := d.top(line, fluentBitKeys, vals[:])
	if err != nil || strs&1 == 0 || d.others != 0 {
		return nil, nil, false
	}
	if found&2 != 0 {
		if stamp = vals[1]; stamp == nil {
			stamp = d.lits[1] // a number: epoch seconds
		}
	}
	return vals[0], stamp, true
}

// appendByteArray appends the bytes a JSON array of numbers from 0 to
// 255 ("[27,91,48,109]") stands for to b; false when it is not one.
func appendByteArray(b, arr []byte) ([]byte, bool) {
	arr = bytes.TrimSpace(arr)
	if len(arr) < 2 || arr[0] != '[' || arr[len(arr)-1] != ']' {
		return b, false
	}
	for _, f := range bytes.Split(arr[1:len(arr)-1], []byte{','}) {
		f = bytes.TrimSpace(f)
		if len(f) == 0 || len(f) > 3 {
			return b, false
		}
		v := 0
		for _, c := range f {
			if c < '0' || c > '9' {
				return b, false
			}
			v = 10*v + int(c-'0')
		}
		if v > 255 {
			return b, false
		}
		b = append(b, byte(v))
	}
	return b, true
}

// lokiKeys are the members of a line of logcli query --output=jsonl.
var lokiKeys = []string{"line", "timestamp", "labels"}

var errNotLoki = errors.New(`not a line of logcli's jsonl output: {"labels":{…},"line":"…","timestamp":"…"} and no other member`)

// loki returns the line and the time a line of logcli query
// --output=jsonl holds: an object of a "line" string, an RFC 3339
// "timestamp" string and, but for --no-labels, a "labels" object, and
// of nothing else (a gateway's own JSON log that has a "line" has its
// own members beside it).
func (d *topReader) loki(line []byte) (msg, stamp []byte, err error) {
	var vals [3][]byte
	found, strs, err := d.top(line, lokiKeys, vals[:])
	switch {
	case err != nil:
		return nil, nil, err
	case strs&3 != 3 || d.others != 0 || found&4 != 0 && d.objs[2] == nil:
		return nil, nil, errNotLoki
	}
	// The time, as Go's time.Time writes it: YYYY-MM-DDTHH:MM:SS….
	if stampEnd(vals[1]) != len(vals[1]) {
		return nil, nil, errNotLoki
	}
	return bytes.TrimRight(vals[0], "\r\n"), vals[1], nil
}

// grafanaKeys are the members of a row of Grafana's logs downloaded as
// JSON.
var grafanaKeys = []string{"line", "timestamp", "fields", "date"}

// grafanaRow returns the line and the time (epoch ns) a row of Grafana's
// "Download logs" as JSON holds: logRowsToReadableJson in grafana/grafana
// public/app/features/logs/utils.ts writes {line: the row's entry,
// timestamp: its timeEpochNs, a string of digits, date: its ISO time
// (since Grafana 11), fields: its labels and the data frame's fields},
// and nothing else. false for any other element (logcli's jsonl, whose
// timestamp is RFC 3339, is loki's).
func (d *topReader) grafanaRow(elem []byte) (line, stamp []byte, ok bool) {
	var vals [4][]byte
	found, strs, err := d.top(elem, grafanaKeys, vals[:])
	if err != nil || strs&3 != 3 || d.others != 0 || d.objs[2] == nil || found&8 != 0 && strs&8 == 0 {
		return nil, nil, false
	}
	if n := len(vals[1]); n == 0 || n > 20 || !allDigits(vals[1]) {
		return nil, nil, false
	}
	return bytes.TrimRight(vals[0], "\r\n"), vals[1], true
}

// splunkKeys are the members of a line of Splunk's search export in
// JSON, and splunkResultKeys those read of its result.
var (
	splunkKeys       = []string{"preview", "offset", "lastrow", "result"}
	splunkResultKeys = []string{"_raw", "_time"}
)

var errNotSplunk = errors.New(`not a line of Splunk's JSON search export: {"preview":…,"offset":…,"result":{"_raw":"…",…}} and no other member`)

// splunk returns the line and the time a line of Splunk's search export
// in JSON holds: an object of a boolean "preview", a numeric "offset",
// a boolean "lastrow" and a "result" object whose "_raw" is the line,
// and of nothing else (a gateway's own JSON log with a "result" has its
// own members beside it; Cloudflare's API answer {"result":[…]} has no
// preview). row is false for the export's last line,
// {"preview":false,"lastrow":true}, which holds no result: nothing to
// read, as a blank line. The time is "_time" when it is RFC 3339, as
// the REST API writes it (2024-04-30T10:00:00.000+00:00); the form
// some clients write ("2026-10-08 13:48:34.000 GMT") is not taken, and
// the line's own time is then the record's.
func (d *topReader) splunk(line []byte) (raw, stamp []byte, row bool, err error) {
	var vals [4][]byte
	found, strs, err := d.top(line, splunkKeys, vals[:])
	if err != nil {
		return nil, nil, false, err
	}
	boolean := func(b []byte) bool { return string(b) == "true" || string(b) == "false" }
	preview, offset, lastrow, result := d.lits[0], d.lits[1], d.lits[2], d.objs[3]
	switch {
	case d.others != 0 || strs != 0,
		found&1 != 0 && !boolean(preview),
		found&2 != 0 && (len(offset) == 0 || offset[0] < '0' || offset[0] > '9'),
		found&4 != 0 && !boolean(lastrow),
		found&8 != 0 && result == nil:
		return nil, nil, false, errNotSplunk
	case found&8 == 0:
		// The last line: lastrow, and no result.
		if string(lastrow) != "true" {
			return nil, nil, false, errNotSplunk
		}
		return nil, nil, false, nil
	case found&1 == 0:
		return nil, nil, false, errNotSplunk
	}
	var rv [2][]byte
	_, strs, err = d.top(result, splunkResultKeys, rv[:])
	if err != nil || strs&1 == 0 {
		return nil, nil, false, errNotSplunk
	}
	if strs&2 != 0 && len(rv[1]) > 0 && stampEnd(rv[1]) == len(rv[1]) {
		stamp = rv[1]
	}
	return bytes.TrimRight(rv[0], "\r\n"), stamp, true, nil
}

// splunkRowKeys are the fields of a Splunk search's result as its REST
// API returns a job's results (splunkResult): the event's line, its time,
// and those of which one marks it.
var splunkRowKeys = []string{"_raw", "_time", "_bkt", "_cd", "_serial", "_indextime", "_si", "splunk_server"}

// splunkResult returns the line and the time an element of a Splunk
// search's results holds, as the REST API's
// services/search/jobs/{sid}/results?output_mode=json (and a oneshot
// search's) answers {"preview":false,"init_offset":0,"messages":[…],
// "fields":[…],"results":[{"_raw":"LINE","_time":"…",…},…]} (Splunk's
// REST API reference, search/jobs/{search_id}/results): a _raw string
// beside _time or one of Splunk's other internal fields, its time _time
// when it is RFC 3339, as the export's (splunk). false for any other
// element, and for one a field beside _raw of which s (when not nil),
// or a source, reads as the request time (a search that extracted
// fields: its results are read by them).
func (d *topReader) splunkResult(elem []byte, s *Schema) (raw, stamp []byte, ok bool) {
	var vals [8][]byte
	found, strs, err := d.top(elem, splunkRowKeys, vals[:])
	if err != nil || strs&1 == 0 || found&^1 == 0 {
		return nil, nil, false
	}
	if s != nil && givesRequestTime(elem, s) {
		return nil, nil, false
	}
	if strs&2 != 0 && len(vals[1]) > 0 && stampEnd(vals[1]) == len(vals[1]) {
		stamp = vals[1]
	}
	return bytes.TrimRight(vals[0], "\r\n"), stamp, true
}

// clsKeys are the members of a CLS record read (EnvCLS): a search
// result's LogJson and Time, and of which one marks it, TopicId and
// PkgLogId; a full-text log's __CONTENT__ and __TIMESTAMP__, and of which
// one marks it, __SOURCE__ and __FILENAME__.
var clsKeys = []string{"LogJson", "Time", "TopicId", "PkgLogId", "__CONTENT__", "__TIMESTAMP__", "__SOURCE__", "__FILENAME__"}

var errNotCLS = errors.New(`not a CLS record: no "LogJson" object beside TopicId or PkgLogId, nor "__CONTENT__" beside __SOURCE__ or __FILENAME__`)

// clsRecord returns the record a CLS record holds (EnvCLS), decoded into
// d's scratch buffer, and its time: a search result's LogJson, a JSON
// object (its time Time, epoch ms), or a full-text log's line in
// __CONTENT__ (its time __TIMESTAMP__).
func (d *topReader) clsRecord(line []byte) (rec, stamp []byte, err error) {
	var vals [8][]byte
	found, strs, err := d.top(line, clsKeys, vals[:])
	if err != nil {
		return nil, nil, err
	}
	switch {
	case strs&1 != 0 && found&(1<<2|1<<3) != 0:
		rec = bytes.TrimSpace(vals[0])
		if len(rec) < 2 || rec[0] != '{' {
			return nil, nil, errNotCLS
		}
		stamp := d.lits[1]
		// A full-text topic's result: its LogJson is
		// {"__CONTENT__":"LINE"}, the line the record (its source and
		// file are the result's own Source and FileName).
		var content [1][]byte
		if _, strs, err := d.top(rec, clsKeys[4:5], content[:]); err == nil && strs&1 != 0 {
			return bytes.TrimRight(content[0], "\r\n"), stamp, nil
		}
		return rec, stamp, nil
	case strs&(1<<4) != 0 && found&(1<<6|1<<7) != 0:
		stamp := vals[5]
		if strs&(1<<5) == 0 {
			stamp = d.lits[5]
		}
		return bytes.TrimRight(vals[4], "\r\n"), stamp, nil
	}
	return nil, nil, errNotCLS
}

// clsResult reports whether elem is a CLS search result: a LogJson
// string beside TopicId or PkgLogId.
func clsResult(elem []byte) bool {
	var vals [4][]byte
	found, strs, err := new(topReader).top(elem, clsKeys[:4], vals[:])
	return err == nil && strs&1 != 0 && found&(1<<2|1<<3) != 0
}

// withTime appends rec, a JSON object, to b with stamp (epoch ms, CLS's
// Time) put before its members as __TIMESTAMP__: the record's time when
// it has none of its own, which is read after it. rec as it is when
// stamp is no number.
func withTime(b, rec, stamp []byte) []byte {
	if len(stamp) == 0 || len(stamp) > 20 || bytes.IndexFunc(stamp, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return append(b, rec...)
	}
	b = append(append(b, `{"__TIMESTAMP__":`...), stamp...)
	rest := bytes.TrimLeft(rec[1:], " \t\r\n")
	if len(rest) > 0 && rest[0] != '}' {
		b = append(b, ',')
	}
	return append(b, rest...)
}

// cloudLoggingKeys are the members of Cloud Logging's LogEntry read
// (EnvCloudLogging): its payloads, its time, those of which one marks it,
// and the payloads that make it no line's entry: httpRequest (the gcp
// source's request, read as the record it is) and protoPayload (an audit
// log's).
var cloudLoggingKeys = []string{"textPayload", "jsonPayload", "timestamp", "insertId", "logName", "resource", "receiveTimestamp", "httpRequest", "protoPayload"}

var errNotCloudLogging = errors.New(`not a Cloud Logging entry of a line: no "textPayload" string or "jsonPayload" object beside insertId, logName, resource or receiveTimestamp, or an httpRequest`)

// cloudLogging returns what a Cloud Logging LogEntry of a line holds
// (https://cloud.google.com/logging/docs/reference/v2/rest/v2/LogEntry):
// the line in its textPayload, decoded into d's scratch buffer, without
// its line end (GKE keeps it); or, for a JSON line the logging agent
// parsed (https://cloud.google.com/logging/docs/structured-logging),
// the record in its jsonPayload, as its text; and its time, timestamp
// (RFC 3339), which the agent took from the record's "time" when it had
// one. An entry with an httpRequest is the gcp source's record, not a
// line's: refused, as is an audit log's protoPayload.
func (d *topReader) cloudLogging(line []byte) (payload, stamp []byte, err error) {
	var vals [9][]byte
	found, strs, err := d.top(line, cloudLoggingKeys, vals[:])
	switch {
	case err != nil:
		return nil, nil, err
	case found&(1<<3|1<<4|1<<5|1<<6) == 0, found&(1<<7|1<<8) != 0:
		return nil, nil, errNotCloudLogging
	case strs&1 != 0:
		payload = bytes.TrimRight(vals[0], "\r\n")
	case d.objs[1] != nil:
		payload = d.objs[1]
	default:
		return nil, nil, errNotCloudLogging
	}
	if strs&4 != 0 && len(vals[2]) > 0 && stampEnd(vals[2]) == len(vals[2]) {
		stamp = vals[2]
	}
	return payload, stamp, nil
}

// datadogKeys are the members of a Datadog log read (EnvDatadog): v2's
// attributes and v1's content, which hold the log, and its id.
var datadogKeys = []string{"attributes", "content", "id"}

// datadogLogKeys are the members of a Datadog log's attributes (v2) or
// content (v1) read: its line, its time, those that mark it (of which
// the datadog source's signature asks three), and its own attributes.
var datadogLogKeys = []string{"message", "timestamp", "host", "service", "status", "tags", "attributes"}

// datadogParsedKeys are the members of a log's own attributes that make
// it a request of the datadog source's, read by its fields (Datadog's
// standard attributes duration and http.status_code: a pipeline parsed
// the line).
var datadogParsedKeys = []string{"duration", "http"}

var errNotDatadog = errors.New(`not a Datadog log of an unparsed line: no "message" string in "attributes" or "content" beside an id and three of timestamp, host, service, status, tags, or a duration or http attribute`)

// datadogLog returns the line and time of a Datadog log as its Logs
// API returns it (https://docs.datadoghq.com/api/latest/logs/): v2's
// {"id","type":"log","attributes":{"timestamp","host","service",
// "status","message","tags","attributes":{…}}}, v1's {"id","content":
// {…}} alike, the line in message, its time timestamp (RFC 3339). A log
// whose own attributes hold a duration or an http object is a request
// a pipeline parsed, the datadog source's record: refused.
func (d *topReader) datadogLog(line []byte) (msg, stamp []byte, err error) {
	var outer [3][]byte
	found, _, err := d.top(line, datadogKeys, outer[:])
	if err != nil {
		return nil, nil, err
	}
	log := d.objs[0]
	if log == nil {
		log = d.objs[1]
	}
	if found&4 == 0 || log == nil {
		return nil, nil, errNotDatadog
	}
	var vals [7][]byte
	found, strs, err := d.top(log, datadogLogKeys, vals[:])
	if err != nil {
		return nil, nil, err
	}
	own := d.objs[6]
	if strs&1 == 0 || bits.OnesCount64(found&(1<<1|1<<2|1<<3|1<<4|1<<5)) < 3 {
		return nil, nil, errNotDatadog
	}
	msg = bytes.TrimRight(vals[0], "\r\n")
	if strs&2 != 0 && len(vals[1]) > 0 && stampEnd(vals[1]) == len(vals[1]) {
		stamp = vals[1]
	}
	if own != nil {
		var parsed [2][]byte
		if found, _, err := d.top(own, datadogParsedKeys, parsed[:]); err != nil || found != 0 {
			return nil, nil, errNotDatadog
		}
	}
	return msg, stamp, nil
}

// appendCompact appends obj, a JSON value, to b without the white space
// between its tokens: a pretty-printed document's jsonPayload as one
// line, which the lines' format is told from.
func appendCompact(b, obj []byte) []byte {
	quoted := false
	for i := 0; i < len(obj); i++ {
		c := obj[i]
		switch {
		case quoted && c == '\\' && i+1 < len(obj):
			b = append(b, c, obj[i+1])
			i++
			continue
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			continue
		}
		b = append(b, c)
	}
	return b
}

// cloudWatchKeys are the keys of a CloudWatch Logs event (aws logs
// filter-log-events, get-log-events): its message, those of which one
// marks it, and its time (epoch ms).
var cloudWatchKeys = []string{"message", "eventId", "ingestionTime", "logStreamName", "timestamp"}

// cloudWatchMessage returns the line an element of a CloudWatch Logs
// event list holds in its "message", decoded into d's scratch buffer,
// without its line end, and the event's time (epoch ms; nil when it has
// none); false for any other element.
func cloudWatchMessage(elem []byte, d *topReader) (msg, stamp []byte, ok bool) {
	var vals [5][]byte
	found, strs, err := d.top(elem, cloudWatchKeys, vals[:])
	if err != nil || strs&1 == 0 || found&0b1110 == 0 {
		return nil, nil, false
	}
	return bytes.TrimRight(vals[0], "\r\n"), d.lits[4], true
}

// insightsKeys are the fields of a CloudWatch Logs Insights result
// (insightsObject's object of a row of aws logs get-query-results, or
// the console's export of a query's table): the event's line, and
// those of which one marks it, the first its time.
var insightsKeys = []string{"@message", "@timestamp", "@ptr", "@logStream", "@log", "@ingestionTime"}

// insightsMessage returns the line an Insights result holds in its
// @message, decoded into d's scratch buffer, without its line end, and
// its @timestamp as epoch ms, nil when it has none (epochMs); false for
// any other element.
func (d *topReader) insightsMessage(elem []byte) (msg, stamp []byte, ok bool) {
	var vals [6][]byte
	found, strs, err := d.top(elem, insightsKeys, vals[:])
	if err != nil || strs&1 == 0 || found&^1 == 0 {
		return nil, nil, false
	}
	if strs&2 != 0 {
		stamp = d.epochMs(vals[1])
	}
	return bytes.TrimRight(vals[0], "\r\n"), stamp, true
}

// epochMs returns the epoch milliseconds of stamp, a time in UTC when it
// has no zone (Insights' "2026-11-29 02:00:00.000", insightsObject's and
// Loki's RFC 3339), written in d's buffer; nil when it is no time.
func (d *topReader) epochMs(stamp []byte) []byte {
	ns, ok := parseTime(stamp, 0, time.UTC)
	if !ok || ns < 0 {
		return nil
	}
	d.ms = strconv.AppendInt(d.ms[:0], ns/1e6, 10)
	return d.ms
}

// insightsRows reports whether the Insights results whose first is
// first (an object of its fields) hold the lines in @message
// (insightsMessage): unless a field beside it is one s, or a source,
// reads as the request time (a query's fields extracted from the line,
// which the records are then read by), as a CSV export's (rawCSVHeader).
func insightsRows(first []byte, s *Schema) bool {
	if _, _, ok := new(topReader).insightsMessage(first); !ok {
		return false
	}
	return !givesRequestTime(first, s)
}

// sumoKeys are the fields of a Sumo Logic message's map: its line, its
// time (epoch ms, a string), and those of which one marks it.
var sumoKeys = []string{"_raw", "_messagetime", "_receipttime", "_sourcecategory", "_collector", "_messageid"}

// sumoMessage returns the map of an element of Sumo Logic's search
// messages ({"map":{…}} and nothing else), the line in its _raw, decoded
// into d's scratch buffer, without its line end, and its _messagetime
// (epoch ms); ok false for any other element, raw false for a map of no
// _raw or one whose fields give a request time (a query that parsed the
// lines: its fields are the record).
func (d *topReader) sumoMessage(elem []byte, s *Schema) (m, msg, stamp []byte, raw, ok bool) {
	var outer [1][]byte
	if found, _, err := d.top(elem, []string{"map"}, outer[:]); err != nil || found != 1 || d.others != 0 || d.objs[0] == nil {
		return nil, nil, nil, false, false
	}
	m = d.objs[0]
	var vals [6][]byte
	found, strs, err := d.top(m, sumoKeys, vals[:])
	if err != nil || found&^1 == 0 {
		return nil, nil, nil, false, false
	}
	if strs&2 != 0 && len(vals[1]) > 0 && bytes.IndexFunc(vals[1], func(r rune) bool { return r < '0' || r > '9' }) < 0 {
		stamp = vals[1]
	}
	if strs&1 == 0 {
		return m, nil, stamp, false, true
	}
	if s != nil && givesRequestTime(m, s) {
		return m, nil, stamp, false, true
	}
	return m, bytes.TrimRight(vals[0], "\r\n"), stamp, true, true
}

// givesRequestTime reports whether a top-level key of the object obj
// names a field s, or a source, reads as the request time.
func givesRequestTime(obj []byte, s *Schema) bool {
	for _, k := range topKeys(obj, 1<<10) {
		if readsRequestTime(k, s) {
			return true
		}
	}
	return false
}

// readsRequestTime reports whether s, or a source, reads a field of
// this name as the request time.
func readsRequestTime(name string, s *Schema) bool {
	if sourceRequestTime(name) {
		return true
	}
	for _, b := range s.LookupString(name) {
		if b.Field == FRequestTime {
			return true
		}
	}
	return false
}

// wrappedLine is what an envelope's line holds: the line within, its
// time (nil when the envelope gives none), whether it is a part of a
// line that the next lines continue, and whether the program wrote it
// on stderr.
type wrappedLine struct {
	inner, stamp    []byte
	partial, stderr bool
	rayServe        bool // a record of Ray Serve's JSON log (rayjson.go)
	nim             bool // a record of NIM's JSON Lines log (nimjson.go)
	// pythonOwn: a record of python-json-logger's of a logger that is no
	// access logger (pyjson.go).
	pythonOwn bool
	// route is the request's route that record gives beside its
	// message, read as the uri when the message gives none.
	route []byte
}

// unwrap reads line, a line of envelope e. Text the line within is
// decoded into (Docker's escapes) is in d's scratch buffer.
func unwrap(e Envelope, line []byte, d *topReader) (w wrappedLine, err error) {
	switch e {
	case EnvCRI:
		stamp, partial, ok := criFields(line)
		if !ok {
			return w, errors.New("not a CRI container log line (TIME stdout|stderr F|P LINE)")
		}
		stderr := line[len(stamp)+1+len("std")] == 'e'
		return wrappedLine{inner: criLine(line), stamp: stamp, partial: partial, stderr: stderr}, nil
	case EnvDocker:
		c, err := d.fields(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: c.log, stamp: c.stamp, partial: c.partial, stderr: string(c.stream) == "stderr"}, nil
	case EnvStamped:
		if d.stamp == stampPrinted || d.stamp == stampLTSV {
			read := d.stdoutRecord
			if d.stamp == stampLTSV {
				read = d.ltsvRecord
			}
			rec, stamp, err := read(line)
			if err != nil {
				return w, err
			}
			return wrappedLine{inner: rec, stamp: stamp}, nil
		}
		if d.stamp != stampJSON {
			in, stamp, ok := stampedText(line, d.stamp)
			if !ok {
				return w, errors.New("not a line behind its time")
			}
			return wrappedLine{inner: in, stamp: stamp}, nil
		}
		in, stamp, ok := stampedLine(line)
		if !ok && zapConsoleOwn(line) {
			return w, errOwnLine // a message of zap's console encoder without fields
		}
		if !ok {
			return w, errors.New("not a JSON line behind its time")
		}
		return wrappedLine{inner: in, stamp: stamp}, nil
	case EnvShipper, EnvJournald:
		msg, stamp, _, err := d.shipped(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: msg, stamp: stamp, rayServe: d.rayServeRecord, route: d.rayRoute, pythonOwn: d.pythonOwn, nim: d.nimRecord}, nil
	case EnvVector:
		ev, err := d.vectorEvent(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: ev}, nil
	case EnvLoki:
		msg, stamp, err := d.loki(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: msg, stamp: stamp}, nil
	case EnvSplunk:
		// The last line, without a result, is an empty line within.
		raw, stamp, _, err := d.splunk(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: raw, stamp: stamp}, nil
	case EnvCLS:
		rec, stamp, err := d.clsRecord(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: rec, stamp: stamp}, nil
	case EnvCloudLogging:
		payload, stamp, err := d.cloudLogging(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: payload, stamp: stamp}, nil
	case EnvDatadog:
		msg, stamp, err := d.datadogLog(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: msg, stamp: stamp}, nil
	case EnvLoguru:
		extra, stamp, err := d.loguru(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: extra, stamp: stamp}, nil
	case EnvSyslog:
		in, stamp, ok := syslogLine(line)
		if !ok {
			return w, errors.New("not a JSON line behind a syslog header")
		}
		return wrappedLine{inner: in, stamp: stamp}, nil
	case EnvAPIMMetrics:
		return apimMetricsLine(line)
	case EnvRawCSV:
		return d.rawRow(line)
	case EnvCloudWatchText:
		return cloudWatchText(line)
	case EnvPapertrail:
		return papertrail(line)
	case EnvMezmo:
		msg, stamp, err := d.mezmoLine(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: msg, stamp: stamp}, nil
	case EnvBetterStack:
		msg, stamp, err := d.betterStack(line)
		if err != nil {
			return w, err
		}
		return wrappedLine{inner: msg, stamp: stamp}, nil
	}
	return wrappedLine{inner: line}, nil
}

// rawRow returns the line and time of a row of an EnvRawCSV file.
func (d *topReader) rawRow(line []byte) (wrappedLine, error) {
	line = bytes.TrimRight(line, "\r")
	if bytes.Equal(line, d.raw.header) {
		return wrappedLine{}, errEmpty // the header: no record, no bad line, as a blank line
	}
	d.csv.sep, d.csv.scratch = ',', d.p.scratch[:0]
	cells, err := d.csv.split(line)
	d.p.scratch = d.csv.scratch
	if err != nil {
		return wrappedLine{}, err
	}
	if len(cells) != d.raw.n {
		return wrappedLine{}, fmt.Errorf("want %d fields, got %d", d.raw.n, len(cells))
	}
	w := wrappedLine{inner: cells[d.raw.raw]}
	if in, ok := bytes.CutSuffix(w.inner, []byte("\n")); ok {
		// The line's end kept in its cell (Fluent Bit's log keeps
		// Docker's): the row went on to the next line of the file.
		w.inner = bytes.TrimSuffix(in, []byte("\r"))
	}
	if d.raw.time >= 0 {
		w.stamp = cells[d.raw.time]
	}
	return w, nil
}

// unwrapHead returns the lines within the whole lines of head, a file's
// first bytes, one a line, the parts of a cut line joined: what the
// format and source of the lines within are told from. Those the program
// wrote on stdout come first: a server's own messages on stderr (klog's
// at an ingress controller's start, Envoy's) fill a container log's
// first lines before the requests come.
func unwrapHead(e Envelope, head []byte) []byte { return unwrapHeadBy(e, head, topReader{}) }

// unwrapHeadOf is unwrapHead of an EnvRawCSV file of layout raw.
func unwrapHeadOf(e Envelope, head []byte, raw rawColumns) []byte {
	return unwrapHeadBy(e, head, topReader{raw: raw})
}

// unwrapHeadBy is unwrapHead with d, set for the file's layout (an
// EnvRawCSV file's columns, how an EnvStamped file's text lines are cut).
func unwrapHeadBy(e Envelope, head []byte, d topReader) []byte {
	var out, errs []byte
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			break // a line the peek cut
		}
		l := bytes.TrimRight(head[:i], "\r")
		rest := head[i+1:]
		if blank(l) {
			head = rest
			continue
		}
		d.p.scratch = d.p.scratch[:0]
		w, err := unwrap(e, l, &d)
		// A CSV export's row whose quoted line holds a line break goes on
		// in the next lines, as the pipeline reads it (joinQuoted), and so
		// does a record of Fluent Bit's stdout output.
		for n := 0; (e == EnvRawCSV || e == EnvStamped) && err != nil && openQuote(err) && n < maxQuotedLines; n++ {
			j := bytes.IndexByte(rest, '\n')
			if j < 0 {
				break
			}
			l = bytes.TrimRight(head[:len(head)-len(rest)+j], "\r")
			rest = rest[j+1:]
			d.p.scratch = d.p.scratch[:0]
			w, err = unwrap(e, l, &d)
		}
		head = rest
		if err != nil {
			continue
		}
		to := &out
		if w.stderr || w.nim && !uvicornAccess().Match(w.inner) {
			// After the lines the format is told from: a program's
			// messages on stderr, NIM's and vLLM's own records.
			to = &errs
		}
		*to = append(*to, w.inner...)
		if !w.partial {
			*to = append(*to, '\n')
		}
	}
	return append(out, errs...)
}

// errEmpty is the outcome of an envelope's line around a blank line:
// no record, and no bad line, as a blank line.
var errEmpty = errors.New("a blank line")

// errPartial is the outcome of a line that is a part of the next ones':
// no record yet, and no bad line.
var errPartial = errors.New("a part of a line")

// envParser reads the lines within an envelope's lines with the parser
// of their format: a part of a cut line is kept until the line's last
// part, and a record without a time of its own takes the envelope's.
type envParser struct {
	holding // the joined lines, and Docker's unescaped text
	env     Envelope
	inner   lineParser
	loc     *time.Location
	d       topReader
	part    []byte // the parts of a cut line so far
	parts   bool   // part holds a line's first parts
}

func newEnvParser(e Envelope, inner lineParser, loc *time.Location) *envParser {
	return &envParser{env: e, inner: inner, loc: loc}
}

var stampBinding = Bindings{{Field: FTime, Prio: prioDerived}}

func (p *envParser) Parse(line []byte, r *Record) error {
	p.newLine()
	p.d.p.scratch = p.d.p.scratch[:0]
	w, err := unwrap(p.env, line, &p.d)
	in, stamp, partial := w.inner, w.stamp, w.partial
	if err != nil {
		p.part, p.parts = p.part[:0], false
		return err
	}
	if !partial && !p.parts && blank(in) {
		return errEmpty
	}
	joined := false
	if partial || p.parts {
		if len(p.part)+len(in) > MaxLine {
			p.part, p.parts = p.part[:0], false
			return errors.New(errLongLine)
		}
		p.part = append(p.part, in...)
		if partial {
			p.parts = true
			return errPartial
		}
		in, p.parts, joined = p.part, false, true
		p.part = p.part[:0]
	}
	// The records point into the line within: copied into the held
	// buffer when it is not the line's own bytes (joined parts, a JSON
	// string's decoded text).
	if joined || p.env == EnvStamped && (p.d.stamp == stampPrinted || p.d.stamp == stampLTSV) || p.env == EnvDocker || p.env == EnvShipper || p.env == EnvJournald || p.env == EnvLoki || p.env == EnvSplunk || p.env == EnvCLS || p.env == EnvCloudLogging || p.env == EnvDatadog || p.env == EnvMezmo || p.env == EnvBetterStack || p.env == EnvRawCSV {
		from := len(p.scratch)
		p.scratch = append(p.scratch, in...)
		in = p.scratch[from:len(p.scratch):len(p.scratch)]
	}
	err = p.inner.Parse(in, r)
	if err == nil && r.Fields() == 0 {
		err = errNoFieldErr
	}
	if err != nil {
		if errors.Is(err, errPassOver) {
			return err
		}
		if w.stderr && ownLogLine(in) {
			return errOwnLine // the program's own message, of a known shape
		}
		if w.rayServe && !rayServeAccessMessage().Match(in) {
			return errOwnLine // Serve's own message, no access line's
		}
		if w.pythonOwn {
			return errOwnLine // a Python logger's own message, no access line
		}
		if w.nim && !uvicornAccess().Match(in) {
			return errOwnLine // NIM's or vLLM's own message, no access line
		}
		if p.env == EnvLoguru && errors.Is(err, errNoFieldErr) {
			return errOwnLine // bound values of no request (a request id)
		}
		if w.stderr {
			return &stderrError{err}
		}
		if p.env == EnvRawCSV {
			return &withinError{err}
		}
		return err
	}
	if !r.Has(FTime) && stamp != nil {
		// A bad time here is no reason to refuse the record.
		loc := p.loc
		if p.d.raw.utc {
			loc = time.UTC
		}
		_ = r.Set(stampBinding, stamp, loc)
	}
	if w.route != nil && !r.Has(FURI) {
		// Ray Serve 2.9's access message has no route: its record's
		// route member is the request's (rayjson.go). Held, as the
		// line within is: it may be the decoded text of a JSON string.
		from := len(p.scratch)
		p.scratch = append(p.scratch, w.route...)
		_ = r.Set(routeBinding, p.scratch[from:len(p.scratch):len(p.scratch)], p.loc)
	}
	return nil
}

// routeBinding reads a record's route beside its message as the uri.
var routeBinding = Bindings{{Field: FURI, Prio: prioDerived}}

// pending reports whether the parts of a cut line wait for its end,
// in this envelope or in the one its lines hold (a Docker record in a
// Loki line).
func (p *envParser) pending() bool {
	in, ok := p.inner.(*envParser)
	return p.parts || ok && in.pending()
}

// drop forgets the parts of a cut line whose end did not come.
func (p *envParser) drop() {
	p.part, p.parts = p.part[:0], false
	if in, ok := p.inner.(*envParser); ok {
		in.drop()
	}
}

// hold, heldBytes and release hold the inner parser's buffer with the
// envelope's own.
func (p *envParser) hold() {
	p.holding.hold()
	if sp, ok := p.inner.(scratchParser); ok {
		sp.hold()
	}
}

func (p *envParser) heldBytes() int {
	n := p.holding.heldBytes()
	if sp, ok := p.inner.(scratchParser); ok {
		n += sp.heldBytes()
	}
	return n
}

func (p *envParser) release() {
	p.holding.release()
	if sp, ok := p.inner.(scratchParser); ok {
		sp.release()
	}
}

// describe names an envelope in a sentence.
func (e Envelope) describe() string {
	switch e {
	case EnvCRI:
		return "CRI container log"
	case EnvDocker:
		return "Docker json-file log"
	case EnvStamped:
		return "timestamped log"
	case EnvCloudWatch:
		return "CloudWatch Logs event list"
	case EnvInsights:
		return "CloudWatch Logs Insights result"
	case EnvCloudWatchText:
		return "AWS CLI text output of CloudWatch Logs events"
	case EnvOTelLogs:
		return "OTLP log record"
	case EnvSumo:
		return "Sumo Logic message"
	case EnvAzureContainer:
		return "row of Azure Monitor's container logs (ContainerLogV2's LogMessage, ContainerLog's LogEntry, Container Apps' Log)"
	case EnvSyslog:
		return "syslog file"
	case EnvAPIMMetrics:
		return "WSO2 API Manager analytics log (apim_metrics.log)"
	case EnvShipper:
		return "log shipper's record"
	case EnvVector:
		return "Vector native_json event"
	case EnvJournald:
		return "journald export"
	case EnvLoki:
		return "Loki export (logcli jsonl)"
	case EnvGrafana:
		return "Grafana logs download (JSON)"
	case EnvSplunk:
		return "Splunk search export (JSON)"
	case EnvCLS:
		return "CLS record (LogJson or __CONTENT__)"
	case EnvCloudLogging:
		return "Cloud Logging entry (textPayload or jsonPayload)"
	case EnvDatadog:
		return "Datadog log (its message)"
	case EnvPapertrail:
		return "Papertrail log archive or search API event"
	case EnvMezmo:
		return "Mezmo (LogDNA) export line"
	case EnvBetterStack:
		return "Better Stack log (its raw or message)"
	case EnvLoguru:
		return "loguru serialized record (its extra)"
	case EnvRawCSV:
		return "CSV export of log lines (Splunk's _raw, CloudWatch Logs Insights' @message)"
	}
	return "log"
}

// holdParts returns where a block's lines are cut for a unit of work:
// at end, the end of its last whole line, or before the parts of a line
// that the container runtime cut there, which are held back for the next
// block and its last part, so that a worker reads the line whole. Parts
// of more than MaxLine are not held back: they are read apart, and are
// bad lines (errCutLine).
func holdParts(e Envelope, data []byte, end int) int {
	if e != EnvCRI && e != EnvDocker {
		return end
	}
	var d topReader
	cut := end
	for cut > 0 {
		start := bytes.LastIndexByte(data[:cut-1], '\n') + 1
		l := bytes.TrimRight(data[start:cut-1], "\r")
		d.p.scratch = d.p.scratch[:0]
		if w, err := unwrap(e, l, &d); err != nil || !w.partial {
			return cut
		}
		if cut = start; end-cut > MaxLine {
			return end
		}
	}
	return cut
}

var errNoFieldErr = errors.New(errNoField)

// withinError is the reason the log line within a CSV export's row is
// bad, the row itself being whole: a row quoted across lines of the
// file is then one bad line (joinQuoted), not one of each.
type withinError struct{ err error }

func (e *withinError) Error() string { return e.err.Error() }

func (e *withinError) Unwrap() error { return e.err }

// stderrError is the reason for a line the program wrote on stderr that
// is not a request: most are its own messages.
type stderrError struct{ err error }

func (e *stderrError) Error() string {
	return "a line on stderr, not a request (the program's own message?): " + e.err.Error()
}

func (e *stderrError) Unwrap() error { return e.err }

// syslogLine returns the JSON or LTSV line behind a syslog header, and the
// header's time when it has a whole one (RFC 5424's; RFC 3164's has no
// year).
func syslogLine(line []byte) (msg, stamp []byte, ok bool) {
	msg, stamp, ok = syslogHeader(line)
	if !ok || !syslogMessage(msg) {
		return nil, nil, false
	}
	return msg, stamp, true
}

// syslogHeader returns the message behind an RFC 3164 or RFC 5424 syslog
// header, whatever it holds, and the header's time when it has a whole
// one (RFC 5424's, and an RFC 3339 time in place of RFC 3164's). It does
// not allocate.
func syslogHeader(line []byte) (msg, stamp []byte, ok bool) {
	rest := line
	if len(rest) > 0 && rest[0] == '<' {
		i := bytes.IndexByte(rest, '>')
		if i < 2 || i > 4 || !allDigits(rest[1:i]) {
			return nil, nil, false
		}
		rest = rest[i+1:]
	}
	if len(rest) > 2 && rest[0] >= '1' && rest[0] <= '9' && rest[1] == ' ' {
		// RFC 5424: VERSION TIME HOST APP PROCID MSGID SD MSG.
		sd := rest[2:]
		for k := range 5 {
			j := bytes.IndexByte(sd, ' ')
			if j < 0 {
				return nil, nil, false
			}
			if k == 0 {
				stamp = sd[:j]
			}
			sd = sd[j+1:]
		}
		if stampLen(rest[2:]) != len(stamp) {
			return nil, nil, false
		}
		switch {
		case len(sd) > 0 && sd[0] == '-':
			sd = sd[1:]
		case len(sd) > 0 && sd[0] == '[':
			end := sdEnd(sd)
			if end < 0 {
				return nil, nil, false
			}
			sd = sd[end:]
		default:
			return nil, nil, false
		}
		return bytes.TrimPrefix(bytes.TrimLeft(sd, " "), utf8BOM), stamp, true
	}
	if k := stampLen(rest); k > 0 {
		// RFC 3164's header with an RFC 3339 time in place of its own:
		// TIME HOST TAG: MSG. rsyslog's RSYSLOG_FileFormat, omfile's
		// default template ("%TIMESTAMP:::date-rfc3339% %HOSTNAME%
		// %syslogtag%%msg:::sp-if-no-1st-sp%…", rsyslog/rsyslog
		// tools/smfile.c); syslog-ng's file destination with
		// ts-format(iso); journalctl -o short-iso, whose zone is +0800
		// before systemd 255 and +08:00 since, and -o short-iso-precise
		// (https://www.freedesktop.org/software/systemd/man/latest/journalctl.html).
		msg, ok = hostTag(rest[k+1:])
		return msg, rest[:k], ok
	}
	// RFC 3164: Mmm dd hh:mm:ss HOST TAG: MSG.
	if len(rest) < 16 || !isMonth(rest[:3]) || rest[3] != ' ' {
		return nil, nil, false
	}
	rest = bytes.TrimLeft(rest[4:], " ")
	if len(rest) < 10 || !isDigit(rest[0]) || !(rest[1] == ' ' || isDigit(rest[1]) && rest[2] == ' ') {
		return nil, nil, false
	}
	rest = bytes.TrimLeft(rest[bytes.IndexByte(rest, ' '):], " ")
	if len(rest) < 9 || rest[2] != ':' || rest[5] != ':' || !isDigit(rest[0]) || !isDigit(rest[7]) {
		return nil, nil, false
	}
	// The seconds' fraction of journalctl -o short-precise
	// ("Dec 04 10:00:01.125000"), which RFC 3164 does not have.
	end := 8
	if end < len(rest) && rest[end] == '.' {
		for end++; end < len(rest) && isDigit(rest[end]); end++ {
		}
	}
	if end >= len(rest) || rest[end] != ' ' {
		return nil, nil, false
	}
	msg, ok = hostTag(rest[end+1:])
	return msg, nil, ok
}

// hostTag returns the message after the "HOST TAG: " of an RFC 3164
// header; ok false when b does not begin with them.
func hostTag(b []byte) (msg []byte, ok bool) {
	host := bytes.IndexByte(b, ' ')
	if host <= 0 {
		return nil, false
	}
	b = b[host+1:]
	tag := bytes.Index(b, []byte(": "))
	if tag <= 0 || bytes.IndexByte(b[:tag], ' ') >= 0 {
		return nil, false
	}
	return bytes.TrimLeft(b[tag+2:], " "), true
}

// syslogMessage reports whether a syslog message is a line the syslog
// envelope is read for: JSON or LTSV (the text formats' readers pass
// over a syslog header themselves).
func syslogMessage(msg []byte) bool {
	return len(msg) > 0 && (msg[0] == '{' || looksLTSV(msg))
}

// sdEnd returns the length of the RFC 5424 structured data that begins
// sd ("[id k=\"v\"][…]"), -1 when it is not closed.
func sdEnd(sd []byte) int {
	i := 0
	for i < len(sd) && sd[i] == '[' {
		quoted := false
		for i++; i < len(sd); i++ {
			switch c := sd[i]; {
			case c == '\\' && quoted:
				i++
			case c == '"':
				quoted = !quoted
			case c == ']' && !quoted:
				goto next
			}
		}
		return -1
	next:
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isMonth reports whether b is an English month's abbreviation.
func isMonth(b []byte) bool {
	switch string(b) {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}
