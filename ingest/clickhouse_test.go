package ingest_test

import (
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestClickHouseNamesAndTypes: ClickHouse's TSVWithNamesAndTypes and
// CSVWithNamesAndTypes write the columns' types in a row under their
// names: part of the header, no record and no bad line. A first row
// that only looks alike (words of a type's name, the wrong count) is a
// row.
func TestClickHouseNamesAndTypes(t *testing.T) {
	rows := [][]string{
		{"2026-12-04 02:00:01.457", "0.162", "200", "glm-4"},
		{"2026-12-04 02:00:02.001", "1.5", "429", "glm-4"},
		{"2026-12-04 02:00:03.250", "\\N", "502", "qwen"},
	}
	for _, c := range []struct {
		name, sep, types string
	}{
		{"tsv.tsv", "\t", "DateTime64(3)\tNullable(Float64)\tUInt16\tLowCardinality(String)"},
		{"csv.csv", ",", `DateTime64(3, 'Asia/Shanghai'),"Nullable(Decimal(9, 3))",UInt16,LowCardinality(Nullable(String))`},
	} {
		var b strings.Builder
		b.WriteString(strings.Join([]string{"time", "request_time", "status", "model"}, c.sep) + "\n" + c.types + "\n")
		for _, r := range rows {
			b.WriteString(strings.Join(r, c.sep) + "\n")
		}
		got, res := collect(t, []string{writeTemp(t, c.name, b.String())}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(got) != 3 || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines (%v); want 3, none", c.name, len(got), res.BadLines(), res.Problems)
		}
		if got[0].status != 200 || !nearSrc(got[1].rt, 1.5) || got[2].status != 502 || got[0].timeNS != time.Date(2026, 12, 4, 2, 0, 1, 457e6, time.UTC).UnixNano() {
			t.Errorf("%s: records %+v", c.name, got)
		}
	}
	// Rows of words that name types, but not one a column: records.
	text := "model,region\nString,Date\nUUID,Int8\n"
	got, res := collect(t, []string{writeTemp(t, "words.csv", text)}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 2 || res.BadLines() != 0 || got[0].model != "String" {
		t.Errorf("rows of type words: %d records (%+v), %d bad lines; want 2, the first String's", len(got), got, res.BadLines())
	}
}
