package ingest_test

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// caddyPQRequest is Caddy's request object as a struct column, as DuckDB
// or Spark write a JSON log's nested object to Parquet.
type caddyPQRequest struct {
	ClientIP *string `parquet:"client_ip,optional"`
	Method   string  `parquet:"method"`
	URI      string  `parquet:"uri"`
}

type caddyPQRow struct {
	TS       float64           `parquet:"ts"`
	Logger   string            `parquet:"logger"`
	Request  *caddyPQRequest   `parquet:"request,optional"`
	Headers  map[string]string `parquet:"resp_headers"`
	UserID   string            `parquet:"user_id"` // "" in every row, as Caddy writes it
	Duration float64           `parquet:"duration"`
	Status   int64             `parquet:"status"`
}

// caddyPQRows returns n rows of Caddy's access log, the request null in
// a fifth of them and its client_ip in another fifth.
func caddyPQRows(n int) []caddyPQRow {
	var rows []caddyPQRow
	for i := range n {
		r := caddyPQRow{TS: 1764468000 + float64(i), Logger: "http.log.access.log0", Duration: 0.001 * float64(1+i%97),
			Status: 200, Headers: map[string]string{"Content-Type": "application/json"}}
		switch i % 5 {
		case 0: // no request object
		case 1:
			r.Request = &caddyPQRequest{Method: "GET", URI: "/healthz"}
		default:
			ip := "10.0.0." + string(rune('1'+i%7))
			r.Request = &caddyPQRequest{ClientIP: &ip, Method: "POST", URI: "/v1/chat/completions"}
		}
		rows = append(rows, r)
	}
	return rows
}

// TestParquetStructColumns reads a Parquet file whose request is a struct
// column, null in some rows and its client_ip null in others: each
// record's uri and client are its own, from the struct's columns, and an
// empty user_id takes no place of the client.
func TestParquetStructColumns(t *testing.T) {
	rows := caddyPQRows(300)
	path := filepath.Join(t.TempDir(), "caddy.parquet")
	if err := parquet.WriteFile(path, rows, parquet.MaxRowsPerRowGroup(64)); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	if len(got) != len(rows) || res.BadLines() != 0 || res.Files[0].Source != "caddy" {
		t.Fatalf("%d records, %d bad lines, source %q; want %d, 0, caddy: %v", len(got), res.BadLines(), res.Files[0].Source, len(rows), res.Problems)
	}
	for i, g := range got { // in time order, as written
		w := rows[i]
		var uri, client string
		if w.Request != nil {
			uri = w.Request.URI
			if w.Request.ClientIP != nil {
				client = *w.Request.ClientIP
			}
		}
		if g.uri != uri || g.client != client || math.Abs(g.rt-w.Duration) > 1e-12 {
			t.Fatalf("row %d: uri %q, client %q, request_time %v; want %q, %q, %v", i, g.uri, g.client, g.rt, uri, client, w.Duration)
		}
	}
}

// TestParquetUnfilledClientWithoutBounds: a column the footer gives no
// bounds for (a writer told to leave them out) names no client when none of the first rows fills it, as a
// JSON record without it would not: Caddy's user_id, "" in every row,
// leaves the client to request.client_ip. Filled, it is the client.
func TestParquetUnfilledClientWithoutBounds(t *testing.T) {
	for _, filled := range []bool{false, true} {
		rows := caddyPQRows(300)
		if filled {
			for i := range rows {
				rows[i].UserID = "user-" + string(rune('a'+i%5))
			}
		}
		path := filepath.Join(t.TempDir(), "caddy.parquet")
		if err := parquet.WriteFile(path, rows, parquet.MaxRowsPerRowGroup(64), parquet.SkipPageBounds("user_id")); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
		if len(got) != len(rows) || res.BadLines() != 0 || res.Files[0].Source != "caddy" {
			t.Fatalf("%d records, %d bad lines, source %q; want %d, 0, caddy: %v", len(got), res.BadLines(), res.Files[0].Source, len(rows), res.Problems)
		}
		for i, g := range got {
			client := rows[i].UserID
			if w := rows[i]; !filled && w.Request != nil && w.Request.ClientIP != nil {
				client = *w.Request.ClientIP
			}
			if g.client != client {
				t.Fatalf("user_id filled %v: row %d: client %q; want %q", filled, i, g.client, client)
			}
		}
	}
}
