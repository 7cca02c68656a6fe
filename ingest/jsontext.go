package ingest

import (
	"fmt"
	"math/bits"
)

// A JSON object held as text in a table's column is read by its
// members' paths under the column's name, as a JSON line's nested
// object, or its JSON held in a string (Higress's ai_log), is read
// (jsonParser.object). Exporters write an object into a CSV cell
// ({"input":500,"output":120} under Langfuse's usage_details), and a
// conversion of such JSON lines or CSV to Parquet or Arrow keeps it a
// string: DuckDB's read_csv gives a column whose values fit no other
// type VARCHAR (https://duckdb.org/docs/stable/data/csv/auto_detection),
// its read_json a JSON string VARCHAR and a key whose values differ in
// shape JSON (https://duckdb.org/docs/stable/data/json/loading_json),
// and COPY ... (FORMAT parquet) writes either as a BYTE_ARRAY column.
// Such a column is one that no name binds but that is the parent of
// dotted names the schema binds ("ai_log" of
// "ai_log.llm_first_token_duration", "usage_details" of
// "usage_details.input"), as a CSV column read so (csvJSON).

// textObject reads the JSON object val, a value of column name, into r
// by its members' paths under name. A value that is not an object
// (empty, "-", a plain text) is passed over. An object that is not valid
// JSON (a Python dict's repr, as pandas writes one) is a value that
// cannot be read: the fields below the column are left out and the
// record kept (SPEC §3), unless the time or request_time is among them,
// which makes the row bad. Decoded strings go to p's scratch buffer,
// which the caller keeps as long as its records.
func (p *jsonParser) textObject(r *Record, name, val []byte) error {
	if len(val) == 0 || val[0] != '{' {
		return nil
	}
	s := scanner{b: val}
	err := p.object(&s, r, name, 1)
	if err == nil {
		if s.ws(); s.i != len(s.b) {
			err = s.fail("text after the object")
		}
	}
	if err != nil {
		below := p.schema.prefixFields(name) &^ (1 << ignored)
		if below&(1<<FTime|1<<FRequestTime) != 0 || below == 0 {
			return fmt.Errorf("%s: %w", name, err)
		}
		r.unreadable(Field(bits.TrailingZeros64(below)), val)
	}
	return nil
}
