package report

import (
	"fmt"
	"strings"
)

// The Markdown and HTML reports are written in one of several languages
// (SPEC §6 "Language"). Every sentence, heading and label they show is a
// message of this catalogue, looked up by its identifier: enMessages
// here, the other languages beside it (messages_zh.go). The JSON and
// Prometheus reports are always English: scripts read them.

// Lang is the language of the Markdown and HTML reports.
type Lang string

// The languages of the reports.
const (
	LangEn   Lang = "en"
	LangZhCN Lang = "zh-CN"
)

// Langs are the languages the reports can be written in.
var Langs = []Lang{LangEn, LangZhCN}

// ParseLang reads a language name: "en" or "zh-CN".
func ParseLang(s string) (Lang, error) {
	for _, l := range Langs {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown language %q (want en or zh-CN)", s)
}

// msgID names one message of the catalogue. The HTML template names its
// messages by the same strings ({{t "findings"}}).
type msgID string

// catalogues are the messages of each language. A language lacking a
// message falls back to English.
var catalogues = map[Lang]map[msgID]string{
	LangEn:   enMessages,
	LangZhCN: zhMessages,
}

// printer writes the messages of one language.
type printer struct {
	lang Lang
	msgs map[msgID]string
}

// english is the printer of the JSON and Prometheus texts and of the
// default reports.
var english = printerFor(LangEn)

func printerFor(l Lang) printer {
	if _, ok := catalogues[l]; !ok {
		l = LangEn
	}
	return printer{lang: l, msgs: catalogues[l]}
}

// t is the text of a message.
func (p printer) t(id msgID) string {
	if s := p.msgs[id]; s != "" {
		return s
	}
	if s, ok := enMessages[id]; ok {
		return s
	}
	panic("BUG: no message " + string(id))
}

// f is a message with its format verbs filled.
func (p printer) f(id msgID, args ...any) string { return fmt.Sprintf(p.t(id), args...) }

// n is a count of a noun message ("%d record"): English adds the plural
// s to every count but 1.
func (p printer) n(n int, id msgID) string {
	s := p.f(id, n)
	if p.lang == LangEn && n != 1 {
		s += "s"
	}
	return s
}

// upper is a word in capitals where the language has them ("CRIT").
func (p printer) upper(id msgID) string { return strings.ToUpper(p.t(id)) }

// severity names a finding's severity: warn, crit.
func (p printer) severity(s string) string {
	switch s {
	case "warn":
		return p.t("sev.warn")
	case "crit":
		return p.t("sev.crit")
	}
	return s
}

// enMessages are the English messages. A message with format verbs is
// used with fmt; every other language has the same verbs (by argument
// index) in its text. A noun message ("%d record") is used by
// printer.n.
var enMessages = map[msgID]string{
	// Shared words and punctuation.
	"period":    ".",
	"colon":     ": ",
	"semicolon": "; ",
	"comma":     ", ",
	"open":      " (",
	"close":     ")",
	"sev.warn":  "warn",
	"sev.crit":  "crit",
	"none":      "none",

	// Counted nouns.
	"n.record":    "%d record",
	"n.badline":   "%d bad line",
	"n.line":      "%d line",
	"n.file":      "%d file",
	"n.morefile":  "%d more file",
	"n.request":   "%d request",
	"n.finding":   "%d finding",
	"n.key":       "%d key",
	"more":        "%d more",
	"notimestamp": "no timestamps",

	// Headings.
	"title":         "# loganalyze report",
	"title.nodata":  "# loganalyze report: NO DATA — %s",
	"findings":      "Findings",
	"notevaluated":  "Not evaluated",
	"statuscodes":   "Status codes",
	"input":         "Input",
	"latency":       "Latency (ms)",
	"firstbadlines": "First bad lines",
	"inputnotes":    "Notes on the input",
	"comparedwith":  "Compared with %s (ms)",

	// The breakdown and the triage (breakdown.go, triage.go).
	"breakdown":                     "Where the time goes (mean ms per request)",
	"breakdown.note":                "Per request class, the mean time of each phase from the fields the records carry; the phases and unknown add up to the mean request time. A phase no request of the class carries is shown as –.",
	"col.class":                     "class",
	"col.mean":                      "mean",
	"class.token":                   "token calls",
	"class.streaming":               "streaming",
	"class.non_streaming":           "non-streaming",
	"class.unknown_stream":          "stream unknown",
	"phase.dns_ms":                  "DNS",
	"phase.tcp_connect_ms":          "TCP connect",
	"phase.tls_ms":                  "TLS",
	"phase.network_ms":              "network",
	"phase.upstream_connect_ms":     "upstream connect",
	"phase.upstream_header_wait_ms": "upstream header wait",
	"phase.first_token_ms":          "first token",
	"phase.generation_ms":           "generation",
	"phase.upstream_body_ms":        "upstream body",
	"phase.unknown":                 "unknown",
	"where.first_token":             "the wait for the first token",
	"where.generation":              "generation after the first token",
	"where.network":                 "the network outside the upstream",
	"where.upstream":                "the upstream's connect and header wait",
	"where.upstream_body":           "the upstream's response body after its headers",
	"triage.where":                  "The largest share of the inference requests' time is %[1]s: %[2]s %% of it, %[3]s ms a request.",
	"triage.nowhere":                "Where the inference requests' time goes cannot be told: most of it is in no phase the records' fields show (ttft, upstream_response_time, the upstream times).",
	"triage.conc":                   "The slow tail is in %[1]s %[2]s: %[3]s %% of the requests at or above the p99 (%[4]s ms), for %[5]s %% of all requests.",
	"triage.first":                  "First: %[1]s.",
	"action.inference":              "the first token is slow while generation flows, so look at the inference stage (the model's queue and prefill)",
	"action.generation":             "the time is in generation, so compare time_per_output_token by model: long answers (cap max_tokens) or a slow model",
	"action.network_path":           "the time is outside the upstream, so check the network path (cross-region calls, keep-alive, TLS)",
	"action.upstream":               "the time is in the upstream's connect and header wait, so check the upstream's capacity",
	"action.upstream_body":          "the time is in the upstream's body after its headers, which for a streamed answer is its generation: log ttft and completion_tokens to tell long answers (cap max_tokens) from a slow model",
	"action.split_first_token":      "log the first-token time (ttft) and the upstream times, to separate the first token from the total",
	"action.split_upstream":         "log the upstream times (upstream_response_time, upstream_header_time), and the first-token time where it is missing (calls without streaming), to place what the first-token time leaves in no phase",
	"triage.then.conc":              "; then %[1]s %[2]s, where the p99 concentrates",
	"triage.then.429":               "; then the 429s (%[1]s %% of responses), a rate-limit signal: honour Retry-After and back off",

	// Table columns.
	"col.status":      "status",
	"col.count":       "count",
	"col.share":       "share",
	"col.file":        "file",
	"col.format":      "format",
	"col.records":     "records",
	"col.badlines":    "bad lines",
	"col.note":        "note",
	"col.dimension":   "dimension",
	"col.key":         "key",
	"col.max":         "max",
	"col.countbefore": "count before",
	"col.countafter":  "count after",
	"col.p50before":   "p50 before",
	"col.p50after":    "p50 after",
	"col.p95before":   "p95 before",
	"col.p95after":    "p95 after",
	"col.p99before":   "p99 before",
	"col.p99after":    "p99 after",
	"col.p99ratio":    "p99 ratio",

	// The verdict.
	"verdict.ok":         "**Verdict: OK** — nothing to fix",
	"verdict.oktail":     "**Verdict: OK** — no rule fired, but %[1]s %[2]s holds %[3]s %% of the slow tail (below)",
	"verdict.nodata":     "**Verdict: NO DATA** — latency not judged",
	"verdict.crit":       "**Verdict: CRIT** — %s",
	"verdict.warn":       "**Verdict: WARN** — %s",
	"verdict.warnunread": "**Verdict: WARN** — input went unread; nothing to fix in what was read",
	"verdict.warnstatus": "**Verdict: WARN** — the responses' status went unread (see the hint below); nothing to fix in what was read",
	"headline.nostatus":  "the responses' status went unread",
	"verdict.warnunit":   "**Verdict: WARN** — the request times' unit is in doubt (see the hint below); nothing to fix in what was read",
	"headline.unit":      "the request times' unit is in doubt",
	"verdict.line":       "%s; %s, %s.",
	"verdict.counts":     " (%d crit, %d warn)",
	"verdict.fromother":  "; %s from other fields",
	"window.whole":       " (stored hours are kept whole: --since/--until asked for %s)",
	"verdict.inread":     " in what was read",
	"verdict.input":      " Input: %s",
	"partial":            "%s read in part: %s",
	"partialfile":        "%s (%s)",
	"statefrom":          "the hours before %s not stored in the state directory (a run stores the latest %d hours of its log): a report of stored hours will not count them",
	"word.ok":            "ok",
	"word.nodata":        "NO DATA",
	"nothingtofix":       "nothing to fix",
	"headline.tail":      "no rule fired, but %[1]s %[2]s holds %[3]s %% of the slow tail",
	"headline.counts":    "%s (%d crit, %d warn)",
	"headline.other":     "; %s from other fields (%d crit, %d warn)",
	"inwindow":           "%s in the window (%d more read outside it)",
	"timedof":            "%s, %d of them with a request_time",
	"headline.timed":     "%d of %d requests with a request_time",
	"notread":            "Not read: %s (%s).",
	"mostlynotread":      "Mostly not read: %s.",
	"mostlyfile":         "%s (%d of its %d lines bad)",

	// A finding.
	"f.key":       "Key",
	"f.window":    "Window",
	"f.impact":    "Impact",
	"f.evidence":  "Evidence",
	"f.explains":  "Also explains",
	"f.fix":       "Fix",
	"impact":      "~%s ms per request × %d requests ≈ %.1f s",
	"fixcolon":    "Fix:",
	"dt.key":      "key",
	"dt.window":   "window",
	"dt.impact":   "impact",
	"dt.evid":     "evidence",
	"dt.explains": "also explains",
	"nofindings":  "No findings: nothing to fix.",

	// Latency tables.
	"nolatency":         "No record in the window carries a latency field.",
	"quantiles":         "pXX is the value at rank ⌊q·(n−1)⌋ of the sorted values, within %s %%; max is the exact largest value.",
	"coverage.rest":     "%s; the others do not carry it.",
	"coverage":          "%s: from %d of %d records",
	"busiestkeys":       "Each dimension shows its %d busiest keys; *other* merges the rest (every key is in the JSON report).",
	"other.folded":      "other (incl. keys folded by --top)",
	"other.sampled":     "other (incl. keys folded by --top; too many keys to track all: those shown are the busiest of a 1/%d hash sample)",
	"other.keys":        "other (%s)",
	"fieldcounts":       "Records carrying each field:",
	"unreadvalues":      "Records with a value that could not be read, kept without it:",
	"firstunreadvalues": "First records with a value that could not be read",
	"keysofn":           "%d of %d keys",
	"keysfolded":        "busiest %d keys; more were folded by --top",
	"keysranged":        "a count a–b: some stored hours folded the key into other; a is what they kept, its quantiles those records'",
	"countrange":        "A count shown a–b is a key some of the stored hours folded into other (each hour keeps its --top keys): a is the records they kept for it, its quantiles theirs, and b the most it can have had.",
	"keyssampled":       "busiest %d keys of a 1/%d hash sample of the keys (too many to track all); more were folded by --top",
	"sorthint":          "Click a column header to sort. Each table shows its busiest keys; “other” merges the rest (every key is in the JSON report).",
	"allsummary":        "all: %d requests · p50 %s · p95 %s · p99 %s · max %s",

	// Comparisons.
	"cmp.novalues":      "No metric has values on both sides.",
	"cmp.busiest":       "Keys both periods have; each dimension shows its %d busiest (every key is in the JSON report).",
	"cmp.busiestkey":    "Keys both periods have; each dimension shows its busiest keys (every key is in the JSON report).",
	"cmp.peak":          "%s, busiest quarter of hours",
	"cmp.offpeak":       "%s, quietest quarter of hours",
	"ref.baseline":      "the baseline (%s)",
	"ref.previous_hour": "the previous hour (%s)",
	"ref.day_before":    "the same hour a day before (%s)",

	// The HTML page and its charts.
	"glance.requests": "requests",
	"glance.coverage": "coverage",
	"input.note":      " · input: %s",
	"overtime":        "Over time",
	"chart.requests":  "Requests, 429 and 5xx",
	"chart.regions":   "p99 request_time per region",
	"distribution":    "Latency distribution",
	"logscale":        "(ms, log scale)",
	"bydimension":     "Latency by dimension (ms)",
	"filesrecords":    "(%d records, %d bad lines)",
	"files":           "Files",
	"footer":          "loganalyze report · self-contained: no network requests",
	"sort":            "sort",
	"buckets":         "%s buckets",
	"busiestregions":  "; the %d busiest regions",
	"minute":          "minute",
	"minutes":         "%d minutes",
	"hour":            "hour",
	"hours":           "%d hours",
	"day":             "day",
	"days":            "%d days",
	"bucket.minute":   "%d-minute",
	"bucket.hour":     "%d-hour",
	"bucket.day":      "%d-day",
	"svg.requests":    "Requests per %s, with 429 and 5xx responses",
	"svg.per":         "per %s",
	"svg.reqlegend":   "requests %s",
	"svg.bar":         "%s: %d requests, %d × 429, %d × 5xx",
	"svg.regions":     "p99 request_time over time per region",
	"svg.noregions":   "no request times with a region and a timestamp",
	"svg.point":       "%s %s: p99 %s ms over %d requests",
	"svg.dist":        "%s distribution",
	"svg.novalues":    "no values",

	// Why latency could not be judged (no_data), and input notes.
	"nd.none":          "no record carries %s",
	"nd.nonewindow":    "no record in the window carries %s",
	"nd.try":           "; try %s",
	"nd.text":          "No record carries %s; ",
	"nd.textwindow":    "No record in the window carries %s; ",
	"nd.carry":         "%s in the window carry %s",
	"nd.carries":       "%s in the window carries %s",
	"nd.carrynone":     "%s in the window carry no field loganalyze reads",
	"nd.oneoutside":    "the one record read is outside the window",
	"nd.alloutside":    "all %s read are outside the window",
	"nd.noneread":      "no record was read",
	"nd.files":         ". Files: ",
	"nd.andmore":       "; and %s",
	"nd.seen":          " Fields seen: %s",
	"nd.seenmore":      ", …",
	"nd.tryfirst":      " Try ",
	"why.badas":        "%s as %s",
	"why.firstat":      ", the first at line %d: %s",
	"why.empty":        "empty",
	"why.allpassed":    "%s read, none a request to %s",
	"why.zipkinkind":   "%s read, none a request to zipkin: the spans carry no kind, and only a server's span (kind SERVER) is a request; keep kind in the export",
	"why.serverlog":    "%s, which holds no request: %s passed over",
	"srv.nginx-error":  "nginx's error log",
	"srv.apache-error": "Apache httpd's error log",
	"srv.envoy-own":    "Envoy's own log",
	"srv.traefik-own":  "Traefik's own log",
	"srv.own-log":      "a program's own log (its levels and messages)",
	"why.headeronly":   "one line, read as a %s header, and no row after it",
	"why.nonewindow":   "%s, none in the window with %s",
	"why.without":      "%s without %s",
	"why.uvicorn":      "%s without %s: uvicorn's access log writes no request time, in any configuration; time the requests where they pass (the proxy in front: nginx's $request_time, Envoy's %%DURATION%%) and read that log",
	"why.awselb":       "%s without %s: the Classic Load Balancer's access log has no duration of the whole response, its three processing times ending when the response began (the backend's time to its headers is read as upstream_header_time); a streamed answer's body outlasts them. An Application Load Balancer's log has it (request_creation_time to time), or time the requests behind the load balancer (nginx's $request_time)",
	"why.linkerd":      "%s without %s: Linkerd's proxy leaves its durations (total_ns, processing_ns) out of its apache access log format; its json format writes them: set config.linkerd.io/access-log: json and read that log, whose total_ns is the request's time",
	"why.pydev":        "%s without %s: %s's development server logs each request with no duration, in any configuration; time the requests where they pass (the proxy in front: nginx's $request_time, Envoy's %%DURATION%%) and read that log",
	"why.llamaserver":  "%s without %s: llama.cpp's server logs each request with no duration, in any configuration (its timing lines are its slots' tasks', not the requests'); time the requests where they pass (the proxy in front: nginx's $request_time, Envoy's %%DURATION%%) and read that log",
	"why.cloudflare":   "%s without %s: a Cloudflare Logpush record's duration is EdgeEndTimestamp − EdgeStartTimestamp, which needs both fields and times finer than the second: set the job's timestamp_format to unixnano (the API's default; rfc3339 and unix, the dashboard's default, write whole seconds, which are not read)",
	"why.dbxusage":     "%s without %s: Databricks' usage table (system.serving.endpoint_usage) has no duration, only each request's arrival, status and tokens; the inference table of the same endpoint has it (execution_duration_ms): read that table, or an export that joins the two by databricks_request_id",
	"hint.map":         "%s looks like a duration (unit s, ms, us or ns)",
	"hint.refused":     "%s is read in %s by default, but its values (median %s) would make the median request last %s: they are in a smaller unit, most likely the one suggested, and were not read",
	"hint.numtime":     "%s holds numbers where a time was read, most likely a duration in s, ms, us or ns",
	"hint.spans":       "the records carry %[1]s's span ids (%[2]s) and a whole %[3]s but no time: %[1]s's spans trimmed of their start (%[4]s), whose %[3]s is µs, not ms as it is read by default, so it was not read; this flag reads each server span as a request of no time (keep %[4]s in the export for their times). An app's own log whose %[3]s is ms takes --map request_time=%[3]s:ms",
	"hint.spanskind":   "the records carry Zipkin's span ids (%[1]s) and a whole %[2]s but no time nor kind: Zipkin's spans trimmed of their start (%[3]s) and kind, whose %[2]s is µs, not ms as it is read by default, so it was not read; without kind no span is a server's: export kind and %[3]s too and read them with this flag. An app's own log whose %[2]s is ms takes --map request_time=%[2]s:ms",
	"hint.maptime":     "%s looks like the requests' time (an epoch number in s, ms, us or ns, or a date and time)",
	"clocktime":        "%s in %s holds a time of day alone, no date: its records were read without a time, which is unknown (a log that writes the date as well gives them theirs)",
	"timehint":         "No record carries a time, which the time line, the window and the rules that judge minutes need: try %s; %s",
	"hint.mapstatus":   "%s looks like the responses' HTTP status",
	"hint.msD":         "%[1]s was read with an Apache LogFormat whose %%D is µs, and its first values' median, %[2]s, would make the median request last %[3]s ms, which no request through a gateway does: Quarkus, Undertow and WildFly, Micronaut, logback-access and Tomcat 8.5 and 9 write %%D in ms, which this flag reads",
	"unithint":         "The request times may be 1000 times too short: try %s; %s",
	"statushint":       "No record carries a status, so no 429 or 5xx is counted and the storm and burst rules cannot run: try %s; %s",
	"hint.pastformat":  "the lines go on past the fields of the format they were read with (%s), which are not read: give their log_format, and $request_time among the fields after it is read",
	"hint.nginx":       "the nginx format read has no $request_time: log it (e.g. $request_time $upstream_response_time after the main format) and give that log_format; for Apache httpd's log, its LogFormat (e.g. '%%h %%l %%u %%t \"%%r\" %%>s %%b \"%%{Referer}i\" \"%%{User-Agent}i\" %%D')",
	"hint.gunicorn":    "the gunicorn access_log_format read has no request time: add %%(L)s (seconds) or %%(D)s (µs) to gunicorn's --access-logformat and give that format",
	"hint.lighttpd":    "lighttpd's default accesslog.format, read, has no request time, and a number logged after it does not say its unit (%%D µs, %%T s, %%{ms}T ms): give the accesslog.format that wrote the lines, e.g. '%%h %%V %%u %%t \"%%r\" %%>s %%b \"%%{Referer}i\" \"%%{User-Agent}i\" %%D'",
	"hint.logformat":   "for a text log in a custom format: its nginx log_format, Envoy format, Apache LogFormat, HAProxy log-format, gunicorn access_log_format or morgan format string",
	"hint.inputfmt":    "when the format was guessed wrong: jsonl, json, csv, tsv, ltsv, logfmt, nginx, clb, haproxy, gin, w3c, parquet or arrow",
	"hint.csvheader":   "%s has no header row, its first row holds values: name its columns, as its rows cut them",
	"hint.csvtext":     "%s has no header row, its first row holds values: name its columns, as its rows cut them (a web server's log_format that cuts its fields so: give it with --log-format)",
	"hint.window":      "every record read is outside the window",
	"note.noread":      "no record read: %s",
	"why.noheader":     "its first row holds values, not names: no header row (--csv-header names its columns)",
	"note.incomplete":  "incomplete: %s",
	"note.passedover":  "%s passed over, no requests to %s",
	"note.without":     "%s without %s, not in the latency figures",
	"note.readin":      "%s read in %s, not %s: its values are written as nginx writes $request_time, seconds with three decimals",
	"note.readfrac":    "%s read in %s, not %s: most of its values are fractions (median %s), which in %s would make the median request last under 10 ms: seconds, as a Python logger writes time.perf_counter()'s; if they are %s, try %s",
	"note.refused":     "%s not read: read in %s, its values (median %s) would make the median request last %s; try %s",
	"note.spans":       "%[1]s not read: the records carry %[2]s's span ids but no time, spans whose %[1]s is µs; try %[3]s",
	"note.zone":        "its times without a zone read in %s, as the epoch the log service keeps beside them gives them, not --tz's",

	// Why a rule was not evaluated (findingtext.go).
	"reason.state":          "needs --state",
	"reason.noprevious":     "no previous hour in the state directory",
	"reason.damaged":        "the previous hour's state file is damaged",
	"reason.layout":         "the previous hour's state file was written for other metrics, dimensions or rules",
	"reason.field":          "field %s is absent from every record",
	"reason.fields":         "fields %s are absent from every record",
	"reason.partly":         "partly: minutes before %s were not judged, the log holding more key × minute buckets than kept (the latest are)",
	"reason.sampledcallers": "partly: the callers were judged from a hash sample of about %s %% of them, the log having more callers than kept",
	"reason.sampledpaths":   "partly: the callers' paths were judged from a hash sample of about %s %% of them, the log having more paths than kept",
	// Findings in another language (findingtext.go): what the rules
	// write in English, with the same arguments.
	"rule.all":                                 "all requests",
	"rule.cross_region.title":                  "Cross-region calls from %s to %s",
	"rule.cross_region.advice":                 "Deploy the callers on this route (%s) in %s, or point them at the %s endpoint nearest to them (edge / CDN); they lose ~%.0f ms of network time per call against %s.",
	"rule.cross_region.base":                   "same-region calls to %s",
	"rule.cross_region.inferred.title":         "%s calls %s from far away (inferred from %s)",
	"rule.cross_region.inferred.advice":        "Check where %s runs: its %s p50 is %.0f ms against %.1f ms for callers in %s's region. Deploy it in %s or use the nearest edge / CDN endpoint; log client_region to confirm.",
	"rule.non_streaming_large_model.title":     "Non-streaming calls to the large model %s",
	"rule.non_streaming_large_model.advice":    "Send \"stream\": true to %s (%.0fB parameters): %d calls (%.0f %%) wait %s for the whole answer before the first token. Where the task allows, use a 7B–14B model or a quantized variant.",
	"rule.missing_keepalive.title":             "%s opens a new connection for most requests",
	"rule.missing_keepalive.advice":            "Enable HTTP keep-alive / a connection pool in %s (idle timeout ~60 s): %.0f %% of its %d requests paid a new connection, ~%.0f ms each.",
	"rule.missing_keepalive.advice_unmeasured": "Enable HTTP keep-alive / a connection pool in %s (idle timeout ~60 s): %.0f %% of its %d requests paid a new connection, at a cost the log does not show (log $tcpinfo_rtt and $ssl_handshake_time to measure it; a new connection costs one to two round trips).",
	"rule.rate_limit_storm.title":              "HTTP 429 storm on %s",
	"rule.rate_limit_storm.advice":             "Rate limit hit on %s (%s). Callers must honour Retry-After and back off exponentially (1 s, 2 s, 4 s, ±20 %% jitter, at most 3 retries); split the quota between core and burst traffic.",
	"rule.rate_limit_storm.noretryafter":       "no Retry-After was logged",
	"rule.rate_limit_storm.retryafter":         "Retry-After was %s",
	"rule.rate_limit_storm.early":              " Fix first: %s, which retried sooner than Retry-After.",
	"rule.rate_limit_storm.earlyentry":         "%s: %s of %s retries sooner than Retry-After %s (median gap %s)",
	"rule.token_cache_miss.title":              "%s fetches a token before most calls",
	"rule.token_cache_miss.advice":             "Cache the token in %s for 80 %% of its TTL and refresh it in the background before it expires, one refresher at a time (single-flight / lock): %d token requests for %d calls.",
	"rule.error_burst.title":                   "Error burst on %s",
	"rule.error_burst.path":                    "No upstream answered the failed calls on %s: the path failed (gateway, network, or no healthy upstream). Check the gateway and upstream health, then capacity.",
	"rule.error_burst.page":                    "Page %s: an upstream was reached for the failed calls, so the backend failed them. Check its capacity.",
	"rule.error_burst.owner":                   "the owner of upstream %s",
	"rule.error_burst.then":                    " (then %s)",
	"rule.error_burst.backend":                 "the backend of %s",
	"rule.error_burst.timeouts":                " %d of the errors are time-outs (504/499): if that is the client's or gateway's limit, raise it or stream the response.",
	"rule.latency_regression.title":            "%s p99 of %s rose %.1f× over the previous hour",
	"rule.latency_regression.title_day":        "%s p99 of %s rose %.1f× over the same hour a day before",
	"rule.latency_regression.advice":           "Look at what changed for %s since %s (deploys, upstream capacity, traffic mix): its %s p99 went from %.0f ms to %.0f ms.",
	"rule.latency_regression.upstream":         ", the time grew in the upstream (%+.0f ms mean), not the network (%+.0f ms)",
	"rule.latency_regression.first_token":      ", the time grew before the first token (%+.0f ms mean; upstream %+.0f ms, network %+.0f ms)",
	"rule.latency_regression.network":          ", the time grew in the network (%+.0f ms mean), not the upstream (%+.0f ms)",
	"rule.timeout_ceiling.title":               "Requests cut at a time-out ceiling on %s",
	"rule.timeout_ceiling.titleat":             "Requests cut at a time-out ceiling of %[2]s on %[1]s",
	"rule.timeout_ceiling.advice":              "These requests end at the same request_time, the limit of a client or gateway: raise the limit, stream the response, or fix what makes them slow.",
}
