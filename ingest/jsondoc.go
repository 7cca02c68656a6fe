package ingest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"time"
)

// A JSON document (SPEC §3) holds its records as the elements of an
// array, as pretty-printed or concatenated objects, or inside an API
// envelope: {"data":{"items":[…]}}, {"data":[…]}, {"items":[…]},
// {"logs":[…]}, {"records":[…]}, {"events":[…]} (CloudWatch Logs, whose
// elements' messages hold the records), {"result":[…]} (Cloudflare's API:
// {"result":[…],"result_info":{…},"success":true,"errors":[],
// "messages":[]}), {"runs":[…]} (LangSmith's POST /api/v1/runs/query:
// {"runs":[…],"cursors":{…},"parsed_query":…}), {"content":[{"id":…},
// …]} (Opik's REST API pages, idsAhead), {"hits":{"hits":[…]}},
// {"Response":{"Results":[…]}} (Tencent Cloud's SearchLog API, whose
// elements' LogJson hold the records), {"results":[…]}, {"messages":
// [{"map":…}]} (Sumo Logic's search messages, mapsAhead); traces:
// Jaeger's {"data":[{"traceID":…,"spans":[…]}]}, each span an element,
// Zipkin's [[span,…],…], and OTLP's resourceSpans under "result"
// (Jaeger's api_v3), "trace" or "batches" (Tempo's). Some answers
// hold their records in arrays, each handed on as an object as it is
// read (arrayItem): CloudWatch Logs Insights' query results (aws logs
// get-query-results: {"results":[[{"field":"@timestamp","value":"…"},
// …],…],"statistics":{…},"status":"Complete"}), each row the object of
// its fields (insightsRow); Loki's query API streams ({"data":{"result":
// [{"stream":{…},"values":[["<ns>","LINE"],…]}]}}), each value logcli's
// object of a line (lokiValue); a query answer's tables ({"tables":
// [{"columns":[…],"rows":[[…]]}]}: Azure Monitor Logs, Kusto) and an SQL
// answer's columns and rows (Elasticsearch's ES|QL and SQL, OpenSearch's
// SQL), each row the object of its columns (tableRow).
// An element with an
// object "_source" (an Elasticsearch / OpenSearch hit) stands for that
// object. The docReader finds the elements in a stream, copying one at a
// time, so that a document of any size is read in bounded memory; the
// workers parse each element with the JSON lines parser.

// maxDocDepth is how deeply brackets may nest in a document.
const maxDocDepth = 1 << 16

// docElem is one element as the reader hands it on.
type docElem struct {
	text []byte // the record object, newlines kept; nil for a bad element
	line int64  // the element's first line
	at   int64  // the line text starts on
	bad  string // why the element is not a record
	// Of an OTLP trace export's span: the resource the span belongs to
	// (valid during the call, as text), and which of the export's
	// resources it is.
	res    []byte
	resGen int
	// logRecord: the element is an OTLP log export's log record
	// (otellogs.go); region its resource's cloud.region (valid during
	// the call, nil for none), regionGen which of the export's resources
	// it is.
	logRecord bool
	region    []byte
	regionGen int
}

// docError is a syntax error that ends the reading of a document.
type docError struct {
	line int64
	msg  string
	eof  bool // the input ended inside the document
}

func (e *docError) Error() string {
	return fmt.Sprintf("invalid JSON document at line %d: %s", e.line, e.msg)
}

// docReader walks a JSON document and hands each element to emit, in
// order; the element's text is valid only during the call. A bad element
// (not an object, longer than MaxLine, cut short by an error) is handed on
// with its reason.
type docReader struct {
	br     *bufio.Reader
	schema *Schema
	emit   func(*docElem)
	buf    []byte // what br holds; buf[pos:] is unread
	pos    int
	line   int64 // the line of buf[pos]
	done   bool  // the input ended
	err    error // the read error that ended it, if any

	elem     []byte // the element being read
	elemLine int64  // its first line; 0 between elements
	keep     bool   // bytes read go to elem
	over     bool   // elem passed limit and was dropped
	limit    int    // MaxLine, or maxColumnTable for a table by column
	src      [2]int // elem[src[0]:src[1]] is the element's _source
	srcLine  int64  // the line _source starts on
	// A search hit without a _source (Kibana's Discover asks for its
	// fields instead: "_source": false): hit, the element has _index or
	// _id; hitFields, elem[hitFields[0]:hitFields[1]] is its "fields"
	// object, each field's values an array, and hitRec that object with
	// each one-value array written as its value (hitRecord).
	hit          bool
	hitFields    [2]int
	hitFieldLine int64
	hitRec       []byte
	fields       bool   // the top-level object carries a record field
	inEnv        bool   // the top-level object is an envelope
	index        bool   // the top-level object is a table by index (pandas')
	key          []byte // the last key read, while it is short
	row          []byte // an array's item as an object (arrayItem)
	// stream: the element is a Loki stream ("stream" read); spent: its
	// "values" were handed on, a line each (lokiValue), or its "rows"
	// (tableRow), or a Jaeger trace's "spans".
	stream, spent bool
	// trace: the element is a Jaeger trace ("traceID" read at its
	// level), whose "spans" are the records.
	trace bool
	// inTables: the elements are a query answer's tables (Azure Monitor
	// Logs' and Kusto's {"tables":[{"columns":[…],"rows":[…]}]}); cols
	// are the raw names of the columns of the table being read, in
	// colNames.
	inTables bool
	cols     [][]byte
	colNames []byte
	// bareCols: the columns were names alone (readColumns).
	bareCols bool
	open     []uint64 // bit i: the bracket open at depth i is a brace
	out      docElem  // handed to emit, so that it is not allocated

	// What the reader found, for telling documents from JSON lines.
	tops      int    // top-level values
	enveloped bool   // an envelope's array
	unwrapped bool   // a hit's _source
	rows      bool   // Insights' rows, or an SQL answer's, or a table's by column
	status    []byte // the "status" after Insights' rows ("Complete")
	partial   string // what said the answer is partial ("is_partial: true")

	// nrEvents: the elements being read are New Relic's query results,
	// each holding its events in "events" (eventsAhead).
	nrEvents bool
	// An OTLP trace export (otel.go): its spans are the elements, each
	// handed on with the resource read before it.
	otel   bool
	res    []byte
	resGen int
	// logs: the elements being read are an OTLP log export's log
	// records (otellogs.go); logRegion their resource's cloud.region,
	// logResGen which resource.
	logs      bool
	logRegion []byte
	logResGen int
	// Of a table by index whose keys are times (a DatetimeIndex's):
	// idxKey, the key of the row being read; stampRows, its rows carry
	// no time of their own (told by its first: stampTold), so that each
	// is handed on with its key as its time (stampIndexRow).
	idxKey               []byte
	stampRows, stampTold bool
}

func newDocReader(br *bufio.Reader, s *Schema, emit func(*docElem)) *docReader {
	return &docReader{br: br, schema: s, emit: emit, line: 1, limit: MaxLine}
}

// run reads the whole input. An error means the document was read only in
// part; it has been counted as a bad element before it is returned.
func (d *docReader) run() error {
	if d.more() && len(d.buf) >= 3 && string(d.buf[:3]) == "\ufeff" {
		d.pos = 3
	}
	for {
		c, ok := d.ws()
		if !ok {
			break
		}
		d.tops++
		var err error
		switch c {
		case '[':
			d.pos++
			err = d.topArray()
		case '{':
			err = d.element(true)
		default:
			err = d.syntax("want '[' or '{'")
		}
		if err != nil {
			return d.fail(err)
		}
	}
	if d.err != nil {
		return d.fail(d.err)
	}
	return nil
}

// fail counts the element, or the place, where reading stopped.
func (d *docReader) fail(err error) error {
	line := d.line
	if d.elemLine > 0 {
		line = d.elemLine
	}
	if e, ok := err.(*docError); ok {
		d.emit(&docElem{line: line, bad: e.Error()})
		return err
	}
	err = readError(err)
	if d.elemLine > 0 {
		d.emit(&docElem{line: line, bad: err.Error()})
	}
	return err
}

// listItem reads an item of a top-level array: an element, or a list of
// them, each an element: Zipkin's /api/v2/traces answers a list of
// traces, each a list of spans (openzipkin/zipkin-api zipkin2-api.yaml,
// ListOfTraces).
func (d *docReader) listItem() error {
	if d.buf[d.pos] == '[' {
		return d.elems(func() error { return d.element(false) })
	}
	return d.element(false)
}

// otlpAhead reports whether the array at d.pos begins as an OTLP trace
// export's resourceSpans do, with an object of a "resource", or of spans
// by scope: Tempo's {"batches":[…]}.
func (d *docReader) otlpAhead() bool {
	b := d.firstKeyAhead(128)
	return bytes.HasPrefix(b, []byte(`"resource"`)) || bytes.HasPrefix(b, []byte(`"scopeSpans"`)) ||
		bytes.HasPrefix(b, []byte(`"instrumentationLibrarySpans"`))
}

// array reads the elements of the array whose '[' was just read.
func (d *docReader) array() error {
	return d.arrayOf(func() error { return d.element(false) })
}

// arrayOf reads the array whose '[' was just read, calling each with
// d.pos at an element.
func (d *docReader) arrayOf(each func() error) error {
	c, ok := d.ws()
	if !ok {
		return d.truncated()
	}
	if c == ']' {
		d.pos++
		return nil
	}
	for {
		if err := each(); err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.truncated()
		}
		d.pos++
		switch c {
		case ']':
			return nil
		case ',':
			if _, ok = d.ws(); !ok {
				return d.truncated()
			}
		default:
			d.pos--
			return d.syntax("want ',' or ']' after an element")
		}
	}
}

// element reads one element at d.pos and hands it on. A top-level object
// may turn out to be an envelope, whose elements are handed on instead.
func (d *docReader) element(top bool) error {
	line := d.line
	d.elemLine = line // left set on an error, for fail
	if d.buf[d.pos] != '{' {
		d.keep = false
		if err := d.value(); err != nil {
			return err
		}
		d.out = docElem{line: line, bad: errNotObject.Error()}
		d.emit(&d.out)
		d.elemLine = 0
		return nil
	}
	d.elem, d.keep, d.over, d.src, d.fields, d.inEnv = d.elem[:0], true, false, [2]int{}, false, false
	d.hit, d.hitFields = false, [2]int{}
	d.stream, d.spent, d.trace = false, false, false
	d.cols, d.colNames, d.bareCols = d.cols[:0], d.colNames[:0], false
	if top {
		d.index, d.idxKey, d.stampTold = false, d.idxKey[:0], false
		if d.columnsAhead() {
			return d.columnTable(line)
		}
	}
	if wholeElements && !d.nrEvents { // a result holding events: member reads them
		if n, lines, src, srcLines, ok := wholeElement(d.buf[d.pos:], top); ok {
			// Read whole from the buffer, as object would read it.
			d.elem = append(d.elem, d.buf[d.pos:d.pos+n]...)
			d.pos, d.line = d.pos+n, d.line+lines
			d.elemLine, d.keep = 0, false
			d.out = docElem{line: line, at: line, text: d.elem}
			if src[1] > 0 { // a hit's _source is the record
				d.src, d.srcLine, d.unwrapped = src, line+srcLines, true
				d.out.text, d.out.at = d.elem[src[0]:src[1]], d.srcLine
			}
			if d.otel {
				d.out.res, d.out.resGen = d.res, d.resGen
			}
			d.out.logRecord = d.logs
			if d.logs {
				d.out.region, d.out.regionGen = d.logRegion, d.logResGen
			}
			d.stampIndexRow()
			d.emit(&d.out)
			return nil
		}
	}
	if err := d.object(1, top); err != nil {
		return err
	}
	d.elemLine, d.keep = 0, false // the whitespace after it is not kept
	d.out = docElem{line: line, at: line, text: d.elem}
	switch {
	case d.inEnv, d.spent: // an envelope, or a Loki stream or a table whose lines or rows were handed on
		return nil
	case d.over:
		d.out = docElem{line: line, bad: fmt.Sprintf("element longer than %d bytes", MaxLine)}
	case d.src[1] > 0:
		d.out.text, d.out.at = d.elem[d.src[0]:d.src[1]], d.srcLine
	case d.hit && d.hitFields[1] > 0:
		d.hitRec = hitRecord(d.hitRec[:0], d.elem[d.hitFields[0]:d.hitFields[1]])
		d.out.text, d.out.at, d.unwrapped = d.hitRec, d.hitFieldLine, true
	}
	if d.otel {
		d.out.res, d.out.resGen = d.res, d.resGen
	}
	d.out.logRecord = d.logs && d.out.bad == ""
	if d.out.logRecord {
		d.out.region, d.out.regionGen = d.logRegion, d.logResGen
	}
	d.stampIndexRow()
	d.emit(&d.out)
	return nil
}

// object reads the object at d.pos member by member: level 1 is an
// element, level 2 the object under a top-level "data" or "hits". In a
// top-level object, an envelope key holding an array, before any record
// field, makes the object an envelope.
func (d *docReader) object(level int, top bool) error {
	d.take1()
	c, ok := d.ws()
	if !ok {
		return d.truncated()
	}
	if c == '}' {
		d.take1()
		return nil
	}
	for first := true; ; first = false {
		if c != '"' {
			return d.syntax("want a key")
		}
		d.key = d.key[:0]
		if err := d.str(true); err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.truncated()
		} else if c != ':' {
			return d.syntax("want ':'")
		}
		d.take1()
		if c, ok = d.ws(); !ok {
			return d.truncated()
		}
		if err := d.member(level, top, c, first); err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.truncated()
		}
		switch c {
		case ',':
			d.take1()
			if c, ok = d.ws(); !ok {
				return d.truncated()
			}
		case '}':
			d.take1()
			return nil
		default:
			return d.syntax("want ',' or '}'")
		}
	}
}

// member reads the value of the member whose key was just read; c is its
// first byte, and first tells whether it is its object's first member.
func (d *docReader) member(level int, top bool, c byte, first bool) error {
	k := d.key
	envelope := top && (d.inEnv || !d.fields)
	if level == 1 && !d.inEnv && (string(k) == "_index" || string(k) == "_id") {
		d.hit = true
	}
	if level == 1 && string(k) == "traceID" {
		d.trace = true
	}
	switch {
	case level == 1 && c == '{' && string(k) == "fields" && !d.inEnv:
		// A hit's fields, the record when it has no _source.
		start, line := len(d.elem), d.line
		if err := d.nested(0); err != nil {
			return err
		}
		d.hitFields, d.hitFieldLine = [2]int{start, len(d.elem)}, line
		return nil
	case level == 1 && c == '{' && string(k) == "_source" && !d.inEnv:
		start, line := len(d.elem), d.line
		if err := d.nested(0); err != nil {
			return err
		}
		d.src, d.srcLine, d.unwrapped = [2]int{start, len(d.elem)}, line, true
		return nil
	case top && level == 1 && c == '[' && !d.fields && (string(k) == "columns" || string(k) == "schema" || string(k) == "meta"):
		// An SQL answer's columns (Elasticsearch's SQL and ES|QL,
		// OpenSearch's SQL and PPL), ClickHouse's "meta" (its formats
		// JSON and JSONCompact: https://clickhouse.com/docs/interfaces/formats/JSONCompact)
		// or the column names of pandas' to_json(orient='split'), for
		// its rows after them.
		return d.readColumns(string(k) == "columns")
	case top && level == 1 && c == '[' && len(d.cols) > 0 && ((string(k) == "rows" || string(k) == "values" || string(k) == "datarows") && !d.bareCols ||
		string(k) == "data" && !d.fields && d.arraysAhead()):
		// Its rows, a record each; the answer is no record, whatever
		// follows them (OpenSearch's "status":200, ClickHouse's "rows"
		// and "statistics"). ClickHouse's JSONCompact and
		// JSONCompactStrings, and pandas' split, write them in "data"
		// as arrays, where its format JSON writes objects (an
		// envelope's, below).
		d.keep, d.inEnv, d.enveloped, d.rows = false, true, true, true
		d.take1()
		err := d.arrayOf(d.tableRow)
		d.elem = d.elem[:0]
		return err
	case top && level == 1 && c == '{' && len(d.cols) > 0 && !d.bareCols && string(k) == "data" && !d.fields:
		// ClickHouse's FORMAT JSONColumnsWithMetadata: its "meta", then
		// its columns in "data", {"col":[v,…],…}, read as JSONColumns'
		// (https://clickhouse.com/docs/interfaces/formats/JSONColumnsWithMetadata);
		// the answer is no record, whatever follows ("totals", "rows").
		return d.metaColumns()
	case envelope && c == '[' && (isEnvelopeKey(k) || string(k) == "messages" && d.mapsAhead() || string(k) == "content" && d.idsAhead()):
		// An envelope's array holds objects, or Insights' rows, arrays
		// (in "results"); {"data":["x"]} is a record.
		d.take1()
		c, ok := d.ws()
		rows := ok && c == '[' && string(k) == "results"
		if ok && c != '{' && c != ']' && !rows {
			d.open = append(d.open[:0], 0)
			return d.nested(1)
		}
		var err error
		tables := string(k) == "tables" || string(k) == "Tables"
		switch {
		case rows:
			err = d.arrayOf(d.insightsRow)
		case tables:
			d.inTables = true
			err = d.array()
			d.inTables = false
		case string(k) == "results" && d.eventsAhead():
			d.nrEvents = true
			err = d.array()
			d.nrEvents = false
		default:
			err = d.array()
		}
		d.elem, d.keep, d.inEnv, d.enveloped = d.elem[:0], false, true, true
		d.rows = d.rows || rows
		return err
	case level == 1 && c == '[' && string(k) == "spans" && d.trace && !d.inEnv:
		// A Jaeger trace, as its query API and its UI's download write
		// it ({"data":[{"traceID":…,"spans":[…],"processes":{…}}]}:
		// jaegertracing/jaeger model/json/model.go, Trace): its spans,
		// a record each (spans.go); the trace is not handed on.
		line := d.elemLine
		d.keep = false
		err := d.elems(func() error { return d.element(false) })
		d.keep, d.spent, d.enveloped, d.elemLine = false, true, true, line
		return err
	case !top && level == 1 && c == '{' && string(k) == "stream":
		d.stream = true // an array's element: a Loki query's stream
		return d.value()
	case !top && level == 1 && c == '[' && string(k) == "values" && d.stream:
		// A Loki stream's lines, a record each: not kept with the
		// element, which is not handed on.
		d.keep, d.spent = false, true
		d.take1()
		return d.arrayOf(d.lokiValue)
	case !top && level == 1 && c == '[' && d.inTables && (string(k) == "columns" || string(k) == "Columns"):
		// A query answer's table: its columns' names, for its rows.
		return d.readColumns(false)
	case !top && level == 1 && c == '[' && d.inTables && (string(k) == "rows" || string(k) == "Rows"):
		// Its rows, a record each, by the columns read before them: not
		// kept with the table, which is not handed on.
		d.keep, d.spent = false, true
		d.take1()
		return d.arrayOf(d.tableRow)
	case top && level == 1 && (d.index || first && c == '{' && indexKey(k)):
		// pandas' table by index, to_json(orient='index'): {"0":{…},
		// "1":{…}}, each member's value a record (jsoncolumns.go). Told
		// by its first key, an index's digits or time.
		d.index, d.inEnv, d.enveloped = true, true, true
		d.idxKey = append(d.idxKey[:0], k...)
		err := d.element(false)
		d.elem, d.keep, d.inEnv, d.idxKey = d.elem[:0], false, true, d.idxKey[:0]
		return err
	case envelope && c == '{' && level == 1 && (string(k) == "data" || string(k) == "hits" || string(k) == "Response" ||
		string(k) == "result" || string(k) == "trace"):
		// The object of an answer's records; "result" Jaeger's
		// /api/v3/traces ({"result":{"resourceSpans":[…]}}: its api_v3
		// HTTP gateway, a stream of TracesData), "trace" Tempo's
		// /api/v2/traces/{id} ({"trace":{"resourceSpans":[…]}}).
		return d.object(2, true)
	case envelope && c == '{' && level == 2 && (string(k) == "actor" || string(k) == "account" || string(k) == "nrql"):
		// New Relic's NerdGraph answer to an NRQL query:
		// {"data":{"actor":{"account":{"nrql":{"results":[…]}}}}}, or
		// data.actor.nrql.results when it asks several accounts
		// (docs.newrelic.com/docs/apis/nerdgraph/examples/
		// nerdgraph-nrql-tutorial).
		return d.object(2, true)
	case !top && level == 1 && c == '[' && string(k) == "events" && d.nrEvents:
		// New Relic's Insights query API: {"results":[{"events":[…]}],
		// "metadata":{…}}, a query's events in its result's "events"
		// (docs.newrelic.com/docs/apis/insights-apis/query-insights-
		// event-data-api). The result is not handed on, its events are,
		// each read as an element of its own.
		d.nrEvents = false
		d.take1()
		err := d.array()
		d.nrEvents = true
		d.elem, d.keep, d.spent = d.elem[:0], false, true
		return err
	case envelope && c == '[' && level <= 2 && (string(k) == "resourceSpans" || string(k) == "batches" && d.otlpAhead()):
		// An OTLP trace export, or Tempo's /api/traces/{id}, whose
		// "batches" are its resourceSpans (grafana/tempo pkg/tempopb,
		// Trace).
		d.keep, d.enveloped, d.otel = false, true, true
		err := d.resourceSpans()
		d.elem, d.keep, d.inEnv = d.elem[:0], false, true
		return err
	case envelope && c == '[' && level == 1 && string(k) == "resourceLogs":
		d.keep, d.enveloped = false, true
		err := d.resourceLogs()
		d.elem, d.keep, d.inEnv = d.elem[:0], false, true
		return err
	}
	if top && level == 1 && c == 't' && (string(k) == "is_partial" || string(k) == "timed_out") && d.partial == "" {
		// An answer that says it holds only some of the records
		// (ES|QL's is_partial, a search's timed_out; its failed shards
		// below): read with what it holds, and said (readDoc).
		d.partial = string(k) + ": true"
	}
	if top && level == 1 && c == '{' && string(k) == "_shards" && d.partial == "" && d.keep {
		// A search's shards, of which some failed: its hits are partial.
		shards, err := d.keptValue()
		if shardsFailed(shards) {
			d.partial = "_shards.failed"
		}
		return err
	}
	if top && level == 1 && d.rows && c == '"' && string(k) == "status" {
		d.key = d.key[:0]
		err := d.str(true)
		d.status = append(d.status[:0], d.key...)
		return err
	}
	if top && !d.fields && len(k) <= maxKey && !d.wordAhead(c, d.schema.Lookup(k)) {
		d.fields = true
	}
	return d.value()
}

// wordAhead reports whether the value at d.pos, whose first byte is c,
// can be no value of the fields of bind (noValueOf, as hasField tells a
// JSON line's): "success", "done", an API answer's status, when it is a
// short string, as far as ahead shows.
func (d *docReader) wordAhead(c byte, bind Bindings) bool {
	if c != '"' {
		return len(bind) == 0
	}
	rest := d.ahead(maxKey + 2)
	end := bytes.IndexByte(rest[1:min(len(rest), maxKey+2)], '"')
	return end >= 0 && noValueOf(bind, rest[:end+2]) || len(bind) == 0
}

// keptValue reads the value at d.pos and returns its text as the
// element keeps it; nil when the element is not kept (or grew past
// MaxLine).
func (d *docReader) keptValue() ([]byte, error) {
	from, kept := len(d.elem), d.keep
	err := d.value()
	if err != nil || !kept || d.over || from > len(d.elem) {
		return nil, err
	}
	return d.elem[from:], nil
}

// readColumns reads the columns of a query answer's table, or of an SQL
// answer, at d.pos: their names name its rows (tableObject). With plain,
// the columns may be names alone, ["…",…], as pandas' split writes them
// (d.bareCols): those name only rows in "data", as pandas writes them.
func (d *docReader) readColumns(plain bool) error {
	cols, err := d.keptValue()
	d.bareCols = false
	if cols != nil {
		d.cols, d.colNames, d.bareCols = tableColumns(d.cols[:0], d.colNames[:0], cols, plain)
	}
	return err
}

// shardsFailed reports whether a search answer's _shards object says
// some shards failed: a "failed" count above 0.
func shardsFailed(obj []byte) bool {
	var d topReader
	var vals [1][]byte
	found, _, err := d.top(obj, []string{"failed"}, vals[:])
	if err != nil || found != 1 {
		return false
	}
	n, ok := parseNumber(d.lits[0])
	return ok && n > 0
}

// arraysAhead reports whether the array at d.pos begins with an array:
// a table's rows, [[…],…], not an envelope's objects.
func (d *docReader) arraysAhead() bool {
	b := d.ahead(64)
	i := 1 // past '['
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i < len(b) && b[i] == '['
}

// mapsAhead reports whether the array at d.pos begins as Sumo Logic's
// search messages do, [{"map":{…}: an LLM call's "messages" are no
// envelope.
func (d *docReader) mapsAhead() bool {
	return bytes.HasPrefix(d.firstKeyAhead(64), []byte(`"map"`))
}

// idsAhead reports whether the array at d.pos begins with an object
// whose first key is "id", as a page of Opik's REST API holds its
// records ({"page":1,"size":…,"total":…,"content":[{"id":…},…]}: its
// SpanPage and TracePage, comet-ml/opik apps/opik-backend
// src/main/java/com/comet/opik/api/Span.java): a message's "content"
// parts, [{"type":"text",…}], are no envelope.
func (d *docReader) idsAhead() bool {
	return bytes.HasPrefix(d.firstKeyAhead(64), []byte(`"id"`))
}

// firstKeyAhead returns what follows "[{" at d.pos, past the white
// space around them, within n bytes of the buffer: the first key of an
// array's first object, which tells what the array holds; nil when the
// array does not begin with an object.
func (d *docReader) firstKeyAhead(n int) []byte {
	b := d.ahead(n)
	i := 0
	for _, want := range []byte("[{") {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
		if i >= len(b) || b[i] != want {
			return nil
		}
		i++
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return b[i:]
}

// eventsAhead reports whether the array at d.pos, past its '[', begins
// as New Relic's Insights query results do, [{"events":[: a results
// array of records is no such thing.
func (d *docReader) eventsAhead() bool {
	b := d.ahead(64)
	i := 0
	for _, want := range []string{"{", `"events"`, ":", "["} {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
		if !bytes.HasPrefix(b[i:], []byte(want)) {
			return false
		}
		i += len(want)
	}
	return true
}

// ahead returns the unread bytes, at least n of them when the input
// holds them and the reader's buffer has room, so that what is told from
// them does not depend on where the buffer was cut.
func (d *docReader) ahead(n int) []byte {
	if len(d.buf)-d.pos < n && !d.done {
		d.br.Discard(d.pos)
		d.pos = 0
		d.buf, _ = d.br.Peek(min(n, d.br.Size()))
		if more := d.br.Buffered(); more > len(d.buf) {
			d.buf, _ = d.br.Peek(more)
		}
	}
	return d.buf[d.pos:]
}

// isEnvelopeKey reports whether k names the array of an API envelope.
func isEnvelopeKey(k []byte) bool {
	s := string(k)
	return s == "data" || s == "items" || s == "logs" || s == "records" || s == "hits" || s == "events" ||
		s == "result" || s == "results" || s == "runs" || s == "Results" || s == "tables" || s == "Tables"
}

// tableRow reads the element at d.pos as a row of a query answer's
// table, an array of values in the order of its columns, and hands it
// on as the object of its columns (tableObject).
func (d *docReader) tableRow() error { return d.arrayItem(errNotTableRow, d.tableObject) }

var errNotTableRow = errors.New("not a row of the table's columns: want an array of one value per column")

// tableObject appends to b the object of row, an array of values, its
// i-th value under the table's i-th column's name ({"c1":v1,…}; values
// as row writes them, a null left out); false when row is no array of
// as many values as the table has columns.
func (d *docReader) tableObject(b, row []byte) ([]byte, bool) {
	s := scanner{b: row}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' || len(d.cols) == 0 {
		return b, false
	}
	s.i++
	s.ws()
	b = append(b, '{')
	some := false
	for n := 0; n < len(d.cols); n++ {
		v, ok := s.rawValue()
		if !ok {
			return b, false
		}
		if string(v) != "null" {
			b, some = fieldTo(b, some, d.cols[n], v), true
		}
		end, err := s.next(']')
		switch {
		case err != nil:
			return b, false
		case end:
			return append(b, '}'), n+1 == len(d.cols)
		}
		s.ws()
	}
	return b, false
}

// tableColumns reads the columns of a query answer's table, an array of
// {"name":"…","type":"…"} (Azure Monitor Logs, ClickHouse's meta) or
// {"ColumnName":"…","DataType":"…"} (Kusto), or with plain of names
// ["…",…] (pandas' split, then plainCols), into cols: each name's raw
// text, held in names. None when a column has no name.
func tableColumns(cols [][]byte, names, arr []byte, plain bool) (_ [][]byte, _ []byte, plainCols bool) {
	s := scanner{b: arr}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return cols[:0], names, false
	}
	s.i++
	s.ws()
	var spans [][2]int
	for {
		col, ok := s.rawValue()
		name := []byte(nil)
		switch {
		case ok && col[0] == '{':
			name = columnName(col)
		case ok && plain && col[0] == '"' && len(col) > 2:
			// pandas' split writes the names alone ("columns":["a",…]).
			name, plainCols = col, true
		}
		if name == nil {
			return cols[:0], names, false
		}
		spans = append(spans, [2]int{len(names), len(names) + len(name)})
		names = append(names, name...)
		end, err := s.next(']')
		if err != nil {
			return cols[:0], names, false
		}
		if end {
			break
		}
		s.ws()
	}
	for _, sp := range spans {
		cols = append(cols, names[sp[0]:sp[1]])
	}
	return cols, names, plainCols
}

// columnName returns the raw text of the "name" (or "ColumnName") string
// of a table's column, nil when it has none.
func columnName(col []byte) []byte {
	s := scanner{b: col}
	s.i++ // '{'
	s.ws()
	for {
		key, v, ok := member(&s)
		if !ok {
			return nil
		}
		if (string(key) == `"name"` || string(key) == `"ColumnName"`) && len(v) > 2 && v[0] == '"' {
			return v
		}
		if end, err := s.next('}'); end || err != nil {
			return nil
		}
		s.ws()
	}
}

// lokiValue reads the element at d.pos as one of a Loki stream's values,
// [ts, line] (Loki's query and query_range API: ts epoch nanoseconds as
// a string; a third item, the line's structured metadata, is passed
// over), and hands it on as logcli's jsonl writes a line:
// {"timestamp":"2026-12-04T10:00:00.123456789Z","line":"…"}. Any other
// element is a bad one.
func (d *docReader) lokiValue() error { return d.arrayItem(errNotLokiValue, lokiObject) }

// arrayItem reads the element at d.pos, an array, and hands on the
// object convert makes of its text; an element that is no array, or
// one convert refuses, is a bad one of reason bad.
func (d *docReader) arrayItem(bad error, convert func(b, item []byte) ([]byte, bool)) error {
	line := d.line
	d.elemLine = line
	d.elem, d.keep, d.over = d.elem[:0], true, false
	if d.buf[d.pos] != '[' {
		d.keep = false
		if err := d.value(); err != nil {
			return err
		}
		d.out = docElem{line: line, bad: bad.Error()}
		d.emit(&d.out)
		d.elemLine = 0
		return nil
	}
	if err := d.nested(0); err != nil {
		return err
	}
	d.elemLine, d.keep = 0, false
	var ok bool
	switch d.row, ok = convert(d.row[:0], d.elem); {
	case d.over:
		d.out = docElem{line: line, bad: fmt.Sprintf("element longer than %d bytes", MaxLine)}
	case !ok:
		d.out = docElem{line: line, bad: bad.Error()}
	default:
		d.out = docElem{line: line, at: line, text: d.row}
	}
	d.emit(&d.out)
	return nil
}

var errNotLokiValue = errors.New(`not a Loki stream's value: want ["<epoch ns>","<line>"]`)

// lokiObject appends to b logcli's jsonl object of value, a Loki
// stream's ["<epoch ns>","<line>"(, {metadata})]: the time as RFC 3339
// in UTC, the line as value writes it (escapes kept). false when value
// is no such array.
func lokiObject(b, value []byte) ([]byte, bool) {
	s := scanner{b: value}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return b, false
	}
	s.i++
	s.ws()
	var items [3][]byte // the time, the line, the metadata
	n := 0
	for {
		v, ok := s.rawValue()
		if !ok || n == len(items) {
			return b, false
		}
		items[n], n = v, n+1
		end, err := s.next(']')
		if err != nil {
			return b, false
		}
		if end {
			break
		}
		s.ws()
	}
	ts, text, meta := items[0], items[1], items[2]
	if n < 2 || ts[0] != '"' || text[0] != '"' || meta != nil && meta[0] != '{' {
		return b, false
	}
	ns, ok := nanos(ts[1 : len(ts)-1])
	if !ok {
		return b, false
	}
	b = append(b, `{"timestamp":"`...)
	b = time.Unix(0, ns).UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(append(append(b, `","line":`...), text...), '}')
	return b, true
}

// insightsRow reads the element at d.pos as a row of CloudWatch Logs
// Insights' query results, an array of {"field":…,"value":…}, and hands
// it on as the object of its fields (insightsObject): a field's name
// its key, its value the value. Any other element is a bad one.
func (d *docReader) insightsRow() error { return d.arrayItem(errNotRow, insightsObject) }

var errNotRow = errors.New(`not a CloudWatch Logs Insights result row: want an array of {"field":…,"value":…}`)

// rawValue passes over the value at s.i and returns its text; false
// when there is none there, or it is cut short.
func (s *scanner) rawValue() ([]byte, bool) {
	from := s.i
	var err error
	switch {
	case s.i >= len(s.b):
		return nil, false
	case s.b[s.i] == '"':
		err = skipString(s)
	case s.b[s.i] == '{' || s.b[s.i] == '[':
		err = s.skip()
	default:
		for s.i < len(s.b) && isLiteral(s.b[s.i]) {
			s.i++
		}
	}
	return s.b[from:s.i], err == nil && s.i > from
}

// fieldTo appends "name":val to the object being written in b, a comma
// before it when some is.
func fieldTo(b []byte, some bool, name, val []byte) []byte {
	if some {
		b = append(b, ',')
	}
	return append(append(append(b, name...), ':'), val...)
}

// insightsObject appends to b the object of the fields of row, an
// Insights result row: {"f1":v1,"f2":v2,…}, each name and value as row
// writes them (escapes kept), on one line; a field without a value, or
// a null one, is left out. @timestamp, which Insights writes in UTC
// without saying so ("2026-11-29 02:00:00.000"), is written as the
// instant it is ("2026-11-29T02:00:00.000Z"). false when row is not an
// array of such objects.
func insightsObject(b, row []byte) ([]byte, bool) {
	s := scanner{b: row}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return b, false
	}
	s.i++
	b = append(b, '{')
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		return append(b, '}'), true
	}
	some := false // a field was written
	for {
		name, val, ok := insightsPair(&s)
		if !ok {
			return b, false
		}
		if name != nil && val != nil && string(val) != "null" {
			if string(name) == `"@timestamp"` {
				b = utcStamp(fieldTo(b, some, name, nil), val)
			} else {
				b = fieldTo(b, some, name, val)
			}
			some = true
		}
		end, err := s.next(']')
		switch {
		case err != nil:
			return b, false
		case end:
			return append(b, '}'), true
		}
		s.ws()
	}
}

// insightsPair reads the object {"field":…,"value":…} at s.i: the raw
// text of the field's name, a string, and of its value (nil when the
// object has none; the last of each when given twice). false when it is
// no such object.
func insightsPair(s *scanner) (name, val []byte, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return nil, nil, false
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil, nil, true
	}
	for {
		key, v, ok := member(s)
		if !ok {
			return nil, nil, false
		}
		switch string(key) {
		case `"field"`:
			if v[0] != '"' {
				return nil, nil, false
			}
			name = v
		case `"value"`:
			val = v
		}
		end, err := s.next('}')
		switch {
		case err != nil:
			return nil, nil, false
		case end:
			return name, val, true
		}
		s.ws()
	}
}

// member reads the member of an object at s.i: the raw texts of its key
// and its value.
func member(s *scanner) (key, val []byte, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, nil, false
	}
	from := s.i
	if skipString(s) != nil {
		return nil, nil, false
	}
	key = s.b[from:s.i]
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != ':' {
		return nil, nil, false
	}
	s.i++
	s.ws()
	val, ok = s.rawValue()
	return key, val, ok
}

// utcStamp appends val, the raw text of an Insights @timestamp, to b:
// as the UTC instant it is, "2026-11-29T02:00:00.000Z", when it is
// written as Insights writes it, "2026-11-29 02:00:00.000"; else as it
// is.
func utcStamp(b, val []byte) []byte {
	in := val
	if len(in) < len(`"2006-01-02 15:04:05"`) || in[0] != '"' || in[len(in)-1] != '"' {
		return append(b, val...)
	}
	in = in[1 : len(in)-1]
	if len(in) == len("2006-01-02 15:04:05.") {
		return append(b, val...)
	}
	for i, c := range in {
		want := byte('0')
		switch i {
		case 4, 7:
			want = '-'
		case 10:
			want = ' '
		case 13, 16:
			want = ':'
		case 19:
			want = '.'
		}
		if want == '0' && !isDigit(c) || want != '0' && c != want {
			return append(b, val...)
		}
	}
	b = append(append(append(b, '"'), in[:10]...), 'T')
	return append(append(b, in[11:]...), 'Z', '"')
}

// value passes over the value at d.pos.
func (d *docReader) value() error {
	switch d.buf[d.pos] {
	case '"':
		return d.str(false)
	case '{', '[':
		return d.nested(0)
	}
	return d.literal()
}

// literal passes over a number, true, false or null.
func (d *docReader) literal() error {
	n := 0
	for d.more() {
		b := d.buf[d.pos:]
		i := 0
		for i < len(b) && isLiteral(b[i]) {
			i++
		}
		d.take(b[:i])
		d.pos += i
		n += i
		if n > MaxLine {
			return d.syntax("value too long")
		}
		if i < len(b) {
			break
		}
	}
	if n == 0 {
		if d.done {
			return d.truncated()
		}
		return d.syntax("want a value")
	}
	return nil
}

func isLiteral(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

// more makes unread bytes available in d.buf; false at the end of the
// input or on a read error (d.err).
func (d *docReader) more() bool {
	if d.pos < len(d.buf) {
		return true
	}
	if d.done {
		return false
	}
	d.br.Discard(d.pos)
	d.buf, d.pos = nil, 0
	if _, err := d.br.Peek(1); err != nil {
		d.done = true
		if err != io.EOF {
			d.err = err
		}
		return false
	}
	d.buf, _ = d.br.Peek(d.br.Buffered())
	return true
}

// ws passes over whitespace and returns the next byte. The whitespace is
// kept with the element, so that its lines stay where they were.
func (d *docReader) ws() (byte, bool) {
	for d.more() {
		b := d.buf[d.pos:]
		i := 0
		for ; i < len(b); i++ {
			if c := b[i]; c == '\n' {
				d.line++
			} else if c != ' ' && c != '\t' && c != '\r' {
				break
			}
		}
		d.take(b[:i])
		d.pos += i
		if i < len(b) {
			return b[i], true
		}
	}
	return 0, false
}

// take adds b to the element while it is kept and not longer than its
// limit (MaxLine).
func (d *docReader) take(b []byte) {
	if !d.keep {
		return
	}
	n := len(d.elem) + len(b)
	if n > d.limit {
		d.keep, d.over, d.elem = false, true, d.elem[:0]
		return
	}
	if n > cap(d.elem) { // grow to the limit at most
		e := make([]byte, len(d.elem), min(max(2*cap(d.elem), n, 4096), d.limit))
		d.elem = e[:copy(e, d.elem)]
	}
	d.elem = append(d.elem, b...)
}

// take1 takes the byte at d.pos.
func (d *docReader) take1() {
	d.take(d.buf[d.pos : d.pos+1])
	d.pos++
}

// maxKey is the longest key kept to be compared with envelope keys and
// looked up in the schema.
const maxKey = 64

// str passes over the string at d.pos; with capture, its raw text goes to
// d.key (up to maxKey+1 bytes, so that a longer key is seen as one).
func (d *docReader) str(capture bool) error {
	d.take1()
	esc := false // the buffer before ended in a backslash
	for d.more() {
		b := d.buf[d.pos:]
		i := 0
		if esc && b[0] != '\n' {
			i = 1 // the byte it escapes
		}
		esc = false
		for i = strStop(b, i); i < len(b) && b[i] == '\\'; i = strStop(b, i+2) {
			if i+1 == len(b) {
				esc, i = true, len(b)
				break
			}
			if b[i+1] == '\n' {
				i++
				break
			}
		}
		if capture {
			if n := min(i, maxKey+1-len(d.key)); n > 0 {
				d.key = append(d.key, b[:n]...)
			}
		}
		d.take(b[:i])
		d.pos += i
		if i == len(b) {
			continue
		}
		if b[i] == '\n' {
			return d.syntax("newline inside a string")
		}
		d.take1()
		return nil
	}
	return d.truncated()
}

// wholeElements has element read an element whole when it can
// (wholeElement); a variable, so that a test can compare the two ways.
var wholeElements = true

// wholeElement returns the length of the element object that b begins
// with and the line ends within it, when b holds all of it, it is no
// longer than MaxLine and object reads it without an error and without
// a key member reads for more than its value (readsKey: a top-level
// object's envelope keys); and where a hit's _source object lies in it
// (src, zero when none) and the line ends before that. Otherwise it
// returns false, for object to read the element (refilling the buffer,
// reporting the error). It checks what object and nested check, no more
// and no less: keys, colons and commas at the element's level, literals
// as runs of their bytes, strings without a line's end, brackets that
// match below. Read so, a byte at a time with no call per token, an
// array of records takes 40 % of the time it took: object kept a core
// busy for what the workers parsed in a third of the time.
func wholeElement(b []byte, top bool) (n int, lines int64, src [2]int, srcLines int64, ok bool) {
	b = b[:min(len(b), MaxLine)]
	i := 1 // past '{'
	ws := func() bool {
		for ; i < len(b); i++ {
			switch b[i] {
			case '\n':
				lines++
			case ' ', '\t', '\r':
			default:
				return true
			}
		}
		return false
	}
	// str passes over the string at b[i], true when it ends in b.
	str := func() bool {
		for i = strStop(b, i+1); i < len(b) && b[i] == '\\'; i = strStop(b, i+2) {
			if i+1 >= len(b) || b[i+1] == '\n' {
				return false
			}
		}
		if i == len(b) || b[i] == '\n' {
			return false
		}
		i++
		return true
	}
	if !ws() {
		return 0, 0, src, 0, false
	}
	if b[i] == '}' {
		return i + 1, lines, src, srcLines, true
	}
	for {
		if b[i] != '"' {
			return 0, 0, src, 0, false
		}
		key := i
		if !str() || readsKey(b[key+1:i-1], top) || !ws() || b[i] != ':' {
			return 0, 0, src, 0, false
		}
		source := string(b[key+1:i-1]) == "_source"
		fields := string(b[key+1:i-1]) == "fields"
		i++
		if !ws() || fields && b[i] == '{' { // a hit's fields: object reads them (hitRecord)
			return 0, 0, src, 0, false
		}
		switch b[i] {
		case '"':
			if !str() {
				return 0, 0, src, 0, false
			}
		case '{', '[':
			if source && b[i] == '{' {
				src, srcLines = [2]int{i, 0}, lines
			}
			var open uint64 // bit k: the bracket open at depth k is a brace
			for depth := 0; ; {
				if i == len(b) {
					return 0, 0, src, 0, false
				}
				switch c := b[i]; c {
				case '"':
					if !str() {
						return 0, 0, src, 0, false
					}
					continue
				case '\n':
					lines++
				case '{', '[':
					if depth == 64 {
						return 0, 0, src, 0, false // deeper: nested's own count
					}
					if c == '{' {
						open |= 1 << depth
					} else {
						open &^= 1 << depth
					}
					depth++
				case '}', ']':
					depth--
					if brace := open&(1<<depth) != 0; brace != (c == '}') {
						return 0, 0, src, 0, false
					}
				}
				i++
				if depth == 0 {
					break
				}
			}
			if src[0] > 0 && src[1] == 0 {
				src[1] = i
			}
		default:
			start := i
			for i < len(b) && isLiteral(b[i]) {
				i++
			}
			if i == start || i == len(b) {
				return 0, 0, src, 0, false
			}
		}
		if !ws() {
			return 0, 0, src, 0, false
		}
		switch b[i] {
		case ',':
			i++
			if !ws() {
				return 0, 0, src, 0, false
			}
		case '}':
			return i + 1, lines, src, srcLines, true
		default:
			return 0, 0, src, 0, false
		}
	}
}

// readsKey reports whether member reads key k of an element's level
// for more than its value, and wholeElement leaves it to member: in a
// top-level object, an envelope's keys (which an envelope holds only
// with an array or object, and before any record field); in an array's
// element, "values" (a Loki stream's lines, when "stream" came before),
// "columns" and "rows" (a query answer's table), "spans" (a Jaeger
// trace's, when "traceID" came before); in a top-level object,
// "columns", "schema" and "meta" too (an SQL answer's, ClickHouse's),
// "messages" (Sumo Logic's), "trace" and "batches" (Tempo's), "spans"
// and "content" (Opik's pages, idsAhead).
func readsKey(k []byte, top bool) bool {
	s := string(k)
	if !top {
		// A Loki stream's lines, a query answer's table's, a Jaeger
		// trace's spans.
		return s == "values" || s == "rows" || s == "Rows" || s == "columns" || s == "Columns" || s == "spans"
	}
	return isEnvelopeKey(k) || s == "Response" || s == "resourceSpans" || s == "resourceLogs" || s == "columns" || s == "schema" || s == "meta" || s == "messages" ||
		s == "trace" || s == "batches" || s == "spans" || s == "content" ||
		indexKey(k) // pandas' table by index
}

// strStop returns the first index at or after i of a quote, a
// backslash or a line's end in b, or len(b); eight bytes at a time,
// where a byte at a time was a third of a JSON document's reading.
func strStop(b []byte, i int) int {
	const qq, bb, nn = swarLo * '"', swarLo * '\\', swarLo * '\n'
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if m := zeroBytes(w^qq) | zeroBytes(w^bb) | zeroBytes(w^nn); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c == '\n' {
			return i
		}
	}
	return len(b)
}

// docSpecial marks the bytes nested looks at.
var docSpecial = [256]bool{'"': true, '\n': true, '{': true, '[': true, '}': true, ']': true}

// nested passes over the object or array at d.pos, checking that its
// brackets match; d.open remembers which of them are braces. With depth
// 1, the array's '[' (d.open[0] bit 0 clear) was read already.
func (d *docReader) nested(depth int) error {
	for d.more() {
		b := d.buf[d.pos:]
		i := 0
		for i < len(b) && !docSpecial[b[i]] {
			i++
		}
		d.take(b[:i])
		d.pos += i
		if i == len(b) {
			continue
		}
		switch c := b[i]; c {
		case '"':
			if err := d.str(false); err != nil {
				return err
			}
			continue
		case '\n':
			d.line++
		case '{', '[':
			if depth == maxDocDepth {
				return d.syntax(fmt.Sprintf("nested deeper than %d levels", maxDocDepth))
			}
			w, bit := depth/64, uint64(1)<<(depth%64)
			for len(d.open) <= w {
				d.open = append(d.open, 0)
			}
			if c == '{' {
				d.open[w] |= bit
			} else {
				d.open[w] &^= bit
			}
			depth++
		case '}', ']':
			depth--
			if brace := d.open[depth/64]&(1<<(depth%64)) != 0; brace != (c == '}') {
				return d.syntax(fmt.Sprintf("unexpected '%c'", c))
			}
			if depth == 0 {
				d.take1()
				return nil
			}
		}
		d.take1()
	}
	return d.truncated()
}

// truncated is the error for an input that ends inside the document.
func (d *docReader) truncated() error {
	if d.err != nil {
		return d.err
	}
	return &docError{line: d.line, msg: "truncated", eof: true}
}

func (d *docReader) syntax(msg string) error { return &docError{line: d.line, msg: msg} }

// hitRecord appends to dst the record of a search hit's "fields" object
// obj, as Elasticsearch and OpenSearch return it when asked for fields
// (Kibana's Discover, "_source": false): every field's values in an
// array, {"status":[200],"url.path":["/v1/x"],"tags":["a","b"]}. A
// field of one value is written as that value, of none as null, of more
// as its array. obj was read whole by the document reader, so it is
// valid JSON; anything else is appended as it is.
func hitRecord(dst, obj []byte) []byte {
	s := scanner{b: obj}
	s.ws()
	if s.i >= len(obj) || obj[s.i] != '{' {
		return append(dst, obj...)
	}
	s.i++
	start := len(dst)
	dst = append(dst, '{')
	for n := 0; ; n++ {
		s.ws()
		if s.i < len(obj) && obj[s.i] == '}' {
			return append(dst, '}')
		}
		if n > 0 && !s.expect(',') {
			break
		}
		k := s.i
		if !s.skipString() {
			break
		}
		key := obj[k:s.i]
		s.ws()
		if !s.expect(':') {
			break
		}
		v := s.i
		if !s.skipValue() {
			break
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(append(dst, key...), ':')
		dst = append(dst, oneValue(obj[v:s.i])...)
	}
	return append(dst[:start], obj...) // not as read: as it is
}

// oneValue returns an array of one scalar as that scalar, an empty array
// as null, any other value as it is.
func oneValue(v []byte) []byte {
	if len(v) < 2 || v[0] != '[' {
		return v
	}
	s := scanner{b: v, i: 1}
	s.ws()
	if s.i < len(v) && v[s.i] == ']' {
		return nullValue
	}
	first := s.i
	if s.i >= len(v) || v[s.i] == '{' || v[s.i] == '[' || !s.skipValue() {
		return v
	}
	end := s.i
	s.ws()
	if s.i != len(v)-1 || v[s.i] != ']' {
		return v // more than one value
	}
	return v[first:end]
}

var nullValue = []byte("null")

// expect passes over byte c and the white space after it; false, where
// c is not next.
func (s *scanner) expect(c byte) bool {
	if s.i >= len(s.b) || s.b[s.i] != c {
		return false
	}
	s.i++
	s.ws()
	return true
}

// skipString passes over the string at s.i, false when there is none.
func (s *scanner) skipString() bool {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false
	}
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return true
		}
	}
	return false
}

// skipValue passes over the value at s.i: a string, an object or array,
// or a number or literal up to the next delimiter.
func (s *scanner) skipValue() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		return s.skip() == nil
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return s.i > start
		}
		s.i++
	}
	return s.i > start
}
