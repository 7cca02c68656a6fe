package ingest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzEnvelope: a line of any bytes, read in every envelope, never
// panics, and an error has a reason. A line within a CRI or stamped
// envelope built around the input, and a Docker record of it, give the
// input back as the line within, as do a line of logcli's jsonl, a
// row of Splunk's JSON search export, a row of a CSV export of log lines
// (csv-raw, as encoding/csv writes and reads it), Fluent Bit's record,
// and Fluent Bit's record of a CRI line, whole whatever its tag, or by
// its classic cri parser, a part when its tag is P; that record in a
// line of Fluent Bit's file output; Cloud Logging's entry; a text
// line behind a time (and a stream's name) in a stamped envelope of
// text lines; Fluent Bit's record of a line as its stdout output
// and its file output's ltsv format print it, read as JSON that
// encoding/json decodes to the line; and an event's row of the AWS
// CLI's text output; and Vector's native_json log event of a line; and
// the fields' object of a line of zap's console encoder, whatever the
// message before it; and the message of Ray Serve's JSON record, of
// python-json-logger's and of NIM's JSON Lines record; and the extra of loguru's serialized record.
func FuzzEnvelope(f *testing.F) {
	f.Add(`{"request_time":0.5,"status":200}`)
	f.Add(`10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1`)
	f.Add(`{"log":"\u00e9\ud83d\ude00\n","stream":"stdout"}`)
	f.Add("2026-12-04T10:00:00Z stdout P ")
	f.Add("")
	f.Add(`<165>1 2026-12-04T10:00:00Z h a - - [x y="]\\""] {}`)
	f.Add(`Dec  4 10:00:00 h nginx: {}`)
	f.Add(`2026-12-04T10:00:01+0800 gw-1 nginx[812]: {}`)
	f.Add(`Dec 04 10:00:01.125000 gw-1 nginx[812]: {}`)
	f.Add(`{"@version":"1","message":"a\\tb","host":{"x":[1]}}`)
	f.Add(`{"labels":{"job":"gw"},"line":"{\"status\":200}\n","timestamp":"2026-12-04T10:00:00.123456789+08:00"}`)
	f.Add(`{"line":"a\u0000b","timestamp":"2026-12-04T10:00:00"}`)
	f.Add(`{"preview":false,"offset":0,"result":{"_raw":"{\"status\":200}","_time":"2024-04-30T10:00:00.000+00:00","host":"gw"}}`)
	f.Add(`{"preview":true,"offset":1,"lastrow":true,"result":{"_time":"2026-10-08 13:48:34.000 GMT","_raw":"a\u0000b","x":["1","2"]}}`)
	f.Add(`{"preview":false,"lastrow":true}`)
	f.Add(`{"Time":1795917608321,"TopicId":"t","LogJson":"{\"request_time\":\"1.5\"}","PkgLogId":"65536"}`)
	f.Add(`{"time":"2026-12-04T02:00:01.125000000Z","stream":"stdout","_p":"P","log":"{\"status\":200}","kubernetes":{"labels":{"app":"gw"}}}`)
	f.Add(`{"date":1796349601,"stream":"stdout","logtag":"P","message":"{\"status\":"}`)
	f.Add(`nginx.access: [1796349601.125000, {"log":"a"}]`)
	f.Add(`[0] nginx.access: [[1796349601.125000000, {}], {"log"=>"a "b", "c"}]`)
	f.Add("\"time\":1796349601.125000\t\"log\":\"a \"b\"\tc\"\t\"n\":-1\t\"m\":{\"a\"=>[1, nil]}")
	f.Add(`[1] kube.gw: [1796349601.125000000, {"time"=>"t", "_p"=>"F", "log"=>"{"status":200}", "kubernetes"=>{"labels"=>{"app"=>"gw"}, "x"=>[1, -2.500000, nil, true, (ext: 0)"a\"b"]}}]`)
	f.Add(`{"message":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1"}`)
	f.Add(`{"__CONTENT__":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1","__TIMESTAMP__":"1795917607501","__SOURCE__":"10.0.0.1"}`)
	f.Add(`{"line":"{\"status\":200}","timestamp":"1796378400123456789","date":"2026-12-04T10:00:00.123Z","fields":{"app":"gw"}}`)
	f.Add("\"Date\",\"Time\",\"Line\",\"tsNs\",\"id\"")
	f.Add(`{"insertId":"a1","logName":"projects/p/logs/stdout","textPayload":"10.0.0.1 - - [04/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1\n","timestamp":"2026-12-04T02:00:00.123456Z"}`)
	f.Add(`{"insertId":"a2","resource":{"type":"k8s_container"},"jsonPayload":{"status":200,"msg":"a \"}\" b"},"timestamp":"2026-12-04T02:00:00Z"}`)
	f.Add(`{"id":"AQAAAY1","type":"log","attributes":{"timestamp":"2026-12-04T03:01:34.510Z","host":"node-1","service":"gw","status":"info","tags":["a"],"message":"{\"status\":200}","attributes":{}}}`)
	f.Add(`{"id":"b","content":{"timestamp":"x","host":"h","service":"s","message":"a\u0000b","attributes":{"http":{"status_code":1}}}}`)
	f.Add("EVENTS\t37516444111055343347641349063442428475868536476094283776\t1796349602010\tgw-1\ta\tb\t1796349601251")
	f.Add("EVENTS\t1796349602010\t123\t456\t1796349601251")
	f.Add("SEARCHEDLOGSTREAMS\tgw-1\tTrue")
	f.Add(`{"log":{"file":"/var/log/nginx/access.log","host":"gw-1","message":"a\u0000b","source_type":"file","timestamp":"2026-12-04T02:00:01.125Z"}}`)
	f.Add(`{"metric":{"name":"utilization","namespace":"vector","kind":"absolute","gauge":{"value":0.5}}}`)
	f.Add(`{"trace":{"spans":[{"a":"}"}]}}`)
	f.Add("2025-03-10T08:00:12.995+0800\tINFO\tginzap@v1.1.4/zap.go:102\t\t{\"status\": 200, \"latency\": \"2.9s\"}")
	f.Add("2025-03-10T08:00:12.995+0800\tERROR\tzap.go:95\ta\t{b\t{\"status\": 500}")
	f.Add("\t/go/pkg/mod/github.com/gin-contrib/zap@v1.1.4/zap.go:95")
	f.Add("2025/12/05 - 10:00:10\tINFO\tmiddleware/logger.go:67\tGIN request\t{\"status\": 200, \"latency\": \"1.23s\"}")
	f.Add("2025/12/05 - 10:00:10\tINFO\t[SYS] | One Hub started")
	f.Add("2025/12/05 - 10:00:10.5+0800\tINFO\tx\t{}")
	f.Add(`{"asctime": "2026-03-10 16:00:00,637", "levelname": "INFO", "message": "POST /v1/chat/completions 200 409.9ms", "component_name": "proxy", "timestamp_ns": 1773129600637000192}`)
	f.Add(`{"levelname": "INFO", "asctime": "2023-07-20 13:47:54,221", "deployment": "default_Model", "message": "replica.py:373 - __CALL__ OK 0.6ms"}`)
	f.Add(`{"asctime": "2026-12-05 10:00:00,323", "levelname": "INFO", "name": "uvicorn.access", "message": "10.0.2.151:33801 - \"POST /v1/chat/completions HTTP/1.1\" 200"}`)
	f.Add(`{"levelname": "INFO", "name": "app", "message": {"a": 1}, "timestamp": "2026-12-05T02:00:00.323+00:00"}`)
	f.Add(`{"level":"INFO","time":"2026-03-03 12:00:10","file_name":"h11_impl.py","line_number":473,"message":"10.0.0.5:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200"}`)
	f.Add(`{"level":"INFO","time":"2026-03-03 12:00:10","file_name":"start_server.py","line_number":"42","message":"Server starting on port 8000"}`)
	f.Add(`{"text": "a\n", "record": {"elapsed": {"repr": "0:00:30", "seconds": 30.0}, "extra": {"path": "/v1/x", "status_code": 200, "process_time": 0.5}, "time": {"repr": "2026-12-05 10:00:00.323833+08:00", "timestamp": 1796436000.323833}}}`)
	f.Add(`{"text": "", "record": {"extra": {}, "time": {"timestamp": "x"}}}`)
	f.Add(`08:23:34,898 [-] [PassThroughMessageProcessor-188]  INFO ELKCounterMetric apimMetrics: apim:response, properties :{"proxyResponseCode":200,"responseLatency":4}`)
	f.Add(`08:23:10,412 [-] [main]  INFO ELKMetricReporter LogMetricReporter successfully initialized`)
	f.Add(`apimMetrics: a, properties :{}`)
	f.Add(`{"TimeGenerated":"2026-12-04T03:01:37.6850000Z","PodName":"gw","LogMessage":"{\"status\":200}","LogSource":"stdout"}`)
	f.Add(`{"TimeGenerated":"x","LogMessage":{"status":200,"a":"}"},"ContainerId":"c"}`)
	f.Add(`{"ContainerID":"c","LogEntry":"a\u0000b\r\n","LogEntrySource":"stderr"}`)
	f.Add("TenantId,TimeGenerated [UTC],LogMessage")
	f.Add(`{"TimeGenerated":"2026-12-04T03:01:37.6850000Z","ContainerAppName":"gw","Log":"{\"status\":200}","Stream":"stdout"}`)
	f.Add(`{"Log_s":{"a":1},"RevisionName_s":"r","Log":"x","LogMessage":null}`)
	f.Add("TimeGenerated [UTC],ContainerAppName_s,Log_s,Log,RevisionName")
	f.Add(`{"TimeGenerated":"2026-12-05T10:00:00Z","Level":"Informational","ResultDescription":"{\"status\":200}","ContainerId":"a1"}`)
	f.Add("50342052\t2011-02-10 00:19:36 -0800\t2011-02-10 00:19:36 -0800\t42424\tmysystem\t208.122.34.202\tUser\tInfo\tnginx\t{\"status\":200}")
	f.Add("1\t2011-02-10 00:19:36 +0000\t2011-02-10 00:19:36 +0000\t2\t\t\t\t\t\ta\tb\r")
	f.Add(`{"_account":"a1","_app":"nginx","_host":"gw-1","_ts":1796353297685,"_line":"{\"status\":200}\n","level":"INFO"}`)
	f.Add(`{"_host":"h","_ts":"99999999999999999999999","_line":"a\u0000b"}`)
	f.Add(`{"dt":"2026-12-04 03:01:37.685072","raw":"{\"dt\":\"2026-12-04T03:01:37.685072Z\",\"message\":\"{\\\"status\\\":200}\"}"}`)
	f.Add(`{"dt":"soon","raw":"{\"message\":[1],\"a\":\"}\"}"}`)
	f.Add(`{"app":"gw","source_id":"123","dt":"2022-07-19 12:28:14.000000","message":"a\u0000b","context.http.path":null}`)
	f.Fuzz(func(t *testing.T, in string) {
		for _, e := range []Envelope{EnvCRI, EnvDocker, EnvStamped, EnvSyslog, EnvAPIMMetrics, EnvShipper, EnvJournald, EnvLoki, EnvSplunk, EnvCLS, EnvCloudLogging, EnvDatadog, EnvRawCSV, EnvCloudWatchText, EnvVector, EnvPapertrail, EnvMezmo, EnvBetterStack, EnvLoguru} {
			p := newEnvParser(e, newJSONParser(mustSchema(t), time.UTC), time.UTC)
			p.d.raw = rawColumns{header: []byte("_time,_raw"), n: 2, raw: 1, time: 0}
			var r Record
			for range 2 { // a part, then the line it starts
				if err := p.Parse([]byte(in), &r); err != nil && err.Error() == "" {
					t.Fatal("an error without a reason")
				}
			}
			envelopeOf([]byte(in))
			rawCSVHeader([]byte(in), mustSchema(t))
			cloudWatchMessage([]byte(in), &topReader{})
			new(topReader).grafanaRow([]byte(in))
			new(topReader).splunkResult([]byte(in), mustSchema(t))
			new(topReader).azureContainerRow([]byte(in))
			azureContainerRows([]byte(in), mustSchema(t))
			new(topReader).papertrailEvent([]byte(in))
			new(topReader).betterStack([]byte(in))
			holdParts(e, []byte(in+"\n"+in+"\n"), 2*len(in)+2)
		}
		{
			// Fluentd's record within its out_file's line.
			p := newEnvParser(EnvShipper, newJSONParser(mustSchema(t), time.UTC), time.UTC)
			p.d.lone = true
			var r Record
			if err := p.Parse([]byte(in), &r); err != nil && err.Error() == "" {
				t.Fatal("an error without a reason")
			}
		}
		for _, cut := range []stampCut{stampText, stampStream, stampLabels, stampPrinted, stampLTSV} {
			p := newEnvParser(EnvStamped, newJSONParser(mustSchema(t), time.UTC), time.UTC)
			p.d.stamp = cut
			var r Record
			if err := p.Parse([]byte(in), &r); err != nil && err.Error() == "" {
				t.Fatal("an error without a reason")
			}
		}
		if bytes.ContainsAny([]byte(in), "\n\r") {
			return
		}
		var d topReader
		if in == strings.TrimLeft(in, " ") {
			for cut, line := range map[stampCut]string{stampText: "2026-12-04T10:00:00.5Z " + in, stampStream: "2026-12-04T10:00:00.5+00:00 gw/abc " + in} {
				d.stamp = cut
				if w, err := unwrap(EnvStamped, []byte(line), &d); err != nil || string(w.inner) != in {
					t.Fatalf("stamped text %d: %+v, %v; want %q", cut, w, err, in)
				}
			}
			d.stamp = stampJSON
		}
		// zap's console encoder: whatever its message, the fields' object
		// after it is the record, and the line's time its stamp.
		zrec, err := json.Marshal(map[string]string{"path": in})
		if err != nil {
			t.Fatal(err)
		}
		msg := strings.NewReplacer("\n", "", "\r", "").Replace(in)
		for _, stamp := range []string{"2025-03-10T08:00:12.995+0800", "2025/03/10 - 08:00:12"} { // ISO 8601, one-hub's Gin date
			zline := stamp + "\tERROR\tginzap@v1.1.4/zap.go:95\t" + msg + "\t" + string(zrec)
			if w, err := unwrap(EnvStamped, []byte(zline), &d); err != nil || string(w.inner) != string(zrec) || string(w.stamp) != stamp {
				t.Fatalf("zap console: %q gave %+v, %v; want %s", zline, w, err, zrec)
			}
			if !zapConsoleHeadOf([]byte(in+"\n"+zline+"\n"+zline+"\n")) && !strings.Contains(in, "\n") && !strings.Contains(in, "\r") {
				t.Fatalf("zap console: %q twice is not told", zline)
			}
		}
		// Ray Serve's JSON record: its message, as encoding/json reads
		// it back, and timestamp_ns.
		rrec, err := json.Marshal(map[string]any{"levelname": "INFO", "component_name": "proxy", "message": in, "timestamp_ns": 1773129600637000192})
		if err != nil {
			t.Fatal(err)
		}
		var back struct{ Message string }
		if err := json.Unmarshal(rrec, &back); err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvShipper, rrec, &d); err != nil || !w.rayServe || string(w.inner) != strings.TrimRight(back.Message, "\r\n") || string(w.stamp) != "1773129600637000192" {
			t.Fatalf("Ray Serve: %s gave %+v, %v; want %q", rrec, w, err, back.Message)
		}
		// python-json-logger's record: its message, as encoding/json
		// reads it back, and asctime; a logger that is no access
		// logger's record is its own.
		for _, name := range []string{"uvicorn.access", "uvicorn.error"} {
			prec, err := json.Marshal(map[string]string{"asctime": "2026-12-05 10:00:00,323", "levelname": "INFO", "name": name, "message": in})
			if err != nil {
				t.Fatal(err)
			}
			var back struct{ Message string }
			if err := json.Unmarshal(prec, &back); err != nil {
				t.Fatal(err)
			}
			if w, err := unwrap(EnvShipper, prec, &d); err != nil || w.pythonOwn != (name == "uvicorn.error") || string(w.inner) != strings.TrimRight(back.Message, "\r\n") || string(w.stamp) != "2026-12-05 10:00:00,323" {
				t.Fatalf("python-json-logger: %s gave %+v, %v; want %q", prec, w, err, back.Message)
			}
		}
		// NIM's JSON Lines record: its message, as encoding/json reads
		// it back, and its time.
		nrec, err := json.Marshal(map[string]any{"level": "INFO", "time": "2026-03-03 12:00:10", "file_name": "httptools_impl.py", "line_number": 481, "message": in})
		if err != nil {
			t.Fatal(err)
		}
		var nback struct{ Message string }
		if err := json.Unmarshal(nrec, &nback); err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvShipper, nrec, &d); err != nil || !w.nim || string(w.inner) != strings.TrimRight(nback.Message, "\r\n") || string(w.stamp) != "2026-03-03 12:00:10" {
			t.Fatalf("NIM: %s gave %+v, %v; want %q", nrec, w, err, nback.Message)
		}
		// loguru's serialized record: its extra's object as written, and
		// its time's timestamp, whatever its text.
		ex, err := json.Marshal(map[string]string{"message": in})
		if err != nil {
			t.Fatal(err)
		}
		lgr := `{"text":` + string(mustJSON(t, in)) + `,"record":{"elapsed":{"seconds":30.0},"extra":` + string(ex) + `,"time":{"repr":"x","timestamp":1796436000.323833}}}`
		if w, err := unwrap(EnvLoguru, []byte(lgr), &d); err != nil || string(w.inner) != string(ex) || string(w.stamp) != "1796436000.323833" {
			t.Fatalf("loguru: %s gave %+v, %v; want %s", lgr, w, err, ex)
		}
		// WSO2 API Manager's analytics log: whatever the event holds, and
		// whatever the layout writes before the reporter's message (a
		// thread's name), the event's object is the record.
		arec, err := json.Marshal(map[string]string{"apiName": in})
		if err != nil {
			t.Fatal(err)
		}
		for _, thread := range []string{"PassThroughMessageProcessor-188", msg} {
			if strings.Contains(thread, "apimMetrics: ") {
				continue // no layout writes the message's mark
			}
			aline := "08:23:34,898 [-] [" + thread + "]  INFO ELKCounterMetric apimMetrics: apim:response, properties :" + string(arec)
			if w, err := unwrap(EnvAPIMMetrics, []byte(aline), &d); err != nil || string(w.inner) != string(arec) {
				t.Fatalf("apim metrics: %q gave %+v, %v; want %s", aline, w, err, arec)
			}
			apimMetricsHeadOf([]byte(in + "\n" + aline + "\n" + in + "\n"))
		}
		line := []byte("2026-12-04T10:00:00.5Z stdout F " + in)
		if w, err := unwrap(EnvCRI, line, &d); err != nil || w.partial || w.stderr || string(w.inner) != in {
			t.Fatalf("CRI: %+v, %v; want %q", w, err, in)
		}
		// The AWS CLI's text output of an event of filter-log-events and
		// of get-log-events, tabs within the message kept.
		for _, row := range []string{
			"EVENTS\t37516444111055343347641349063442428475868536476094283776\t1796349602010\tgw-1/i-0abc\t" + in + "\t1796349601251",
			"EVENTS\t1796349602010\t" + in + "\t1796349601251",
		} {
			if w, err := unwrap(EnvCloudWatchText, []byte(row), &d); err != nil || string(w.inner) != in || string(w.stamp) != "1796349601251" {
				t.Fatalf("AWS CLI text: %q gave %+v, %v; want %q", row, w, err, in)
			} else if envelopeOf([]byte(row)) != EnvCloudWatchText {
				t.Fatalf("AWS CLI text: %q told as %q", row, envelopeOf([]byte(row)))
			}
		}
		// Papertrail's archive: all after the ninth tab is the message,
		// tabs within it kept, its time generated_at.
		prow := "50342052\t2011-02-10 00:19:36 -0800\t2011-02-10 00:19:37 -0800\t42424\tgw-1\t208.122.34.202\tLocal7\tInfo\tnginx\t" + in
		if w, err := unwrap(EnvPapertrail, []byte(prow), &d); err != nil || string(w.inner) != strings.TrimRight(in, "\r") || string(w.stamp) != "2011-02-10 00:19:36 -0800" {
			t.Fatalf("Papertrail: %q gave %+v, %v; want %q", prow, w, err, in)
		} else if envelopeOf([]byte(prow)) != EnvPapertrail {
			t.Fatalf("Papertrail: %q told as %q", prow, envelopeOf([]byte(prow)))
		}
		// Papertrail's search API's event: its message, as encoding/json
		// reads it back, and generated_at.
		pev, err := json.Marshal(map[string]any{"id": "7711582041804800", "generated_at": "2026-12-03T18:00:11.620591-08:00", "received_at": "2026-12-03T18:00:12Z",
			"display_received_at": "Dec 03 18:00:12", "source_name": "gw-1", "source_id": 42424, "message": in})
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(pev, &back); err != nil {
			t.Fatal(err)
		}
		if msg, stamp, ok := d.papertrailEvent(pev); !ok || string(msg) != strings.TrimRight(back.Message, "\r\n") || string(stamp) != "2026-12-03T18:00:11.620591-08:00" {
			t.Fatalf("Papertrail event: %s gave %q, %q, %v; want %q", pev, msg, stamp, ok, back.Message)
		}
		// Mezmo's export line: its _line, as encoding/json reads it back,
		// and _ts.
		mrec, err := json.Marshal(map[string]any{"_app": "gw", "_host": "gw-1", "_ts": 1796353297685, "_line": in, "level": "INFO"})
		if err != nil {
			t.Fatal(err)
		}
		var mback struct {
			Line string `json:"_line"`
		}
		if err := json.Unmarshal(mrec, &mback); err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvMezmo, mrec, &d); err != nil || string(w.inner) != strings.TrimRight(mback.Line, "\r\n") || string(w.stamp) != "1796353297685" {
			t.Fatalf("Mezmo: %s gave %+v, %v; want %q", mrec, w, err, mback.Line)
		} else if envelopeOf(mrec) != EnvMezmo {
			t.Fatalf("Mezmo: %s told as %q", mrec, envelopeOf(mrec))
		}
		// Better Stack's SQL API's row: the message of its raw log, as
		// encoding/json reads it back, and dt as epoch ms; the raw log
		// itself when it has no message; and its Query API v1's message.
		braw, err := json.Marshal(map[string]string{"dt": "2026-12-04T03:01:37.685072Z", "message": in})
		if err != nil {
			t.Fatal(err)
		}
		var bback struct{ Message string }
		if err := json.Unmarshal(braw, &bback); err != nil {
			t.Fatal(err)
		}
		frec, err := json.Marshal(map[string]string{"model": in})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ raw, want string }{{string(braw), strings.TrimRight(bback.Message, "\r\n")}, {string(frec), string(frec)}} {
			brow, err := json.Marshal(map[string]string{"dt": "2026-12-04 03:01:37.685072", "raw": c.raw})
			if err != nil {
				t.Fatal(err)
			}
			if w, err := unwrap(EnvBetterStack, brow, &d); err != nil || string(w.inner) != c.want || string(w.stamp) != "1796353297685" {
				t.Fatalf("Better Stack: %s gave %+v, %v; want %q", brow, w, err, c.want)
			} else if envelopeOf(brow) != EnvBetterStack {
				t.Fatalf("Better Stack: %s told as %q", brow, envelopeOf(brow))
			}
		}
		rec, err := json.Marshal(map[string]string{"log": in + "\n", "stream": "stdout"})
		if err != nil {
			t.Fatal(err)
		}
		lrec, err := json.Marshal(map[string]any{"labels": map[string]string{"job": "gw"}, "line": in, "timestamp": "2026-12-04T10:00:00.5Z"})
		if err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvLoki, lrec, &d); err != nil || string(w.stamp) != "2026-12-04T10:00:00.5Z" {
			t.Fatalf("Loki: %+v, %v", w, err)
		} else if envelopeOf(lrec) != EnvLoki {
			t.Fatalf("Loki: %s told as %q", lrec, envelopeOf(lrec))
		} else {
			// json.Marshal writes invalid UTF-8 as U+FFFD: compare with
			// what it wrote.
			var back struct{ Line string }
			if json.Unmarshal(lrec, &back) != nil || string(w.inner) != strings.TrimRight(back.Line, "\r\n") {
				t.Fatalf("Loki: %q; want %q", w.inner, back.Line)
			}
		}
		srec, err := json.Marshal(map[string]any{"preview": false, "offset": 3, "lastrow": true,
			"result": map[string]any{"_raw": in, "_time": "2024-04-30T10:00:00.000+00:00", "host": "gw", "x": []string{"1"}}})
		if err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvSplunk, srec, &d); err != nil || string(w.stamp) != "2024-04-30T10:00:00.000+00:00" {
			t.Fatalf("Splunk: %+v, %v", w, err)
		} else if envelopeOf(srec) != EnvSplunk {
			t.Fatalf("Splunk: %s told as %q", srec, envelopeOf(srec))
		} else {
			var back struct {
				Result struct {
					Raw string `json:"_raw"`
				}
			}
			if json.Unmarshal(srec, &back) != nil || string(w.inner) != strings.TrimRight(back.Result.Raw, "\r\n") {
				t.Fatalf("Splunk: %q; want %q", w.inner, back.Result.Raw)
			}
		}
		// A CSV export's row (csv-raw): its line as encoding/csv writes
		// and reads it.
		var cb strings.Builder
		cw := csv.NewWriter(&cb)
		if err := cw.Write([]string{"2026-12-04T10:00:00Z", in}); err != nil {
			t.Fatal(err)
		}
		cw.Flush()
		row := strings.TrimSuffix(cb.String(), "\n")
		if !strings.Contains(row, "\n") {
			rd := topReader{raw: rawColumns{header: []byte("_time,_raw"), n: 2, raw: 1, time: 0}}
			back, rerr := csv.NewReader(strings.NewReader(row)).Read()
			if w, err := unwrap(EnvRawCSV, []byte(row), &rd); rerr == nil && len(back) == 2 &&
				(err != nil || string(w.inner) != back[1] || string(w.stamp) != back[0]) {
				t.Fatalf("csv-raw: %q gave %+v, %v; want %q", row, w, err, back[1])
			}
		}
		// Fluent Bit's record of a line.
		fb, err := json.Marshal(map[string]any{"date": 1796378400.5, "log": in})
		if err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvShipper, fb, &d); err != nil || string(w.stamp) != "1796378400.5" {
			t.Fatalf("Fluent Bit: %+v, %v", w, err)
		} else {
			var back struct{ Log string }
			if json.Unmarshal(fb, &back) != nil || string(w.inner) != strings.TrimRight(back.Log, "\r\n") {
				t.Fatalf("Fluent Bit: %q; want %q", w.inner, back.Log)
			}
		}
		// Vector's native_json log event of a line its file source read:
		// the event's object, valid JSON, whose message is the line.
		vrec, err := json.Marshal(map[string]any{"log": map[string]any{"file": "/var/log/gw.log", "host": "gw-1", "message": in, "source_type": "file", "timestamp": "2026-12-04T02:00:00.5Z"}})
		if err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvVector, vrec, &d); err != nil || !json.Valid(w.inner) || envelopeOf(vrec) != EnvVector {
			t.Fatalf("Vector: %s gave %+v, %v, told as %q", vrec, w, err, envelopeOf(vrec))
		} else if sw, err := unwrap(EnvShipper, w.inner, &d); err != nil || string(sw.stamp) != "2026-12-04T02:00:00.5Z" {
			t.Fatalf("Vector: the event %s gave %+v, %v", w.inner, sw, err)
		} else {
			var back struct{ Log struct{ Message string } }
			if json.Unmarshal(vrec, &back) != nil || string(sw.inner) != strings.TrimRight(back.Log.Message, "\r\n") {
				t.Fatalf("Vector: %q; want %q", sw.inner, back.Log.Message)
			}
		}
		crec, err := json.Marshal(map[string]any{"__CONTENT__": in, "__TIMESTAMP__": "1795917607501", "__SOURCE__": "10.0.0.1", "__TAG__.pod": "gw"})
		if err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvCLS, crec, &d); err != nil || string(w.stamp) != "1795917607501" {
			t.Fatalf("CLS: %+v, %v", w, err)
		} else {
			var back struct {
				Content string `json:"__CONTENT__"`
			}
			if json.Unmarshal(crec, &back) != nil || string(w.inner) != strings.TrimRight(back.Content, "\r\n") {
				t.Fatalf("CLS: %q; want %q", w.inner, back.Content)
			}
		}
		// Cloud Logging's entry of a line in textPayload, and of a JSON
		// line's record in jsonPayload, which appendCompact puts on one
		// line as encoding/json's Compact does.
		grec, err := json.Marshal(map[string]any{"insertId": "a1", "logName": "projects/p/logs/stdout", "textPayload": in, "timestamp": "2026-12-04T02:00:00.5Z"})
		if err != nil {
			t.Fatal(err)
		}
		if w, err := unwrap(EnvCloudLogging, grec, &d); err != nil || string(w.stamp) != "2026-12-04T02:00:00.5Z" {
			t.Fatalf("Cloud Logging: %+v, %v", w, err)
		} else if envelopeOf(grec) != EnvCloudLogging {
			t.Fatalf("Cloud Logging: %s told as %q", grec, envelopeOf(grec))
		} else {
			var back struct{ TextPayload string }
			if json.Unmarshal(grec, &back) != nil || string(w.inner) != strings.TrimRight(back.TextPayload, "\r\n") {
				t.Fatalf("Cloud Logging: %q; want %q", w.inner, back.TextPayload)
			}
		}
		if json.Valid([]byte(in)) {
			var std bytes.Buffer
			if json.Compact(&std, []byte(in)) == nil && !bytes.Equal(appendCompact(nil, []byte(in)), std.Bytes()) {
				t.Fatalf("appendCompact(%q) = %q, want %q", in, appendCompact(nil, []byte(in)), std.Bytes())
			}
		}
		want := bytes.TrimSuffix([]byte(in), []byte("\r"))
		// Fluent Bit's record of a CRI line: the line whole, whatever its
		// tag.
		for _, tag := range []string{"F", "P"} {
			fb, err := json.Marshal(map[string]any{"time": "2026-12-04T02:00:01.125000000Z", "stream": "stderr", "_p": tag, "log": in})
			if err != nil {
				t.Fatal(err)
			}
			var back struct{ Log string }
			if json.Unmarshal(fb, &back) != nil {
				t.Fatal("cannot decode ", fb)
			}
			if w, err := unwrap(EnvDocker, fb, &d); err != nil || w.partial || !w.stderr || string(w.inner) != strings.TrimSuffix(back.Log, "\r") {
				t.Fatalf("Fluent Bit's CRI record %s: %+v, %v; want %q", fb, w, err, back.Log)
			} else if envelopeOf(fb) != EnvDocker {
				t.Fatalf("Fluent Bit's CRI record %s told as %q", fb, envelopeOf(fb))
			}
		}
		// Its record by the classic cri parser: the line, a part when
		// its logtag is P.
		for _, tag := range []string{"F", "P"} {
			fb, err := json.Marshal(map[string]any{"date": 1796349601.125, "stream": "stdout", "logtag": tag, "message": in})
			if err != nil {
				t.Fatal(err)
			}
			var back struct{ Message string }
			if json.Unmarshal(fb, &back) != nil {
				t.Fatal("cannot decode ", fb)
			}
			if w, err := unwrap(EnvDocker, fb, &d); err != nil || w.partial != (tag == "P") || string(w.stamp) != "1796349601.125" || string(w.inner) != back.Message {
				t.Fatalf("Fluent Bit's classic CRI record %s: %+v, %v; want %q", fb, w, err, back.Message)
			} else if envelopeOf(fb) != EnvDocker {
				t.Fatalf("Fluent Bit's classic CRI record %s told as %q", fb, envelopeOf(fb))
			}
		}
		// Fluent Bit's stdout output: the record {"log":in} printed as
		// msgpack prints it, nothing escaped, since v2.1 and before. A
		// line that holds `"=>` may print the same as a record of more
		// members: left out.
		if !strings.Contains(in, `"=>`) && utf8.ValidString(in) {
			d.stamp = stampPrinted
			for _, l := range []string{"[0] kube.gw: [[1796349601.125000000, {}], {\"log\"=>\"" + in + "\"}]", "[12] kube.gw: [1796349601.125000000, {\"log\"=>\"" + in + "\"}]"} {
				w, err := unwrap(EnvStamped, []byte(l), &d)
				var back struct{ Log *string }
				if err != nil || string(w.stamp) != "1796349601.125000000" || json.Unmarshal(w.inner, &back) != nil || back.Log == nil || *back.Log != in {
					t.Fatalf("Fluent Bit's stdout output %q: %q, %q, %v", l, w.inner, w.stamp, err)
				} else if envelopeOf([]byte(l)) != EnvStamped {
					t.Fatalf("Fluent Bit's stdout output %q told as %q", l, envelopeOf([]byte(l)))
				}
			}
			// Its file output's ltsv format: "time", then the record's
			// labels and values so printed, tab-separated; a line that
			// holds `":` may print as a record of more members.
			if !strings.Contains(in, `":`) {
				d.stamp = stampLTSV
				l := "\"time\":1796349601.125000\t\"log\":\"" + in + "\""
				w, err := unwrap(EnvStamped, []byte(l), &d)
				var back struct{ Log *string }
				if err != nil || string(w.stamp) != "1796349601.125000" || json.Unmarshal(w.inner, &back) != nil || back.Log == nil || *back.Log != in {
					t.Fatalf("Fluent Bit's ltsv output %q: %q, %q, %v", l, w.inner, w.stamp, err)
				} else if envelopeOf([]byte(l)) != EnvStamped {
					t.Fatalf("Fluent Bit's ltsv output %q told as %q", l, envelopeOf([]byte(l)))
				}
			}
			d.stamp = stampJSON
		}
		// Fluent Bit's file output: its record behind the tag and time.
		ofile := "kube.gw: [1796349601.125000000, " + string(fb) + "]"
		if w, err := unwrap(EnvStamped, []byte(ofile), &d); err != nil || string(w.inner) != string(fb) || string(w.stamp) != "1796349601.125000000" {
			t.Fatalf("Fluent Bit's file output %q: %+v, %v", ofile, w, err)
		} else if envelopeOf([]byte(ofile)) != EnvStamped {
			t.Fatalf("Fluent Bit's file output %q told as %q", ofile, envelopeOf([]byte(ofile)))
		}
		if w, err := unwrap(EnvDocker, rec, &d); err != nil || w.partial || !bytes.Equal(w.inner, want) {
			got := w.inner
			// json.Marshal writes invalid UTF-8 as U+FFFD: compare with
			// what it wrote.
			var back map[string]string
			if json.Unmarshal(rec, &back) != nil || string(got) != back["log"][:len(back["log"])-1] {
				t.Fatalf("Docker: %q, %v, %v; want %q", got, w.partial, err, want)
			}
		}
	})
}

func mustSchema(t *testing.T) *Schema {
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustJSON is v as encoding/json writes it.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
