package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// pandas' DataFrame.to_json() writes a table in one of several layouts
// (its orient; pandas/io/json/_json.py, and
// https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.to_json.html):
// "records" ([{…},…], an array), "table" ({"schema":…,"data":[{…}]}, an
// envelope) and "split" ({"columns":[…],"index":[…],"data":[[…]]}, a
// table's rows: tableRow) are read as other documents are. The rest are
// read here: "index", {"0":{"col":v,…},"1":{…}}, each member's value a
// record (member hands each on as an element); "columns", the default,
// {"col":{"0":v,"1":v,…},…}, the table by column, which is read whole and
// turned into its rows (columnTable); and "values", [[v,…],…], rows with
// no names, which cannot be read (topArray says so).

// maxColumnTable is the largest table by column that is read: unlike
// every other document, it must be held whole to be turned into rows
// (its first row's last value is near its end). 64 MiB, some 400,000
// records of a gateway's log, keeps the reader's memory within what a
// run of millions of lines takes (SPEC §8).
const maxColumnTable = 64 << 20

var errValueRows = errors.New("rows of values without column names (an array of arrays, as pandas' DataFrame.to_json(orient='values') writes a table), not records: write it with to_json(PATH, orient='records', lines=True)")

// columnsAhead reports whether the object at d.pos begins as pandas'
// table by column does: {"col":{"0":…: its first member's key is no
// index's (the index's keys are digits: an index table, member) and no
// key member reads for more than its value, and that member's value is
// an object whose first key is an index's, digits (a RangeIndex's
// position, a DatetimeIndex's epoch ms, or its ISO time with
// date_format='iso'), with a value that is no object or array (a cell).
// As far as the reader's buffer shows.
func (d *docReader) columnsAhead() bool {
	s := scanner{b: d.ahead(512)}
	s.i = 1 // '{'
	key := func() ([]byte, bool) {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return nil, false
		}
		from := s.i
		if skipString(&s) != nil {
			return nil, false
		}
		k := s.b[from+1 : s.i-1]
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return nil, false
		}
		s.i++
		s.ws()
		return k, s.i < len(s.b)
	}
	col, ok := key()
	if !ok || indexKey(col) || readsKey(col, true) || s.b[s.i] != '{' && s.b[s.i] != '[' {
		return false
	}
	if s.b[s.i] == '[' {
		// ClickHouse's FORMAT JSONColumns: {"col":[v,…],…}, each
		// column's values in an array, a row at each place
		// (https://clickhouse.com/docs/interfaces/formats/JSONColumns):
		// told by a first value that is no object or array (a list of
		// records is an envelope's, or a record's). A record whose
		// first member is such an array turns out no such table in
		// columnRows, and is a record.
		s.i++
		s.ws()
		return s.i < len(s.b) && s.b[s.i] != '{' && s.b[s.i] != '[' && s.b[s.i] != ']'
	}
	s.i++
	idx, ok := key()
	return ok && (allDigits(idx) || isoKey(idx)) && s.b[s.i] != '{' && s.b[s.i] != '['
}

// columnTable reads the top-level object at d.pos, a table by column
// (columnsAhead), whole, and hands on its rows (columnRows); one larger
// than maxColumnTable is a bad element that says how to write records.
// An object that turns out to be no such table (a member that is no
// object) is handed on whole, a record.
func (d *docReader) columnTable(line int64) error {
	// Its rows, not its members, are the records, whatever names its
	// columns have (jsonShape, which may see only its start).
	enveloped, rows := d.enveloped, d.rows
	d.enveloped, d.rows = true, true
	d.limit = maxColumnTable
	err := d.nested(0)
	d.limit = MaxLine
	d.elemLine, d.keep = 0, false
	defer func() {
		if cap(d.elem) > MaxLine { // not kept for the next element
			d.elem = nil
		}
	}()
	switch {
	case err != nil:
		return err
	case d.over:
		d.out = docElem{line: line, bad: fmt.Sprintf("a table by column (pandas' DataFrame.to_json() default, orient='columns') of more than %d MiB, "+
			"too large to be turned into rows in memory: write it with to_json(PATH, orient='records', lines=True)", maxColumnTable>>20)}
	case d.columnRows(line):
		return nil
	case len(d.elem) > MaxLine:
		d.enveloped, d.rows = enveloped, rows // a record, as element reads it
		d.out = docElem{line: line, bad: fmt.Sprintf("element longer than %d bytes", MaxLine)}
	default:
		d.enveloped, d.rows = enveloped, rows
		d.out = docElem{line: line, at: line, text: d.elem}
	}
	d.emit(&d.out)
	return nil
}

// tableColumn is a column of a table by column being read: its name's
// raw text, and its object, of which at is the next member unread.
type tableColumn struct {
	name []byte
	obj  []byte
	at   int
	// byIndex holds its cells by their index's raw key, once a key came
	// out of the first column's order (pandas writes every column in
	// the index's order; another writer may not).
	byIndex map[string][]byte
}

// columnRows hands on the rows of the table by column in d.elem, whose
// first line is line: a row for each member of the first column, in its
// order (the index's), the object of each column's cell of the same
// index key ({"col":v,…}, a null or a missing cell left out), on the
// line of that member. false, with nothing handed on, when d.elem is no
// such table: a member that is no object, or JSON that does not parse.
//
// A bare object of arrays is a table by column only when a column's name
// is one some source reads (knownColumn): {"args":["a","b"],"env":[…]}
// is no log's table but one object, not rows of nothing. pandas' table
// by column, whose columns are objects by index key, and ClickHouse's
// JSONColumnsWithMetadata, told by its "meta", need no such name.
func (d *docReader) columnRows(line int64) bool {
	if arrays, named := d.arrayColumns(d.elem); arrays && !named {
		return false
	}
	return d.rowsOf(d.elem, line)
}

// arrayColumns reports whether the object text's first member is an
// array (ClickHouse's JSONColumns, pandas' to_dict(orient='list')), and
// whether any of its members' names is a column some source reads
// (knownColumn).
func (d *docReader) arrayColumns(text []byte) (arrays, named bool) {
	s := scanner{b: text}
	s.ws()
	s.i++ // '{'
	s.ws()
	for first := true; s.i < len(s.b) && s.b[s.i] != '}'; first = false {
		name, val, ok := member(&s)
		if !ok {
			return arrays, named
		}
		if first {
			arrays = val[0] == '['
		}
		if len(name) >= 2 && d.knownColumn(name[1:len(name)-1]) {
			return arrays, true
		}
		if end, err := s.next('}'); err != nil || end {
			return arrays, false
		}
		s.ws()
	}
	return arrays, false
}

// knownColumn reports whether name (raw JSON string text, without its
// quotes) is a name the reader's schema binds (the canonical names, their
// aliases, a --map's), or one of any source's own names or signatures.
func (d *docReader) knownColumn(name []byte) bool {
	if len(d.schema.Lookup(name)) > 0 {
		return true
	}
	n := string(name)
	for _, src := range sources {
		for _, f := range src.fields {
			if strings.EqualFold(f.name, n) {
				return true
			}
		}
		for _, sig := range src.signatures {
			for _, w := range sig.names {
				if w == n || strings.HasSuffix(w, "*") && strings.HasPrefix(n, w[:len(w)-1]) {
					return true
				}
			}
		}
	}
	return false
}

// rowsOf hands on the rows of the table by column text, whose first
// line is line, as columnRows does: its columns objects by index
// (pandas') or arrays of values, a row at each place (ClickHouse's
// JSONColumns, whose arrays must be of one length); false, with nothing
// handed on, when text is no such table.
func (d *docReader) rowsOf(text []byte, line int64) bool {
	var cols []tableColumn
	s := scanner{b: text}
	s.ws()
	s.i++ // '{'
	s.ws()
	for s.i < len(s.b) && s.b[s.i] != '}' {
		name, obj, ok := member(&s)
		if !ok || obj[0] != '{' && obj[0] != '[' || len(cols) > 0 && obj[0] != cols[0].obj[0] ||
			obj[0] == '{' && !cellsParse(obj) || obj[0] == '[' && len(cols) > 0 && itemCount(obj) != itemCount(cols[0].obj) {
			return false
		}
		cols = append(cols, tableColumn{name: name, obj: obj, at: 1})
		if end, err := s.next('}'); err != nil {
			return false
		} else if end {
			break
		}
		s.ws()
	}
	if len(cols) == 0 || cols[0].obj[0] == '[' && itemCount(cols[0].obj) < 0 {
		return false
	}
	first := &cols[0]
	// A table by column of a DataFrame indexed by its time (pandas'
	// default orient of df.set_index("time")) has the rows' times as
	// its index keys, not among its columns: each row is stamped with
	// its key, as a table by index's is (stampIndexRow), when no column
	// is the time.
	stamp := first.obj[0] == '{' && !d.timedColumns(cols)
	at, where := line, 0 // the line of text[where:]
	for {
		key, v, next, ok := nextCell(first.obj, first.at)
		if first.obj[0] == '[' {
			// A row's place: its line is its first value's.
			v, next, ok = nextItem(first.obj, first.at)
			key = v
		}
		if !ok {
			return true
		}
		first.at = next
		// The line of the row's index key in the first column, a part
		// of text: where it is in text is told by their capacities.
		off := cap(text) - cap(key)
		at += int64(bytes.Count(text[where:off], []byte{'\n'}))
		where = off
		b := append(d.row[:0], '{')
		some := false
		if k := key[1 : len(key)-1]; stamp && timeKey(k) {
			t := key
			if allDigits(k) {
				t = k // an epoch, a number
			}
			b, some = fieldTo(b, false, timeName, t), true
		}
		for j := range cols {
			c := &cols[j]
			cell := v
			switch {
			case j == 0:
			case c.obj[0] == '[':
				cell, c.at, _ = nextItem(c.obj, c.at)
			default:
				cell = c.cell(key)
			}
			if cell != nil && string(cell) != "null" {
				b, some = fieldTo(b, some, c.name, cell), true
			}
		}
		d.row = append(b, '}')
		d.out = docElem{line: at, at: at, text: d.row}
		if len(d.row) > MaxLine {
			d.out = docElem{line: at, bad: fmt.Sprintf("element longer than %d bytes", MaxLine)}
		}
		d.emit(&d.out)
	}
}

// cell returns the column's cell of the index key (raw text), nil when
// it has none: its next member when that is the key's, as pandas writes
// them, else by its byIndex.
func (c *tableColumn) cell(key []byte) []byte {
	if c.byIndex == nil {
		k, v, next, ok := nextCell(c.obj, c.at)
		if ok && bytes.Equal(k, key) {
			c.at = next
			return v
		}
		c.byIndex = map[string][]byte{}
		for at := 1; ; {
			k, v, next, ok := nextCell(c.obj, at)
			if !ok {
				break
			}
			if _, dup := c.byIndex[string(k)]; !dup {
				c.byIndex[string(k)] = v
			}
			at = next
		}
	}
	return c.byIndex[string(key)]
}

// nextCell reads the member of the object obj (a column, which parses:
// cellsParse) at at, past the '{' or a member before it: its key's and
// its value's raw text, and where the next one begins; false at the
// object's end.
func nextCell(obj []byte, at int) (key, val []byte, next int, ok bool) {
	s := scanner{b: obj, i: at}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ',' {
		s.i++
		s.ws()
	}
	if s.i >= len(s.b) || s.b[s.i] == '}' {
		return nil, nil, at, false
	}
	key, val, ok = member(&s)
	return key, val, s.i, ok
}

// nextItem reads the value of the array arr (a column of ClickHouse's
// JSONColumns, whose items parse: itemCount) at at, past the '[' or a
// value before it: its raw text, and where the next one begins; false
// at the array's end.
func nextItem(arr []byte, at int) (val []byte, next int, ok bool) {
	s := scanner{b: arr, i: at}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ',' {
		s.i++
		s.ws()
	}
	if s.i >= len(s.b) || s.b[s.i] == ']' {
		return nil, at, false
	}
	val, ok = s.rawValue()
	return val, s.i, ok
}

// itemCount returns the number of values of the array arr, -1 when it
// does not parse to its end.
func itemCount(arr []byte) int {
	s := scanner{b: arr, i: 1}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		if s.i+1 == len(s.b) {
			return 0
		}
		return -1
	}
	for n := 1; ; n++ {
		if _, ok := s.rawValue(); !ok {
			return -1
		}
		end, err := s.next(']')
		if err != nil {
			return -1
		}
		if end {
			if s.i != len(s.b) {
				return -1
			}
			return n
		}
		s.ws()
	}
}

// cellsParse reports whether obj, an object, is a list of members
// nextCell reads to its end.
func cellsParse(obj []byte) bool {
	s := scanner{b: obj, i: 1}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		return s.i+1 == len(s.b)
	}
	for {
		if _, _, ok := member(&s); !ok {
			return false
		}
		end, err := s.next('}')
		if err != nil {
			return false
		}
		if end {
			return s.i == len(s.b)
		}
		s.ws()
	}
}

// topArray reads the elements of the top-level array whose '[' was just
// read, as array does; an element that is a list of objects is read as
// its items, each an element (listItem: Zipkin's traces). When its first
// is a row of values (valueRow), the array is rows without names: one
// bad element that says so (no row of it can be read), and its other
// elements are passed over.
func (d *docReader) topArray() error {
	first, rows := true, false
	return d.arrayOf(func() error {
		switch {
		case rows:
			d.keep = false
			return d.value()
		case d.buf[d.pos] == '[' && d.objectsAhead():
			first = false
			return d.listItem()
		case !first || d.buf[d.pos] != '[':
			first = false
			return d.element(false)
		}
		first = false
		line := d.line
		d.elemLine = line
		d.elem, d.keep, d.over = d.elem[:0], true, false
		if err := d.nested(0); err != nil {
			return err
		}
		d.elemLine, d.keep = 0, false
		rows = !d.over && valueRow(d.elem)
		d.out = docElem{line: line, bad: errNotObject.Error()}
		if rows {
			d.out.bad = errValueRows.Error()
		}
		d.emit(&d.out)
		return nil
	})
}

// valueRow reports whether the array row begins with a value that is
// no object or array: a table's row of values, [v,…] (Insights' rows
// hold objects).
func valueRow(row []byte) bool {
	s := scanner{b: row, i: 1}
	s.ws()
	return s.i < len(s.b) && s.b[s.i] != '{' && s.b[s.i] != '[' && s.b[s.i] != ']'
}

// objectsAhead reports whether the array at d.pos begins with an object,
// or is empty: a list of records (a Zipkin trace's spans), not a row of
// values.
func (d *docReader) objectsAhead() bool {
	b := d.ahead(64)
	i := 1 // past '['
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i < len(b) && (b[i] == '{' || b[i] == ']')
}

// A table by index of a DataFrame indexed by its time (df.set_index(
// "time").to_json(orient='index')) writes each row's time as its key,
// not among its columns: epoch ms by default (date_format='epoch',
// date_unit='ms'; 's', 'us' and 'ns' on request), or ISO 8601 with
// date_format='iso' ("2026-12-04T10:00:01.457Z", "Z" left out of a naive
// time by recent pandas) — pandas/io/json/_json.py, FrameWriter, and
// https://pandas.pydata.org/docs/user_guide/io.html#date-handling.

// indexKey reports whether k is the key of a table by index: a
// position's or an epoch's digits, or an ISO time.
func indexKey(k []byte) bool { return allDigits(k) || isoKey(k) }

// timeKey reports whether the index key k is a time: an epoch of
// seconds to nanoseconds since 2001 (10 to 19 digits; a RangeIndex's
// positions are fewer), or an ISO time.
func timeKey(k []byte) bool {
	return allDigits(k) && len(k) >= 10 && len(k) <= 19 || isoKey(k)
}

// isoKey reports whether k begins as an ISO 8601 time does,
// "YYYY-MM-DDThh:" (or a space for the T).
func isoKey(k []byte) bool {
	return len(k) >= 14 && allDigits(k[:4]) && k[4] == '-' && allDigits(k[5:7]) && k[7] == '-' && allDigits(k[8:10]) &&
		(k[10] == 'T' || k[10] == ' ') && allDigits(k[11:13]) && k[13] == ':'
}

// stampIndexRow puts the key of the row d.out of a table by index
// before its members as its "time", when the key is a time and the
// table's rows carry none of their own (told by its first row, once).
func (d *docReader) stampIndexRow() {
	if len(d.idxKey) == 0 || d.out.bad != "" || !timeKey(d.idxKey) {
		return
	}
	row := d.out.text
	if !d.stampTold {
		d.stampTold = true
		d.stampRows = !d.timed(row)
	}
	if !d.stampRows {
		return
	}
	s := scanner{b: row, i: 1} // past '{'
	s.ws()
	b := append(d.row[:0], `{"time":`...)
	if allDigits(d.idxKey) {
		b = append(b, d.idxKey...)
	} else {
		b = append(append(append(b, '"'), d.idxKey...), '"')
	}
	if s.i < len(row) && row[s.i] != '}' {
		b = append(b, ',')
	}
	d.row = append(b, row[s.i:]...)
	d.out.text = d.row
	if len(d.row) > MaxLine {
		d.out = docElem{line: d.out.line, bad: fmt.Sprintf("element longer than %d bytes", MaxLine)}
	}
}

// timeName is the member a row of a table indexed by its time is
// stamped with.
var timeName = []byte(`"time"`)

// timedColumns reports whether a column of cols, by its name, is the
// records' time, by the reader's schema.
func (d *docReader) timedColumns(cols []tableColumn) bool {
	for _, c := range cols {
		for _, b := range d.schema.LookupString(string(c.name[1 : len(c.name)-1])) {
			if b.Field == FTime {
				return true
			}
		}
	}
	return false
}

// timed reports whether the object row has a member that is the
// record's time, by the reader's schema.
func (d *docReader) timed(row []byte) bool {
	found := false
	eachTop(row, maxNames, func(k string, _ []byte) bool {
		for _, b := range d.schema.LookupString(k) {
			found = found || b.Field == FTime
		}
		return !found
	})
	return found
}

// metaColumns reads the object at d.pos, the columns of ClickHouse's
// JSONColumnsWithMetadata after its "meta", whole, and hands on its rows
// (rowsOf); one that is no such table, or larger than maxColumnTable, is
// a bad element.
func (d *docReader) metaColumns() error {
	line, from := d.line, len(d.elem)
	d.keep, d.over, d.limit = true, false, maxColumnTable
	err := d.nested(0)
	d.limit = MaxLine
	d.inEnv, d.enveloped, d.rows = true, true, true
	defer func() {
		d.elem, d.keep = d.elem[:0], false
		if cap(d.elem) > MaxLine { // not kept for the next element
			d.elem = nil
		}
	}()
	switch {
	case err != nil:
		return err
	case d.over:
		d.out = docElem{line: line, bad: fmt.Sprintf("ClickHouse's JSONColumnsWithMetadata of more than %d MiB, "+
			"too large to be turned into rows in memory: write it with FORMAT JSONEachRow", maxColumnTable>>20)}
	case !d.rowsOf(d.elem[from:], line):
		d.out = docElem{line: line, bad: `not the columns of ClickHouse's JSONColumnsWithMetadata: want {"col":[v,…],…}`}
	default:
		return nil
	}
	d.emit(&d.out)
	return nil
}
