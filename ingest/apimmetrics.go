package ingest

import (
	"bytes"
	"errors"
)

// WSO2 API Manager's analytics log for ELK and OpenSearch
// (repository/logs/apim_metrics.log, the APIM_METRICS_APPENDER of the
// log4j2.properties API-M ships since 4.3.0): the analytics publisher's
// ELK reporter logs each event as
//
//	"apimMetrics: " + NAME + ", properties :" + the event's JSON
//
// with the line breaks of both taken out (wso2/apim-analytics-publisher
// component/publisher-client/.../reporter/elk/ELKCounterMetric.java,
// incrementCount), NAME apim:response for a request answered (the
// backend's error responses too) and apim:faulty for one that failed or
// was throttled, behind the appender's layout, "%d{HH:mm:ss,SSS}
// [%X{ip}-%X{host}] [%t] %5p %c{1} %m%n"
// (https://apim.docs.wso2.com/en/4.3.0/api-analytics/on-prem/elk-installation-guide/):
//
//	08:23:34,898 [-] [PassThroughMessageProcessor-188]  INFO ELKCounterMetric apimMetrics: apim:response, properties :{"apiName":"PizzaShackAPI",…}
//
// The JSON is the record, read by the names of the wso2-apim source, as
// WSO2's own Logstash grok and Fluent Bit parser cut it out of the line;
// the layout's time has no day, and the event's requestTimestamp is the
// request's start. The file's other lines are the same layout's and no
// event: the reporter's own at start-up ("ELKMetricReporter
// LogMetricReporter successfully initialized", ELKMetricReporter.java),
// or another logger's that a changed log4j2.properties sends there.
// They are passed over.

// apimMetricsMark and apimMetricsProps are what ELKCounterMetric writes
// before the event's name and before its JSON.
var (
	apimMetricsMark  = []byte("apimMetrics: ")
	apimMetricsProps = []byte(", properties :")
)

// apimMetricsRecord returns the event's JSON object of a line of WSO2 API
// Manager's analytics log, false when line holds no event. Whatever the
// layout writes before it, the message is ELKCounterMetric's: the mark
// after a space or at the line's start, a name without spaces, then the
// object, which ends the line.
func apimMetricsRecord(line []byte) ([]byte, bool) {
	i := bytes.Index(line, apimMetricsMark)
	if i < 0 || i > 0 && line[i-1] != ' ' {
		return nil, false
	}
	rest := line[i+len(apimMetricsMark):]
	j := bytes.Index(rest, apimMetricsProps)
	if j <= 0 || bytes.IndexAny(rest[:j], " \t{") >= 0 {
		return nil, false
	}
	rec := bytes.TrimRight(rest[j+len(apimMetricsProps):], " \r")
	if len(rec) < 2 || rec[0] != '{' || rec[len(rec)-1] != '}' {
		return nil, false
	}
	return rec, true
}

// apimMetricsOwn reports whether line begins as the appender's layout
// does, with the time of day "HH:mm:ss,SSS " (no day: the file rolls
// each day): a line of the analytics log that is no event.
func apimMetricsOwn(line []byte) bool {
	const form = "dd:dd:dd,ddd "
	if len(line) < len(form) {
		return false
	}
	for i := range len(form) {
		if c := line[i]; form[i] == 'd' && (c < '0' || c > '9') || form[i] != 'd' && c != form[i] {
			return false
		}
	}
	return true
}

// apimMetricsLine unwraps a line of an EnvAPIMMetrics file.
func apimMetricsLine(line []byte) (wrappedLine, error) {
	if rec, ok := apimMetricsRecord(line); ok {
		return wrappedLine{inner: rec}, nil
	}
	if apimMetricsOwn(line) {
		return wrappedLine{}, errOwnLine
	}
	return wrappedLine{}, errNotAPIMMetrics
}

var errNotAPIMMetrics = errors.New("not a line of WSO2 API Manager's analytics log (apimMetrics: NAME, properties :{…})")

// apimMetricsHeadOf reports whether head's first lines (up to
// sniffLines) are WSO2 API Manager's analytics log, most of them events:
// the reporter's line at start-up may come first, and the layout's lines
// that are no event are not counted.
func apimMetricsHeadOf(head []byte) bool {
	yes, no := 0, 0
	for _, l := range headLines(head, sniffLines) {
		switch _, ok := apimMetricsRecord(l); {
		case ok:
			yes++
		case !apimMetricsOwn(l):
			no++
		}
	}
	return yes > 0 && yes > no
}
