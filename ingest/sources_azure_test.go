package ingest_test

import (
	"encoding/json"
	"math"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// numOf is the first of paths d holds a number at (JSON's, or text, as
// Azure writes many), NaN when none.
func numOf(d rawDoc, paths ...string) float64 {
	for _, p := range paths {
		if v := d.num(p); !math.IsNaN(v) {
			return v
		}
	}
	return math.NaN()
}

// strOf is the first of paths d holds text at (not "" or "-"), or a
// number's text.
func strOf(d rawDoc, paths ...string) string {
	for _, p := range paths {
		if v := d.str(p); v != "" {
			return v
		}
		if n, ok := d.get(p).(json.Number); ok {
			return n.String()
		}
	}
	return ""
}

// appgwOracle: Application Gateway v2's resource log (properties.*,
// timeStamp) or AGWAccessLogs's columns; timeTaken and
// serverResponseLatency in seconds, as Microsoft's v2 reference says,
// here in ms. The log names no caller: the client is the address.
func appgwOracle(d rawDoc) sourceWant {
	at := rfc(strOf(d, "timeStamp", "time", "TimeGenerated"))
	return sourceWant{rt: numOf(d, "properties.timeTaken", "TimeTaken") * 1000,
		ups:    numOf(d, "properties.serverResponseLatency", "ServerResponseLatency") * 1000,
		ttft:   math.NaN(),
		status: int(numOf(d, "properties.httpStatus", "HttpStatus")), stream: -1, timeNS: at,
		client: strOf(d, "properties.clientIP", "ClientIp")}
}

// azureRow is what TestAzureSourceFields checks of a record beyond
// TestSourceFixtures's times and status.
type azureRow struct {
	timeNS                                  int64
	method, uri, host, upstream, addr, ttfb string
	region                                  string
	upstreamStatus                          int64 // 0 when absent
}

type azureSink struct{ rows []azureRow }

func (s *azureSink) Add(r *ingest.Record) {
	us, _ := r.Int(ingest.FUpstreamStatus)
	ttfb := "absent"
	if v, ok := r.Float(ingest.FTTFB); ok {
		ttfb = strconv.FormatFloat(v, 'f', 3, 64)
	}
	s.rows = append(s.rows, azureRow{timeNS: r.TimeNS, method: string(r.Text(ingest.FMethod)),
		uri: string(ingest.URIPath(r.Text(ingest.FURI))), host: string(r.Text(ingest.FHost)),
		upstream: string(r.Text(ingest.FUpstreamAddr)), addr: string(r.Text(ingest.FRemoteAddr)), ttfb: ttfb,
		region: string(r.Text(ingest.FRegion)), upstreamStatus: us})
}

// urlPath is the path of a URI as net/url reads it: a path as it is, a
// full URL's path.
func urlPath(t *testing.T, s string) string {
	t.Helper()
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

// azureFields say, per source, what a record's method, path, host,
// upstream, address, time to first byte (ms) and upstream status are,
// by the names and units of Microsoft's documentation.
var azureFields = map[string]func(t *testing.T, d rawDoc) azureRow{
	// Application Gateway: the path after its rewrites (requestUri),
	// the Host header after them (host), the backend it routed to and
	// that backend's status; no time to first byte, no region.
	"azure-appgw": func(t *testing.T, d rawDoc) azureRow {
		us, _ := strconv.ParseInt(strOf(d, "properties.serverStatus", "ServerStatus"), 10, 64)
		uri := strOf(d, "properties.requestUri", "RequestUri")
		if uri == "" {
			uri = strOf(d, "properties.originalRequestUriWithArgs", "OriginalRequestUriWithArgs")
		}
		return azureRow{method: strOf(d, "properties.httpMethod", "HttpMethod"), uri: urlPath(t, uri),
			host:     strOf(d, "properties.host", "Host", "properties.originalHost", "OriginalHost"),
			upstream: strOf(d, "properties.serverRouted", "ServerRouted"), addr: strOf(d, "properties.clientIP", "ClientIp"),
			ttfb: "absent", upstreamStatus: us}
	},
}

// TestAzureSourceFields: every record of the Azure sources' fixtures
// gives the method, path, host, upstream, client address, time to first
// byte and upstream status its documentation says, worked out here with
// encoding/json and net/url.
func TestAzureSourceFields(t *testing.T) {
	for file, src := range sourceFixtures {
		oracle := azureFields[src]
		if oracle == nil {
			continue
		}
		path := filepath.Join("testdata", "sources", file)
		docs := readRawDocs(t, path)
		sinks, _, err := ingest.Run([]string{path}, ingest.Options{Workers: 1, Location: time.UTC}, func() *azureSink { return &azureSink{} })
		if err != nil {
			t.Fatal(err)
		}
		var got []azureRow
		for _, s := range sinks {
			got = append(got, s.rows...)
		}
		sort.Slice(got, func(i, j int) bool { return got[i].timeNS < got[j].timeNS })
		if len(got) != len(docs) {
			t.Fatalf("%s: %d records, want %d", file, len(got), len(docs))
		}
		for i, d := range docs {
			w := oracle(t, d)
			w.timeNS = got[i].timeNS
			if got[i] != w {
				t.Errorf("%s record %d:\n got %+v\nwant %+v", file, i, got[i], w)
			}
		}
	}
}

// TestAzureSourcesDetected: CSV exports of the Log Analytics tables are
// their source's by their column names, and logs that only look alike
// (the same gateways' other logs, Application Gateway v1's, Application
// Gateway for Containers') are not.
func TestAzureSourcesDetected(t *testing.T) {
	for _, c := range []struct {
		name, text, src string
		rt, urt         float64 // s of the first record
	}{
		// AGWAccessLogs exported as CSV.
		{"agw.csv", `TimeGenerated,ClientIp,HttpMethod,RequestUri,HttpStatus,TimeTaken,ServerRouted,ServerStatus,ServerResponseLatency,TransactionId,ClientResponseTime,Host
2026-12-04T17:00:41.213Z,203.0.113.7,POST,/openai/deployments/gpt-4o/chat/completions,200,41.213,10.20.1.4:443,200,41.189,5d1a9c0e7b2f4e21a3c6d8e9f0a1b2c4,0.021,aoai.contoso.com
`, "azure-appgw", 41.213, 41.189},
	} {
		got, res := collect(t, []string{writeTemp(t, c.name, c.text)}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(got) == 0 || res.Files[0].Source != c.src {
			t.Errorf("%s: %d records, source %q; want %s", c.name, len(got), res.Files[0].Source, c.src)
			continue
		}
		if !nearSrc(got[0].rt, c.rt) || !nearSrc(got[0].urt, c.urt) {
			t.Errorf("%s: request_time %v s, upstream %v s; want %v, %v", c.name, got[0].rt, got[0].urt, c.rt, c.urt)
		}
	}
	rid := `"resourceId":"/SUBSCRIPTIONS/X/RESOURCEGROUPS/Y/PROVIDERS/MICROSOFT.NETWORK/APPLICATIONGATEWAYS/Z",`
	for name, text := range map[string]string{
		// Application Gateway v1's access log, as its documented sample:
		// timeTaken in ms, the backend only in requestQuery.
		"agw-v1.jsonl": `{` + rid + `"operationName":"ApplicationGatewayAccess","time":"2026-12-04T16:00:00Z","category":"ApplicationGatewayAccessLog",` +
			`"properties":{"instanceId":"ApplicationGatewayRole_IN_0","clientIP":"203.0.113.7","clientPort":46886,"httpMethod":"GET","requestUri":"/v1/models",` +
			`"requestQuery":"X-AzureApplicationGateway-CACHE-HIT=0&SERVER-ROUTED=10.4.0.4&X-AzureApplicationGateway-LOG-ID=874f1f0f-6807-41c9-b7bc-f3cfa74aa0b1&SERVER-STATUS=200",` +
			`"userAgent":"-","httpStatus":200,"httpVersion":"HTTP/1.1","receivedBytes":65,"sentBytes":553,"timeTaken":205,"sslEnabled":"off","host":"llm.contoso.com","originalHost":"llm.contoso.com"}}` + "\n",
		// Its firewall log: a transactionId, no timing.
		"agw-waf.jsonl": `{"timeStamp":"2026-12-04T16:00:00+00:00",` + rid + `"operationName":"ApplicationGatewayFirewall","category":"ApplicationGatewayFirewallLog",` +
			`"properties":{"instanceId":"appgw_2","clientIp":"203.0.113.7","clientPort":"","requestUri":"/openai/deployments/gpt-4o/chat/completions","ruleSetType":"OWASP_CRS",` +
			`"ruleSetVersion":"3.2","ruleId":"920350","message":"Host header is a numeric IP address","action":"Matched","site":"Global",` +
			`"details":{"message":"Warning. Pattern match","data":"20.110.30.194:443","file":"rules/REQUEST-920-PROTOCOL-ENFORCEMENT.conf","line":"791"},` +
			`"hostname":"20.110.30.194:443","transactionId":"592d1649f75a8d480a3c4dc6a975309d","policyId":"default","policyScope":"Global","policyScopeName":"Global"}}` + "\n",
		// Application Gateway for Containers' AGCAccessLogs: ms, other names.
		"agc.csv": `TimeGenerated,ClientIp,HostName,HttpMethod,HttpStatusCode,BackendHost,BackendIp,BackendPort,BackendResponseLatency,BackendTimeTaken,FrontendName,FrontendPort
2026-12-04T16:00:00Z,203.0.113.7,llm.contoso.com,POST,200,10.1.0.4:8000,10.1.0.4,8000,412.5,6210,fe-llm,443
`,
	} {
		_, res := collect(t, []string{writeTemp(t, name, text)}, ingest.Options{Workers: 1, Location: time.UTC})
		if s := res.Files[0].Source; strings.HasPrefix(s, "azure-") {
			t.Errorf("%s read as %q", name, s)
		}
	}
}
