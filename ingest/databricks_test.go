package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// dbxLegacyRow is a row of Databricks' legacy inference table, its
// columns' names and types as the docs give them
// (docs.databricks.com/en/machine-learning/model-serving/inference-tables.html).
type dbxLegacyRow struct {
	DatabricksRequestID string            `parquet:"databricks_request_id"`
	ClientRequestID     *string           `parquet:"client_request_id,optional"`
	Date                int32             `parquet:"date,date"`
	TimestampMS         int64             `parquet:"timestamp_ms"`
	StatusCode          int32             `parquet:"status_code"`
	SamplingFraction    float64           `parquet:"sampling_fraction"`
	ExecutionTimeMS     int64             `parquet:"execution_time_ms"`
	Request             string            `parquet:"request"`
	Response            string            `parquet:"response"`
	RequestMetadata     map[string]string `parquet:"request_metadata,optional"` // Spark's MAP: nullable
}

// dbxGatewayRow is a row of an AI Gateway-enabled inference table
// (docs.databricks.com/ai-gateway/inference-tables.html).
type dbxGatewayRow struct {
	DatabricksRequestID string   `parquet:"databricks_request_id"`
	RequestDate         int32    `parquet:"request_date,date"`
	ClientRequestID     *string  `parquet:"client_request_id,optional"`
	RequestTime         int64    `parquet:"request_time,timestamp(microsecond)"`
	StatusCode          int32    `parquet:"status_code"`
	SamplingFraction    float64  `parquet:"sampling_fraction"`
	ExecutionDurationMS int64    `parquet:"execution_duration_ms"`
	Request             string   `parquet:"request"`
	Response            string   `parquet:"response"`
	LoggingErrorCodes   []string `parquet:"logging_error_codes,list"`
	ServedEntityID      string   `parquet:"served_entity_id"`
	Requester           *string  `parquet:"requester,optional"`
}

// dbxCall is one logged request as the tests make it: its arrival,
// duration in ms, status, caller ("" for none) and model, the legacy
// table's request_metadata.model_name ("" for none: the map lacks the
// key, or is null when noMeta).
type dbxCall struct {
	at     time.Time
	ms     int64
	status int
	caller string
	model  string
	noMeta bool
}

// dbxCalls are n requests over a few minutes: mostly 200s of 0.2–4 s, a
// few 429s, 400s and 500s answered in ms.
func dbxCalls(n int) []dbxCall {
	start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	var calls []dbxCall
	for i := range n {
		c := dbxCall{at: start.Add(time.Duration(i)*1700*time.Millisecond + time.Duration(i*37%1000)*time.Millisecond),
			ms: int64(200 + i*7919%3800), status: 200, caller: []string{"alice@example.com", "36650389-1a56-4b80-be22-3ebcfe042150", ""}[i%3],
			model: []string{"chat_model", "llama_3_70b", "chat_model", "embed_bge"}[i%4]}
		switch i % 13 {
		case 5:
			c.model, c.noMeta = "", true
		case 8:
			c.model = ""
		}
		switch i % 11 {
		case 3:
			c.status, c.ms = 429, int64(5+i%20)
		case 7:
			c.status, c.ms = 500, int64(30+i%50)
		case 9:
			c.status, c.ms = 400, int64(3+i%9)
		}
		calls = append(calls, c)
	}
	return calls
}

func dbxResponse(c dbxCall) string {
	if c.status != 200 {
		return `{"error_code":"REQUEST_LIMIT_EXCEEDED","message":"Exceeded workspace rate limit."}`
	}
	return `{"object":"chat.completion","model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":30,"total_tokens":42}}`
}

const dbxRequest = `{"messages":[{"role":"user","content":"What is Delta Lake?"}]}`

// dbxParquet writes calls as a legacy inference table's Parquet file, or
// an AI Gateway-enabled one's, in row groups of 16.
func dbxParquet(tb testing.TB, calls []dbxCall, gateway bool) []byte {
	tb.Helper()
	var buf bytes.Buffer
	var err error
	if gateway {
		rows := make([]dbxGatewayRow, len(calls))
		for i, c := range calls {
			rows[i] = dbxGatewayRow{DatabricksRequestID: fmt.Sprintf("req-%04d", i), RequestDate: int32(c.at.Unix() / 86400),
				RequestTime: c.at.UnixMicro(), StatusCode: int32(c.status), SamplingFraction: 1, ExecutionDurationMS: c.ms,
				Request: dbxRequest, Response: dbxResponse(c), LoggingErrorCodes: []string{}, ServedEntityID: "2c5e22cf20044862812dfb724749c87c"}
			if c.caller != "" {
				rows[i].Requester = &c.caller
			}
		}
		err = parquet.Write(&buf, rows, parquet.MaxRowsPerRowGroup(16))
	} else {
		rows := make([]dbxLegacyRow, len(calls))
		for i, c := range calls {
			rows[i] = dbxLegacyRow{DatabricksRequestID: fmt.Sprintf("req-%04d", i), Date: int32(c.at.Unix() / 86400),
				TimestampMS: c.at.UnixMilli(), StatusCode: int32(c.status), SamplingFraction: 1, ExecutionTimeMS: c.ms,
				Request: dbxRequest, Response: dbxResponse(c)}
			if !c.noMeta {
				rows[i].RequestMetadata = map[string]string{"endpoint_name": "chat-ep", "model_version": "3"}
				if c.model != "" {
					rows[i].RequestMetadata["model_name"] = c.model
				}
			}
		}
		err = parquet.Write(&buf, rows, parquet.MaxRowsPerRowGroup(16))
	}
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// nearestRank is the q-quantile of sorted by the nearest rank.
func nearestRank(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}

// TestDatabricksInferenceTables reads both generations of Databricks'
// inference tables, as Parquet and as the JSON lines and CSV of the
// fixtures, with no flag: every request is read, with its status, and
// the latency quantiles are those of the tables' durations in ms.
func TestDatabricksInferenceTables(t *testing.T) {
	type table struct {
		path    string
		ms      []float64      // the durations, ms
		status  map[int64]int  // requests by status
		callers map[string]int // requests by requester; nil: not checked
		models  []string       // each request's model, "" for none; nil: not checked
		first   time.Time
	}
	var tables []table
	calls := dbxCalls(150)
	for _, gateway := range []bool{false, true} {
		tb := table{path: writeTemp(t, fmt.Sprintf("gateway-%v.parquet", gateway), string(dbxParquet(t, calls, gateway))),
			status: map[int64]int{}, first: calls[0].at}
		if gateway {
			tb.callers = map[string]int{}
		}
		for _, c := range calls {
			tb.ms = append(tb.ms, float64(c.ms))
			tb.status[int64(c.status)]++
			if gateway {
				tb.callers[c.caller]++
			} else {
				// request_metadata.model_name, else the response's
				// model, as its JSON export's (a string column of JSON
				// text, read by its paths).
				m := c.model
				if m == "" {
					var resp struct{ Model string }
					if err := json.Unmarshal([]byte(dbxResponse(c)), &resp); err != nil {
						t.Fatal(err)
					}
					m = resp.Model
				}
				tb.models = append(tb.models, m)
			}
		}
		tables = append(tables, tb)
	}
	// The fixtures, decoded by encoding/json and encoding/csv.
	for _, name := range []string{"databricks-legacy.jsonl", "databricks-legacy.csv", "databricks-gateway.jsonl", "databricks-gateway.csv"} {
		path := filepath.Join("testdata", "sources", name)
		tb := table{path: path, status: map[int64]int{}}
		for _, d := range readRawDocs(t, path) {
			ms := d.num("execution_time_ms")
			if math.IsNaN(ms) {
				ms = d.num("execution_duration_ms")
			}
			tb.ms = append(tb.ms, ms)
			st, err := strconv.ParseInt(fmt.Sprint(d.get("status_code")), 10, 64)
			if err != nil {
				t.Fatalf("%s: status_code %v", name, d.get("status_code"))
			}
			tb.status[st]++
		}
		tables = append(tables, tb)
	}
	for _, tb := range tables {
		for _, workers := range []int{1, 3} {
			got, res := collect(t, []string{tb.path}, ingest.Options{Workers: workers, Location: time.UTC})
			if len(res.Files) != 1 || res.Files[0].Source != "databricks" || res.BadLines() != 0 || len(got) != len(tb.ms) {
				t.Fatalf("%s, %d workers: %d records, files %+v; want %d records of source databricks", tb.path, workers, len(got), res.Files, len(tb.ms))
			}
			status, callers := map[int64]int{}, map[string]int{}
			var ms []float64
			for _, g := range got {
				if !g.hasStatus || !g.hasTime {
					t.Fatalf("%s: a record without status or time: %+v", tb.path, g)
				}
				status[g.status]++
				callers[g.client]++
				ms = append(ms, g.rt*1000)
			}
			if fmt.Sprint(status) != fmt.Sprint(tb.status) {
				t.Errorf("%s, %d workers: statuses %v, want %v", tb.path, workers, status, tb.status)
			}
			if tb.callers != nil && fmt.Sprint(callers) != fmt.Sprint(tb.callers) {
				t.Errorf("%s, %d workers: clients %v, want %v", tb.path, workers, callers, tb.callers)
			}
			want := slices.Sorted(slices.Values(tb.ms))
			slices.Sort(ms)
			for _, q := range []float64{0.5, 0.95, 0.99} {
				if g, w := nearestRank(ms, q), nearestRank(want, q); math.Abs(g-w) > 1e-6 {
					t.Errorf("%s, %d workers: p%v %v ms, want %v ms", tb.path, workers, q*100, g, w)
				}
			}
			// The legacy table's model, request_metadata.model_name: a
			// MAP's value of a key (the requests arrive in order); the
			// response's where the map has none.
			for i, m := range tb.models {
				if g := got[i]; g.model != m || g.hasModel != (m != "") {
					t.Errorf("%s, %d workers: request %d has model %q (%v), want %q", tb.path, workers, i, g.model, g.hasModel, m)
				}
			}
			if !tb.first.IsZero() && got[0].timeNS != tb.first.UnixNano() {
				t.Errorf("%s: first request at %v, want %v", tb.path, time.Unix(0, got[0].timeNS).UTC(), tb.first)
			}
		}
	}
}

// TestDatabricksStatusCodeOnly: status_code is the HTTP status of a
// Databricks inference table only; SPEC §3 lists no such generic alias,
// so another log's status_code is not read as one.
func TestDatabricksStatusCodeOnly(t *testing.T) {
	line, _ := json.Marshal(map[string]any{"time": "2026-12-05T10:00:00Z", "request_time": 0.5, "status_code": 429})
	got, res := collect(t, []string{writeTemp(t, "other.jsonl", string(line)+"\n")}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 1 || res.Files[0].Source == "databricks" || got[0].hasStatus {
		t.Errorf("%+v, files %+v: want one record, of no Databricks table, without status", got, res.Files)
	}
}

// dbxUsageRow is a row of Databricks' usage table,
// system.serving.endpoint_usage, its columns' names and types as the
// docs give them (docs.databricks.com/ai-gateway/
// configure-ai-gateway-endpoints.html, "Usage tracking table schemas");
// the token counts nullable, as Spark writes a column.
type dbxUsageRow struct {
	AccountID            string            `parquet:"account_id"`
	WorkspaceID          string            `parquet:"workspace_id"`
	ClientRequestID      *string           `parquet:"client_request_id,optional"`
	DatabricksRequestID  string            `parquet:"databricks_request_id"`
	Requester            *string           `parquet:"requester,optional"`
	StatusCode           int32             `parquet:"status_code"`
	RequestTime          int64             `parquet:"request_time,timestamp(microsecond)"`
	InputTokenCount      *int64            `parquet:"input_token_count,optional"`
	OutputTokenCount     *int64            `parquet:"output_token_count,optional"`
	InputCharacterCount  int64             `parquet:"input_character_count"`
	OutputCharacterCount int64             `parquet:"output_character_count"`
	UsageContext         map[string]string `parquet:"usage_context,optional"`
	RequestStreaming     bool              `parquet:"request_streaming"`
	ServedEntityID       string            `parquet:"served_entity_id"`
}

// TestDatabricksUsageParquet reads the usage table as its Delta table's
// Parquet files: each record's time is its request_time, its status
// status_code, its client requester (none where null), its tokens
// input_token_count and output_token_count, its stream
// request_streaming; no record has a request_time, the table having no
// duration.
func TestDatabricksUsageParquet(t *testing.T) {
	start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	var rows []dbxUsageRow
	for i := range 40 {
		r := dbxUsageRow{AccountID: "8a4e1f2b", WorkspaceID: "1234567890123456", DatabricksRequestID: fmt.Sprintf("req-%04d", i),
			StatusCode: int32([]int{200, 200, 429, 200, 500}[i%5]), RequestTime: start.Add(time.Duration(i) * 1300 * time.Millisecond).UnixMicro(),
			RequestStreaming: i%3 == 0, ServedEntityID: "2c5e22cf"}
		in, out := int64(10+i*7), int64(i*13%50)
		r.InputTokenCount, r.OutputTokenCount = &in, &out
		r.InputCharacterCount, r.OutputCharacterCount = 4*in, 4*out
		if i%4 != 3 {
			who := []string{"alice@example.com", "36650389-1a56-4b80-be22-3ebcfe042150"}[i%2]
			r.Requester = &who
		}
		if i%2 == 0 {
			r.UsageContext = map[string]string{"project": "support-bot"}
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows, parquet.MaxRowsPerRowGroup(16)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "endpoint_usage.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	if f := res.Files[0]; f.Source != "databricks-usage" || f.Incomplete || f.BadLines != 0 || len(got) != len(rows) {
		t.Fatalf("%d records of %d, %+v", len(got), len(rows), f)
	}
	for i, r := range rows {
		g := got[i]
		client := ""
		if r.Requester != nil {
			client = *r.Requester
		}
		if g.timeNS != r.RequestTime*1000 || g.status != int64(r.StatusCode) || g.client != client || !math.IsNaN(g.rt) ||
			g.prompt != *r.InputTokenCount || g.completion != *r.OutputTokenCount || !g.hasStream || g.stream != r.RequestStreaming {
			t.Errorf("record %d: %+v, want %+v", i, g, r)
		}
	}
}
