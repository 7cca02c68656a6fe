package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"iter"
	"strconv"
)

// docSpan is one element of a document inside a unit's data.
type docSpan struct {
	end  int   // the element ends at data[end]
	line int64 // the element's first line, for its problems
	at   int64 // the line its record object starts on (a hit's _source is later)
	// An OTLP span's resource is data[res:resEnd], put in the unit's
	// data once before the first of its spans there; an OTLP log
	// record's resource's region, so.
	res, resEnd int
	// Of an OTLP log record (otellogs.go): its time, the record's when
	// its line has none (0: none), and its place among the records that
	// start on its line, for its problems (a line of the Collector's
	// file exporter is a batch of them).
	stamp int64
	nth   int32
}

// docBad is an element of a document the reader finds bad (no object, a
// message missing): counted by the worker that parses the elements about
// it, before element before of its unit, so that a window places it as
// those (badPlacer).
type docBad struct {
	before int
	line   int64
	reason string
	passed bool // no request and no bad line: counted in PassedOver
}

// readDoc sends the elements of a JSON document to the workers: each unit
// holds whole elements, newlines kept, and the lines they start on.
func (p *pipeline) readDoc(fs *fileState, br *bufio.Reader) error {
	buf := p.pool.Get().(*[]byte)
	chunk := (*buf)[:0]
	var spans []docSpan
	var bads []docBad
	// The first element's names with a value (jsonKeys, as a JSON-lines
	// file's) pick the file's source, and when it names no caller, the
	// next ones its client (as a JSON-lines file's next lines do): the elements wait in the chunk until there are
	// clientLookahead after the first, or the chunk is full. The file's
	// parsers are made from the schema once the first chunk is sent.
	applied := false
	resGen := -1 // the OTLP resource the chunk holds last
	var res [2]int
	var innerErr error // the lines within cannot be read: the elements are not sent
	apply := func() {
		if applied || len(spans) == 0 {
			return
		}
		applied = true
		if fs.cfg.envelope != NoEnvelope {
			innerErr = p.docLines(fs, chunk, spans)
			return
		}
		if fs.cfg.otel {
			p.applyOTel(fs, chunk, spans)
			return
		}
		// The fields seen are the first element's keys that have a
		// value, as a JSON line's (applySource): a null, "" or "-" is
		// no field the record carries.
		first := chunk[:spans[0].end]
		names := jsonKeys(first, maxNames)
		paths := jsonPaths(first, maxNames)
		p.applySource(fs, names, paths, laterElems(chunk, spans, clientLookahead))
		p.applyTrimmedSpans(fs, first, names, paths)
		if spanSource(fs.source) {
			// Jaeger's or Zipkin's spans, whose times are epochs: no
			// zone to tell.
			fs.cfg.spans = true
			p.applySpans(fs, elemRecords(chunk, spans))
			return
		}
		values := func(n string) [][]byte { return elemValues(chunk, spans, n) }
		p.refuseUntimedSpans(fs, first, names, paths, values)
		// As a JSON line's: a duration alias not in its unit (slog's ns
		// under "duration", in an exported array), the magnitudes a
		// report's --map hint is told from, a TTFT in seconds (Langfuse's
		// and Braintrust's exports).
		fs.tableValueChecks(names, values)
		// A record's own time written without a zone beside the epoch
		// a log service gives it (SLS's get_log_all array), as in JSON
		// lines.
		p.applyEpochZone(fs, names, func(a, b string) [][2][]byte { return elemPairs(chunk, spans, a, b) })
	}
	flush := func() {
		apply()
		if len(spans) > 0 && innerErr == nil {
			*buf = chunk
			p.work <- unit{file: fs, data: chunk, elems: spans, bads: bads, buf: buf}
			buf = p.pool.Get().(*[]byte)
			spans = make([]docSpan, 0, cap(spans))
		} else {
			for _, b := range bads { // no unit: no worker to place them
				if b.passed {
					p.reader.get(fs.index).passed++
				} else {
					p.reader.bad(fs, b.line, b.reason)
				}
			}
		}
		chunk, spans, bads = (*buf)[:0], spans[:0], nil
		resGen = -1
	}
	// A list of CloudWatch Logs events, CloudWatch Logs Insights'
	// results of their @message, a Loki query's streams, or log
	// shippers' records (an Elasticsearch search's hits), told from its
	// first element, has each element read as the line in its message.
	first, env := true, (*topReader)(nil)
	// Vector's native_json events in an array (jq -s of its file sink's
	// lines, or its http sink's batch, [{"log":{…}},…]): each log
	// event's object is read as the element, as a line's is (vector.go);
	// metric and trace events are passed over.
	vectorFirst, vector := true, (*topReader)(nil)
	var sumoMaps *topReader // Sumo Logic's messages whose maps are the records
	// An OTLP log export's records: read as the objects of their
	// attributes (otelMaps); where each is on its line, said in their
	// problems once a line held more than one (otelShared), as the
	// Collector's file exporter writes them, and not of a pretty-printed
	// export's, a record a line.
	var otelMaps, otelShared bool
	var otelLine int64
	var otelNth int32
	nthOf := func() int32 {
		if otelShared = otelShared || otelNth > 1; otelShared {
			return otelNth
		}
		return 0
	}
	// Triton's trace objects (triton.go), told from the first element:
	// paired by id, each request's trace handed on as one record
	// (closeTrace), emitted as an element of its own (paired).
	tritonFirst, paired := true, false
	var triton *tritonPairer
	var emit func(*docElem)
	closeTrace := func(tr *tritonTrace) {
		rec, passed, bad := triton.record(tr)
		switch {
		case passed:
			bads = append(bads, docBad{before: len(spans), line: tr.line, passed: true})
		case bad != "":
			bads = append(bads, docBad{before: len(spans), line: tr.line, reason: bad})
		default:
			paired = true
			emit(&docElem{text: rec, line: tr.line, at: tr.line})
			paired = false
		}
	}
	emit = func(e *docElem) {
		var stamp int64 // an OTLP log record's time
		if e.logRecord || fs.cfg.envelope == EnvOTelLogs {
			if e.line != otelLine {
				otelLine, otelNth = e.line, 0
			}
			otelNth++
		}
		if e.bad != "" {
			bads = append(bads, docBad{before: len(spans), line: e.line, reason: e.bad})
			return
		}
		if tritonFirst {
			tritonFirst = false
			if e.resGen == 0 && !e.logRecord && tritonObject(e.text) {
				triton, vectorFirst, first = newTritonPairer(maxTritonPending), false, false
			}
		}
		if triton != nil && !paired {
			if bad := triton.add(e.text, e.line, closeTrace); bad != "" {
				bads = append(bads, docBad{before: len(spans), line: e.line, reason: bad})
			}
			return
		}
		if vectorFirst {
			vectorFirst = false
			if e.resGen == 0 && !e.logRecord && vectorLine(e.text) {
				vector = &topReader{}
			}
		}
		if vector != nil {
			log, err := vector.vectorEvent(e.text)
			switch {
			case err == errVectorOther:
				bads = append(bads, docBad{before: len(spans), line: e.line, passed: true})
				return
			case err != nil:
				bads = append(bads, docBad{before: len(spans), line: e.line, reason: err.Error()})
				return
			}
			e.text = log
		}
		if first {
			first = false
			fs.cfg.otel = e.resGen > 0
			if fs.cfg.otel {
				// An OTLP trace export: its spans are the records.
			} else if e.logRecord {
				// An OTLP log export: its records' lines, or the objects
				// of their attributes when a parser of the Collector
				// parsed the lines into them.
				env, fs.cfg.envelope = &topReader{}, EnvOTelLogs
				otelMaps = otelFields(e.text, p.ownFields)
			} else if _, _, ok := cloudWatchMessage(e.text, &topReader{}); ok {
				env, fs.cfg.envelope = &topReader{}, EnvCloudWatch
			} else if _, _, ok := new(topReader).papertrailEvent(e.text); ok {
				// Papertrail's search API's events (or its webhook's).
				env, fs.cfg.envelope = &topReader{}, EnvPapertrail
			} else if _, _, err := new(topReader).betterStack(e.text); err == nil {
				// Better Stack's logs: its SQL API's rows in FORMAT
				// JSON's data, its Query API v1's data.
				env, fs.cfg.envelope = &topReader{}, EnvBetterStack
			} else if insightsRows(e.text, fs.cfg.schema) {
				env, fs.cfg.envelope = &topReader{}, EnvInsights
			} else if azureContainerRows(e.text, fs.cfg.schema) {
				// Log Analytics' rows of a container's lines
				// (ContainerLogV2, ContainerLog).
				env, fs.cfg.envelope = &topReader{}, EnvAzureContainer
			} else if _, _, _, raw, ok := new(topReader).sumoMessage(e.text, fs.cfg.schema); ok {
				// Sumo Logic's messages: their lines, or, when the query
				// parsed them, the fields of their maps.
				if raw {
					env, fs.cfg.envelope = &topReader{}, EnvSumo
				} else {
					sumoMaps = &topReader{}
				}
			} else if _, _, ok := new(topReader).splunkResult(e.text, fs.cfg.schema); ok {
				// A Splunk search job's results, the events' lines in
				// their _raw.
				env, fs.cfg.envelope = &topReader{}, EnvSplunk
			} else if _, _, ok := new(topReader).grafanaRow(e.text); ok {
				// Grafana's logs downloaded as JSON.
				env, fs.cfg.envelope = &topReader{}, EnvGrafana
			} else if _, _, err := new(topReader).loki(e.text); err == nil {
				// A Loki query's streams (lokiValue), or logcli's lines
				// in an array.
				env, fs.cfg.envelope = &topReader{}, EnvLoki
			} else if _, _, err := new(topReader).cloudLogging(e.text); err == nil {
				// Cloud Logging's entries of a container's lines
				// (gcloud logging read --format=json).
				env, fs.cfg.envelope = &topReader{}, EnvCloudLogging
			} else if _, _, err := new(topReader).datadogLog(e.text); err == nil {
				// Datadog's logs whose lines no pipeline parsed (its
				// Logs API's data or logs).
				env, fs.cfg.envelope = &topReader{}, EnvDatadog
			} else if rec, _, err := new(topReader).clsRecord(e.text); err == nil && (rec[0] == '{' || clsResult(e.text)) {
				// A CLS record, or a search result of a full-text topic,
				// whose LogJson holds a line.
				env, fs.cfg.envelope = &topReader{}, EnvCLS
			} else if dockerLine(e.text) {
				// Fluent Bit's records of a container's lines, Docker's
				// or a CRI log's (its es output: the EFK stack).
				env, fs.cfg.envelope = &topReader{}, EnvDocker
			} else if _, _, journald, err := new(topReader).shipped(e.text); err == nil && !journald && !p.ownFields(e.text) {
				env, fs.cfg.envelope = &topReader{}, EnvShipper
			}
			fs.cfg.unwrapped = env != nil
		}
		if sumoMaps != nil {
			m, _, _, _, ok := sumoMaps.sumoMessage(e.text, nil)
			if !ok {
				bads = append(bads, docBad{before: len(spans), line: e.line, reason: "not a Sumo Logic message: want {\"map\":{…}}"})
				return
			}
			e.text = m
		}
		if env != nil {
			env.p.scratch = env.p.scratch[:0]
			var msg []byte
			var ok bool
			switch fs.cfg.envelope {
			case EnvShipper:
				var err error
				msg, _, _, err = env.shipped(e.text)
				ok = err == nil
			case EnvOTelLogs:
				// Its time is put beside its record (docSpan.stamp), not
				// in it: it is the record's only when the line has none.
				var err error
				if msg, stamp, err = env.otelLog(e.text, otelMaps); err != nil {
					bads = append(bads, docBad{before: len(spans), line: e.line, reason: otelNthReason(nthOf(), err.Error())})
					return
				}
				ok = true
			case EnvAzureContainer:
				// The row's TimeGenerated is put beside its record, as an
				// OTLP log record's time: the record's when the line, of
				// any format, has none.
				if msg, stamp, ok = env.azureContainerRow(e.text); ok && len(msg) > 0 && msg[0] == '{' {
					// A JSON line's object, as a pretty-printed answer
					// indents it.
					env.obj = appendCompact(env.obj[:0], msg)
					msg = env.obj
				}
			case EnvCLS:
				// The search result's Time is the record's when it has
				// none of its own: put before its members.
				rec, stamp, err := env.clsRecord(e.text)
				if ok = err == nil && len(rec) > 0; ok {
					msg = rec // a full-text topic's line
					if rec[0] == '{' {
						msg = withTime(env.bytes[:0], rec, stamp)
						env.bytes = msg
					}
				}
			default:
				// An event's time (epoch ms) is the record's when it has
				// none of its own, as a CLS record's.
				var stamp []byte
				switch fs.cfg.envelope {
				case EnvInsights:
					msg, stamp, ok = env.insightsMessage(e.text)
				case EnvSumo:
					_, msg, stamp, ok, _ = env.sumoMessage(e.text, nil)
				case EnvLoki:
					var err error
					msg, stamp, err = env.loki(e.text)
					if ok = err == nil; ok {
						stamp = env.epochMs(stamp)
					}
				case EnvDocker:
					// Each record is read as a whole line: the parts of
					// a cut line are not joined across a document's
					// elements (Fluent Bit's docker and cri multiline
					// parsers join them before they are stored).
					c, err := env.fields(e.text)
					if ok = err == nil; ok {
						msg, stamp = c.log, env.epochMs(c.stamp)
					}
				case EnvSplunk:
					if msg, stamp, ok = env.splunkResult(e.text, nil); ok {
						stamp = env.epochMs(stamp)
					}
				case EnvGrafana:
					if msg, stamp, ok = env.grafanaRow(e.text); ok {
						stamp = env.epochMs(stamp)
					}
				case EnvCloudLogging:
					var err error
					msg, stamp, err = env.cloudLogging(e.text)
					if ok = err == nil; ok {
						stamp = env.epochMs(stamp)
						if len(msg) > 0 && msg[0] == '{' {
							// A jsonPayload as gcloud indents it.
							env.obj = appendCompact(env.obj[:0], msg)
							msg = env.obj
						}
					}
				case EnvDatadog:
					var err error
					msg, stamp, err = env.datadogLog(e.text)
					if ok = err == nil; ok {
						stamp = env.epochMs(stamp)
					}
				case EnvPapertrail:
					if msg, stamp, ok = env.papertrailEvent(e.text); ok {
						stamp = env.epochMs(stamp)
					}
				case EnvBetterStack:
					var err error
					msg, stamp, err = env.betterStack(e.text)
					ok = err == nil
				default:
					msg, stamp, ok = cloudWatchMessage(e.text, env)
				}
				if ok && len(msg) > 0 && msg[0] == '{' && stamp != nil {
					msg = withTime(env.bytes[:0], msg, stamp)
					env.bytes = msg
				}
			}
			switch {
			case !ok:
				bads = append(bads, docBad{before: len(spans), line: e.line, reason: "not a " + fs.cfg.envelope.describe() + ": its message is missing"})
				return
			case blank(msg):
				return // a blank line
			}
			e.text = msg
		}
		// An element is at most MaxLine bytes and the chunk is flushed
		// past chunkSize, so the pool's buffer never grows; nor with a
		// span's resource, at most MaxLine bytes too, before it.
		if fs.cfg.otel && e.resGen != resGen {
			if len(chunk)+len(e.res)+len(e.text) > cap(chunk) {
				flush()
			}
			res[0] = len(chunk)
			chunk = append(chunk, e.res...)
			res[1], resGen = len(chunk), e.resGen
		}
		if fs.cfg.envelope == EnvOTelLogs && e.regionGen != resGen {
			// An OTLP log record's resource's region, once before the
			// first of its records in the chunk, as a span's resource.
			if len(chunk)+len(e.region)+len(e.text) > cap(chunk) {
				flush()
			}
			res[0] = len(chunk)
			chunk = append(chunk, e.region...)
			res[1], resGen = len(chunk), e.regionGen
		}
		chunk = append(chunk, e.text...)
		sp := docSpan{end: len(chunk), line: e.line, at: e.at, res: res[0], resEnd: res[1], stamp: stamp}
		if fs.cfg.envelope == EnvOTelLogs {
			sp.nth = nthOf()
		}
		spans = append(spans, sp)
		// An OTLP file's first chunk, whole, tells what its records are
		// (applyOTel).
		if len(spans) > clientLookahead && !fs.cfg.otel {
			apply()
		}
		if len(chunk) >= chunkSize {
			flush()
		}
	}
	d := newDocReader(br, fs.cfg.schema, emit)
	err := d.run()
	if triton != nil {
		// The traces still open, also when the document is cut short
		// (Triton writes its closing "]" only when it stops).
		triton.drain(closeTrace)
	}
	flush()
	p.pool.Put(buf)
	if innerErr != nil {
		return innerErr
	}
	if err == nil && d.enveloped && d.partial != "" {
		return fmt.Errorf("the answer says it is partial (%s): records it could not gather are missing", d.partial)
	}
	if err == nil && d.rows && len(d.status) > 0 && string(d.status) != "Complete" {
		// Scheduled, Running (the results so far), Timeout, Cancelled…
		return fmt.Errorf("the CloudWatch Logs Insights query's status is %q, not Complete: its results may be partial", d.status)
	}
	return err
}

// docLines tells the format and source of the lines a document's
// elements hold in their messages (the first chunk's, spans ending
// them), as readFile tells a file's.
func (p *pipeline) docLines(fs *fileState, chunk []byte, spans []docSpan) error {
	head := make([]byte, 0, len(chunk)+len(spans))
	start := 0
	for _, sp := range spans {
		head = append(append(head, chunk[max(start, sp.resEnd):sp.end]...), '\n')
		start = sp.end
	}
	f := sniff(pastOwnLog(head), p.given)
	switch f {
	case JSONL:
		first := chunk[spans[0].resEnd:spans[0].end]
		p.applySource(fs, jsonKeys(first, maxNames), jsonPaths(first, maxNames), laterElems(chunk, spans, clientLookahead))
	case CLB:
		fs.source = "clb"
		p.applySource(fs, nil, nil, nil)
	case Nginx:
		fs.cfg.nginx, fs.pastFormat = p.textFormat(head)
		fs.cfg.client = textClientOf(fs.cfg.nginx, pastOwnLog(head))
		p.applyServerLog(fs, head)
	case LTSV, HAProxy, Gin, Tracing:
	default:
		return fmt.Errorf("%s lines within a %s are not read", f, fs.cfg.envelope.describe())
	}
	fs.format = f
	if src, seen := describeText(f, &fs.cfg, head); src != "" || seen != nil {
		if fs.source == "" {
			fs.source = src
		}
		if fs.seen == nil {
			fs.seen = seen
		}
	}
	_, err := newLineParser(f, &fs.cfg)
	return err
}

// laterElems yields the names and paths of the elements of chunk after
// its first (spans end them), at most n.
func laterElems(chunk []byte, spans []docSpan, n int) iter.Seq2[[]string, []string] {
	return func(yield func([]string, []string) bool) {
		for i := 1; i < len(spans) && i <= n; i++ {
			e := chunk[max(spans[i-1].end, spans[i].resEnd):spans[i].end]
			if !yield(jsonKeys(e, maxNames), jsonPaths(e, maxNames)) {
				return
			}
		}
	}
}

// elemPairs returns the raw values of names a and c in each of the
// first elements of chunk (spans ending them) that has both, as
// jsonPairs does for JSON lines.
func elemPairs(chunk []byte, spans []docSpan, a, c string) [][2][]byte {
	var ps [][2][]byte
	start := 0
	for _, sp := range spans {
		if len(ps) >= maxUnitValues {
			break
		}
		e := chunk[max(start, sp.resEnd):sp.end]
		start = sp.end
		if va, vc := jsonValue(e, a), jsonValue(e, c); va != nil && vc != nil {
			ps = append(ps, [2][]byte{va, vc})
		}
	}
	return ps
}

// elemValues returns the raw values of name in the first elements of
// chunk (spans ending them), at most maxUnitValues, as durationValues
// does for JSON lines.
func elemValues(chunk []byte, spans []docSpan, name string) [][]byte {
	var vs [][]byte
	for _, p := range elemPairs(chunk, spans, name, name) {
		vs = append(vs, p[0])
	}
	return vs
}

// parseDoc parses the elements of a document's unit.
func (p *pipeline) parseDoc(u unit, lp lineParser, f *feed, t *tally) {
	c := t.get(u.file.index)
	records, start := c.records, 0
	f.use(lp)
	fix, tcp := statusFixOf(u.file.source), tcpLines(u.file.source)
	otel, _ := lp.(*otelParser)
	place := newBadPlacer(&p.opts.Window, c)
	bads := u.bads
	for i, e := range u.elems {
		for len(bads) > 0 && bads[0].before <= i {
			docBadTo(t, c, u.file, bads[0])
			bads = bads[1:]
		}
		if otel != nil {
			// The span's resource, and the span after it.
			otel.res = u.data[e.res:e.resEnd]
		}
		start = max(start, e.resEnd) // past a resource, or a log record's region
		text := u.data[start:e.end]
		start = e.end
		rec := f.record()
		rec.reset(u.file.cfg.schema)
		rec.parts = u.file.partConsts()
		err := lp.Parse(text, rec)
		if err == nil && e.stamp != 0 && rec.Fields() != 0 && !rec.Has(FTime) {
			// An OTLP log record's time, its line having none.
			rec.TimeNS, rec.set, rec.prio[FTime] = e.stamp, rec.set|1<<FTime, prioDerived
		}
		if err == nil && e.resEnd > e.res && otel == nil && rec.Fields() != 0 && !rec.Has(FRegion) {
			// An OTLP log record's resource's region: the record's own
			// wins.
			rec.putText(FRegion, prioDerived, u.data[e.res:e.resEnd])
		}
		if errors.Is(err, errPassOver) {
			c.passed++ // a server's own line in an element's message, as in a file's lines
		} else if err != nil {
			t.badErr(u.file, e.line, err, otelNthReason(e.nth, docReason(err, text, e)))
		} else if rec.Fields() == 0 {
			t.bad(u.file, e.line, otelNthReason(e.nth, noFieldReason(text)))
		} else if !u.file.cfg.schema.request(rec) || tcp != nil && tcp(rec) {
			c.passed++
		} else if u.file.cfg.schema.stray(rec) {
			t.bad(u.file, e.line, errOnlyTime)
		} else {
			fixStatus(rec, fix)
			place.record(c, rec)
			c.records++
			c.noRT += rec.lacks(FRequestTime)
			if rec.unread != 0 {
				t.unreadValues(u.file, e.line, rec)
			}
			f.add()
		}
	}
	for _, b := range bads { // after the unit's last element
		docBadTo(t, c, u.file, b)
	}
	place.end(c)
	f.flush() // before the unit's buffer goes back to the pool
	p.opts.Progress.Records.Add(c.records - records)
}

// docBadTo counts b, the file's, in t: a bad line, or one passed over
// (c, the file's counts).
func docBadTo(t *tally, c *counters, fs *fileState, b docBad) {
	if b.passed {
		c.passed++
		return
	}
	t.bad(fs, b.line, b.reason)
}

// otelNthReason is reason for the nth OTLP log record that starts on its
// line (0: for an element of another document, reason as it is): a line
// of the Collector's file exporter holds many.
func otelNthReason(nth int32, reason string) string {
	if nth == 0 {
		return reason
	}
	return "log record " + strconv.Itoa(int(nth)) + " on the line: " + reason
}

// docReason says where in the file a JSON error inside an element is,
// when the element spans lines: the column the parser gives counts from
// the start of the element.
func docReason(err error, text []byte, e docSpan) string {
	je, ok := err.(*jsonError)
	if !ok || je.col < 1 || je.col > len(text)+1 {
		return err.Error()
	}
	before := text[:je.col-1]
	n := bytes.Count(before, []byte{'\n'})
	switch {
	case n > 0:
		col := len(before) - bytes.LastIndexByte(before, '\n')
		return fmt.Sprintf("invalid JSON at line %d, column %d: %s", e.at+int64(n), col, je.msg)
	case e.at != e.line:
		return fmt.Sprintf("invalid JSON at line %d: %s", e.at, je.msg)
	}
	return err.Error()
}

// jsonShape tells a JSON document from JSON lines by a file's first bytes.
// An array, an envelope or an Elasticsearch hit on the first line, several
// objects on it, or an object that spans lines make a document. A first
// line holding one whole object (or a damaged one followed by a whole one)
// makes JSON lines, the fast path.
func jsonShape(br *bufio.Reader, s *Schema) Format {
	head, _ := br.Peek(64 << 10)
	// A container's log may begin with the server's own lines (Envoy's
	// "[2025-03-10 17:59:52.968][1][warning][main] …", before Envoy
	// Gateway's JSON access log): its shape is the lines' after them.
	head = pastOwnLog(bytes.TrimPrefix(head, []byte("\ufeff")))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 || head[0] != '{' && head[0] != '[' {
		return JSONL
	}
	if head[0] == '[' {
		return JSONDoc
	}
	first, rest, multiline := bytes.Cut(head, []byte{'\n'})
	d, err := probeDoc(first, s)
	e, _ := err.(*docError)
	switch {
	case d.enveloped && d.tops == 1 && !d.rows && hasField(first, s):
		// A JSON line whose "items" list comes before its fields: the
		// reader, which cannot look ahead, would take it for an envelope.
		// Insights' results and an SQL answer's rows, whose "status"
		// may follow them, are none.
		return JSONL
	case d.enveloped || d.unwrapped || err == nil && d.tops > 1:
		return JSONDoc
	case d.tops > 1 && e != nil && e.eof && !multiline:
		// Objects one after another with no line between them (a
		// Firehose delivery to S3), past the head.
		return JSONDoc
	case err == nil || e == nil || !e.eof || !multiline:
		// One object, a damaged line, or a line longer than the head.
		return JSONL
	}
	// The first object goes on past its line: a document, unless the next
	// line is a whole object (the first line was cut short).
	rest = bytes.TrimLeft(rest, " \t\r\n")
	next, _, _ := bytes.Cut(rest, []byte{'\n'})
	if len(next) > 0 && next[0] == '{' {
		if n, err := probeDoc(next, s); err == nil && n.tops == 1 && !n.enveloped {
			return JSONL
		}
	}
	return JSONDoc
}

// probeDoc reads b as a document and tells what it found.
func probeDoc(b []byte, s *Schema) (*docReader, error) {
	d := newDocReader(bufio.NewReaderSize(bytes.NewReader(b), 4096), s, func(*docElem) {})
	err := d.run()
	return d, err
}

// hasField reports whether a top-level member of the object in line is
// a record field: one whose key s reads, with a value that can be its
// (a number's field takes no string of words: the "status" of an API's
// answer, "done" or "Complete", is none).
func hasField(line []byte, s *Schema) bool {
	found := false
	eachTop(line, 1<<10, func(k string, val []byte) bool {
		found = !noValueOf(s.LookupString(k), val)
		return !found
	})
	return found
}

// noValueOf reports whether val, a JSON value's raw text, can be the
// value of none of the fields of bind: there are none, or they are
// numbers and val is a string that holds no digit (nor an escape, which
// may write one).
func noValueOf(bind Bindings, val []byte) bool {
	if len(bind) == 0 {
		return true
	}
	for _, b := range bind {
		if kind := b.Field.Kind(); kind != KindInt && kind != KindFloat {
			return false
		}
	}
	return len(val) > 1 && val[0] == '"' && bytes.IndexFunc(val, func(r rune) bool { return r >= '0' && r <= '9' || r == '\\' }) < 0
}

// topKeys returns the keys of the object in text, in order, at most max.
func topKeys(text []byte, max int) []string {
	var keys []string
	eachTop(text, max, func(k string, _ []byte) bool {
		keys = append(keys, k)
		return true
	})
	return keys
}

// eachTop calls f with the key and the value's text of each member of
// the object in text, in order, at most max, until f returns false.
func eachTop(text []byte, max int, f func(key string, val []byte) bool) {
	var p jsonParser
	s := scanner{b: text}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return
	}
	s.i++
	for n := 0; n < max; n++ {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			break
		}
		k, err := p.str(&s)
		if err != nil {
			break
		}
		key := string(k)
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			f(key, nil) // a key cut short of its value still names it
			break
		}
		s.i++
		s.ws()
		if s.i >= len(s.b) {
			f(key, nil)
			break
		}
		from := s.i
		switch s.b[s.i] {
		case '{', '[':
			err = s.skip()
		case '"':
			err = skipString(&s)
		default:
			for s.i < len(s.b) && isLiteral(s.b[s.i]) {
				s.i++
			}
		}
		// A value cut short still names its key, as the object's first
		// bytes do.
		if !f(key, s.b[from:s.i]) || err != nil {
			break
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ',' {
			break
		}
		s.i++
	}
}
