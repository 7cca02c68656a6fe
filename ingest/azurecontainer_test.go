package ingest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// containerLogV2Columns are the columns of Azure Monitor's ContainerLogV2
// table a query of it returns, in the order of
// learn.microsoft.com/azure/azure-monitor/reference/tables/containerlogv2
// (LogMessage dynamic, the others strings but TimeGenerated).
var containerLogV2Columns = []string{"TenantId", "TimeGenerated", "Computer", "ContainerId", "ContainerName",
	"PodName", "PodNamespace", "LogMessage", "LogSource", "LogLevel", "Type"}

// containerLogV2 returns lines as ContainerLogV2 rows: the Log Analytics
// query API's answer, each LogMessage the line's text (the API writes a
// dynamic value as its JSON text); the same with each JSON line's
// LogMessage the object itself, indented (a client that decoded it); and
// the portal's "Export to CSV" ("TimeGenerated [UTC]" as the portal
// writes it, a BOM, CRLF line ends).
func containerLogV2(t *testing.T, lines []string, at func(i int) time.Time) (api, decoded, csv []byte) {
	t.Helper()
	var cols []map[string]string
	for _, c := range containerLogV2Columns {
		typ := "string"
		switch c {
		case "TimeGenerated":
			typ = "datetime"
		case "LogMessage":
			typ = "dynamic"
		}
		cols = append(cols, map[string]string{"name": c, "type": typ})
	}
	var rows, objRows [][]any
	head := append([]string(nil), containerLogV2Columns...)
	head[1] = "TimeGenerated [UTC]"
	table := [][]string{head}
	for i, l := range lines {
		ts := at(i).UTC()
		row := []any{"0a1b2c3d-0000-0000-0000-000000000001", ts.Format("2006-01-02T15:04:05.0000000Z"), "aks-nodepool1-0",
			"c1a2b3", "gateway", "llm-gw-7d9f", "ingress", l, "stdout", "INFO", "ContainerLogV2"}
		rows = append(rows, row)
		obj := append([]any(nil), row...)
		if json.Valid([]byte(l)) && strings.HasPrefix(l, "{") {
			obj[7] = json.RawMessage(l)
		}
		objRows = append(objRows, obj)
		table = append(table, portalCells(row, ts))
	}
	answer := func(rows [][]any, indent string) []byte {
		return jsonOf(t, map[string]any{"tables": []any{map[string]any{"name": "PrimaryResult", "columns": cols, "rows": rows}}}, indent)
	}
	return answer(rows, ""), answer(objRows, "  "), []byte("\ufeff" + strings.ReplaceAll(csvOf(t, table), "\n", "\r\n"))
}

// portalCells is a query answer's row as Azure's portal exports it to
// CSV: its texts, its TimeGenerated (second) as the portal writes it.
func portalCells(row []any, ts time.Time) []string {
	cells := make([]string, len(row))
	for j, v := range row {
		cells[j], _ = v.(string)
	}
	cells[1] = ts.Format("1/2/2006, 3:04:05.000 PM")
	return cells
}

// TestAzureContainerLogV2: ContainerLogV2 rows of a gateway's lines, as
// the query API answers them (LogMessage the line's text, or the object
// of a JSON line) and as the portal exports them to CSV, give the
// records of their lines, as the lines alone do.
func TestAzureContainerLogV2(t *testing.T) {
	dir := t.TempDir()
	at := func(i int) time.Time { return time.Date(2026, 12, 4, 2, 0, i%60, 125e6, time.UTC) }
	for _, src := range lineSamples {
		name := filepath.Base(src)
		api, decoded, csv := containerLogV2(t, fileLines(t, src), at)
		checkAsLines(t, src, ingest.EnvAzureContainer, map[string][]byte{
			filepath.Join(dir, "query-"+name+".json"):   api,
			filepath.Join(dir, "decoded-"+name+".json"): decoded,
		})
		checkAsLines(t, src, ingest.EnvRawCSV, map[string][]byte{
			filepath.Join(dir, "query_data-"+name+".csv"): csv,
		})
	}
}

// containerAppColumns are the columns of Azure Container Apps' table
// ContainerAppConsoleLogs a query of it returns, in the order of
// learn.microsoft.com/azure/azure-monitor/reference/tables/
// containerappconsolelogs (Log a string); suffixed (Log_s,
// ContainerAppName_s, …), the custom table ContainerAppConsoleLogs_CL's.
var containerAppColumns = []string{"TenantId", "TimeGenerated", "ContainerAppName", "ContainerGroupId", "ContainerGroupName",
	"ContainerId", "ContainerImage", "ContainerName", "EnvironmentName", "Log", "RevisionName", "Stream", "Type"}

// containerAppRows returns lines as rows of ContainerAppConsoleLogs, or
// of ContainerAppConsoleLogs_CL when suffix is "_s": the query API's
// answer, and the portal's "Export to CSV" of them.
func containerAppRows(t *testing.T, lines []string, at func(i int) time.Time, suffix string) (api, csv []byte) {
	t.Helper()
	var cols []map[string]string
	head := []string{}
	for _, c := range containerAppColumns {
		typ, name := "string", c
		switch c {
		case "TimeGenerated":
			typ = "datetime"
		case "TenantId", "Type":
		default:
			name += suffix
		}
		cols = append(cols, map[string]string{"name": name, "type": typ})
		head = append(head, name)
	}
	head[1] = "TimeGenerated [UTC]"
	table := "ContainerAppConsoleLogs"
	if suffix != "" {
		table += "_CL"
	}
	var rows [][]any
	cells := [][]string{head}
	for i, l := range lines {
		ts := at(i).UTC()
		row := []any{"0a1b2c3d-0000-0000-0000-000000000001", ts.Format("2006-01-02T15:04:05.0000000Z"), "llm-gw",
			"llm-gw--rev3-5f7c9d-x2k4p", "llm-gw--rev3-5f7c9d-x2k4p", "containerd://4f1e", "myacr.azurecr.io/llm-gw:1.4",
			"llm-gw", "prod-env", l, "llm-gw--rev3", "stdout", table}
		rows = append(rows, row)
		cells = append(cells, portalCells(row, ts))
	}
	api = jsonOf(t, map[string]any{"tables": []any{map[string]any{"name": "PrimaryResult", "columns": cols, "rows": rows}}}, "")
	return api, []byte("\ufeff" + strings.ReplaceAll(csvOf(t, cells), "\n", "\r\n"))
}

// TestAzureContainerApps: rows of Azure Container Apps' console logs, of
// the table ContainerAppConsoleLogs and of the older custom table
// ContainerAppConsoleLogs_CL, as the query API answers them and as the
// portal exports them to CSV, give the records of their lines, as the
// lines alone do.
func TestAzureContainerApps(t *testing.T) {
	dir := t.TempDir()
	at := func(i int) time.Time { return time.Date(2026, 12, 4, 2, 0, i%60, 125e6, time.UTC) }
	for _, src := range lineSamples {
		name := filepath.Base(src)
		for _, suffix := range []string{"", "_s"} {
			api, csv := containerAppRows(t, fileLines(t, src), at, suffix)
			checkAsLines(t, src, ingest.EnvAzureContainer, map[string][]byte{
				filepath.Join(dir, "query"+suffix+"-"+name+".json"): api,
			})
			checkAsLines(t, src, ingest.EnvRawCSV, map[string][]byte{
				filepath.Join(dir, "query_data"+suffix+"-"+name+".csv"): csv,
			})
		}
	}
}

// TestAzureAppServiceConsole: rows of App Service's AppServiceConsoleLogs
// table (learn.microsoft.com/azure/azure-monitor/reference/tables/
// appserviceconsolelogs: the line in ResultDescription), as the query API
// answers them and as the portal exports them to CSV, give the records
// of their lines, as the lines alone do.
func TestAzureAppServiceConsole(t *testing.T) {
	dir := t.TempDir()
	names := []string{"TenantId", "TimeGenerated", "Level", "Host", "ResultDescription", "ContainerId", "OperationName", "Category", "SourceSystem", "Type", "_ResourceId"}
	for _, src := range lineSamples {
		var cols []map[string]string
		for _, c := range names {
			typ := "string"
			if c == "TimeGenerated" {
				typ = "datetime"
			}
			cols = append(cols, map[string]string{"name": c, "type": typ})
		}
		head := append([]string(nil), names...)
		head[1] = "TimeGenerated [UTC]"
		var rows [][]any
		cells := [][]string{head}
		for i, l := range fileLines(t, src) {
			ts := time.Date(2026, 12, 4, 2, 0, i%60, 125e6, time.UTC)
			row := []any{"t", ts.Format("2006-01-02T15:04:05.0000000Z"), "Informational", "lw1sdlwk00001Q", l, "a1b2c3d4e5f6",
				"Microsoft.Web/sites/log", "AppServiceConsoleLogs", "RestAPI", "AppServiceConsoleLogs", "/subscriptions/x/resourcegroups/rg/providers/microsoft.web/sites/llm-gw"}
			rows = append(rows, row)
			cells = append(cells, portalCells(row, ts))
		}
		name := filepath.Base(src)
		checkAsLines(t, src, ingest.EnvAzureContainer, map[string][]byte{
			filepath.Join(dir, "appsvc-"+name+".json"): jsonOf(t, map[string]any{"tables": []any{map[string]any{"name": "PrimaryResult", "columns": cols, "rows": rows}}}, ""),
		})
		checkAsLines(t, src, ingest.EnvRawCSV, map[string][]byte{
			filepath.Join(dir, "appsvc-"+name+".csv"): []byte("\ufeff" + strings.ReplaceAll(csvOf(t, cells), "\n", "\r\n")),
		})
	}
}

// TestAzureLogColumnAlone: a column named Log is a line only beside a
// container app's or revision's name, and one named ResultDescription
// only beside a ContainerId: another table's is read as a column.
func TestAzureLogColumnAlone(t *testing.T) {
	doc := `{"tables":[{"name":"PrimaryResult","columns":[{"name":"TimeGenerated","type":"datetime"},{"name":"Log","type":"string"},{"name":"request_time","type":"real"},{"name":"status","type":"int"}],` +
		`"rows":[["2026-12-04T02:00:00Z","x",0.5,200],["2026-12-04T02:00:01Z","y",1.5,502]]}]}`
	for _, d := range []string{doc, strings.ReplaceAll(doc, `"Log"`, `"ResultDescription"`)} {
		_, res := collect(t, []string{writeTemp(t, "other.json", d)}, ingest.Options{Workers: 1, Location: time.UTC})
		if f := res.Files[0]; f.Envelope == ingest.EnvAzureContainer || f.Records != 2 {
			t.Errorf("%+v: want its 2 rows read as records of their columns", f)
		}
	}
}

// containerRow is what a test expects of a ContainerLogV2 row of a JSON
// line: decoded from the fixture with encoding/json.
type containerRow struct {
	at     time.Time
	rt     float64
	status int64
	model  string
}

// containerRowsOf decodes the query API answer at path: each row of a
// LogMessage (a JSON line's text, or its object) is a record, its time
// the line's own "time", else the row's TimeGenerated.
func containerRowsOf(t *testing.T, path string) []containerRow {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tables []struct {
			Columns []struct{ Name string }
			Rows    [][]json.RawMessage
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []containerRow
	for _, tab := range doc.Tables {
		col := map[string]int{}
		for i, c := range tab.Columns {
			col[c.Name] = i
		}
		for _, r := range tab.Rows {
			msg := r[col["LogMessage"]]
			var text string
			if json.Unmarshal(msg, &text) == nil {
				msg = json.RawMessage(text)
			}
			var line struct {
				Time        *time.Time `json:"time"`
				Status      int64      `json:"status"`
				RequestTime float64    `json:"request_time"`
				Model       string     `json:"model"`
			}
			if json.Unmarshal(msg, &line) != nil {
				continue // null: no line
			}
			var gen time.Time
			if err := json.Unmarshal(r[col["TimeGenerated"]], &gen); err != nil {
				t.Fatal(err)
			}
			w := containerRow{at: gen, rt: line.RequestTime, status: line.Status, model: line.Model}
			if line.Time != nil {
				w.at = *line.Time
			}
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].at.Before(out[j].at) })
	return out
}

// TestAzureContainerTime: a JSON line of no time of its own takes its
// row's TimeGenerated (UTC, whatever --tz says), in the query API's
// answer (testdata/azure/containerlogv2.json: a LogMessage as the line's
// text and as its object, indented) and in the portal's CSV export
// (containerlogv2.csv, "TimeGenerated [UTC]"); a line with its own keeps
// it; a row whose LogMessage is null is a bad line.
func TestAzureContainerTime(t *testing.T) {
	shanghai := time.FixedZone("CST", 8*3600)
	want := containerRowsOf(t, "testdata/azure/containerlogv2.json")
	if len(want) != 3 {
		t.Fatalf("the fixture holds %d rows of a line, want 3", len(want))
	}
	for _, c := range []struct {
		path string
		env  ingest.Envelope
		bad  int
	}{{"testdata/azure/containerlogv2.json", ingest.EnvAzureContainer, 1}, {"testdata/azure/containerlogv2.csv", ingest.EnvRawCSV, 0}} {
		got, res := collect(t, []string{c.path}, ingest.Options{Workers: 1, Location: shanghai, MaxProblems: 10})
		f := res.Files[0]
		if f.Envelope != c.env || len(got) != len(want) || f.BadLines != int64(c.bad) {
			t.Fatalf("%s: envelope %q, %d records, %d bad lines (%v); want %q, %d, %d", c.path, f.Envelope, len(got), f.BadLines, res.Problems, c.env, len(want), c.bad)
		}
		for i, w := range want {
			if g := got[i]; g.timeNS != w.at.UnixNano() || !nearSrc(g.rt, w.rt) || g.status != w.status || g.model != w.model {
				t.Errorf("%s: record %d: %v, %v s, %d, %q; want %v, %v s, %d, %q", c.path, i, time.Unix(0, g.timeNS).UTC(), g.rt, g.status, g.model, w.at.UTC(), w.rt, w.status, w.model)
			}
		}
		if c.bad > 0 && !strings.Contains(res.Problems[0].Reason, "message is missing") {
			t.Errorf("%s: bad line %v; want the row of a null LogMessage", c.path, res.Problems)
		}
	}
}

// TestAzureContainerLog: the older ContainerLog table's rows
// (testdata/azure/containerlog.json) hold the line in LogEntry: an
// ingress controller's nginx lines are its records, and its own message
// on stderr (klog's) is passed over.
func TestAzureContainerLog(t *testing.T) {
	got, res := collect(t, []string{"testdata/azure/containerlog.json"}, ingest.Options{Workers: 1, MaxProblems: 10})
	f := res.Files[0]
	if f.Envelope != ingest.EnvAzureContainer || f.Format != ingest.Nginx || len(got) != 2 || f.BadLines != 0 || f.PassedOver != 1 {
		t.Fatalf("envelope %q, format %s, %d records, %d bad lines, %d passed over (%v); want azure-container, nginx, 2, 0, 1", f.Envelope, f.Format, len(got), f.BadLines, f.PassedOver, res.Problems)
	}
	// The fixture's lines, by hand: [05/Dec/2026:10:00:00 +0800] 200
	// 0.512 s, then [05/Dec/2026:10:00:02 +0800] 504 60.001 s.
	cst := time.FixedZone("", 8*3600)
	want := []containerRow{{at: time.Date(2026, 12, 5, 10, 0, 0, 0, cst), rt: 0.512, status: 200}, {at: time.Date(2026, 12, 5, 10, 0, 2, 0, cst), rt: 60.001, status: 504}}
	for i, w := range want {
		if g := got[i]; g.timeNS != w.at.UnixNano() || !nearSrc(g.rt, w.rt) || g.status != w.status {
			t.Errorf("record %d: %v, %v s, %d; want %v, %v s, %d", i, time.Unix(0, g.timeNS).UTC(), g.rt, g.status, w.at.UTC(), w.rt, w.status)
		}
	}
}

// TestAzureContainerFields: rows of a query that projected fields parsed
// from the lines beside LogMessage (request_time among them) are read by
// their columns, not as the lines.
func TestAzureContainerFields(t *testing.T) {
	doc := `{"tables":[{"name":"PrimaryResult","columns":[{"name":"TimeGenerated","type":"datetime"},{"name":"PodName","type":"string"},` +
		`{"name":"LogMessage","type":"dynamic"},{"name":"status","type":"long"},{"name":"request_time","type":"real"}],"rows":[` +
		`["2026-12-05T10:00:00.5000000Z","gw-1","x",200,0.75],["2026-12-05T10:00:01Z","gw-1","y",429,0.002]]}]}`
	got, res := collect(t, []string{writeTemp(t, "query.json", doc)}, ingest.Options{Workers: 1})
	f := res.Files[0]
	if f.Envelope != ingest.NoEnvelope || len(got) != 2 || f.BadLines != 0 {
		t.Fatalf("envelope %q, %d records, %d bad lines; want none, 2, 0", f.Envelope, len(got), f.BadLines)
	}
	if g := got[0]; g.timeNS != time.Date(2026, 12, 5, 10, 0, 0, 500e6, time.UTC).UnixNano() || !nearSrc(g.rt, 0.75) || g.status != 200 {
		t.Errorf("record 0: %v, %v s, %d; want 10:00:00.5Z, 0.75 s, 200", time.Unix(0, g.timeNS).UTC(), g.rt, g.status)
	}
}
