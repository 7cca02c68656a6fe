package ingest_test

import (
	"encoding/json"
	"math"
	"net/url"
	"path/filepath"
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
// its AzureDiagnostics columns suffixed _s and _d,
// timeStamp) or AGWAccessLogs's columns; timeTaken and
// serverResponseLatency in seconds, as Microsoft's v2 reference says,
// here in ms. The log names no caller: the client is the address.
func appgwOracle(d rawDoc) sourceWant {
	at := rfc(strOf(d, "timeStamp", "time", "TimeGenerated"))
	return sourceWant{rt: numOf(d, "properties.timeTaken", "TimeTaken", "timeTaken_d") * 1000,
		ups:    numOf(d, "properties.serverResponseLatency", "ServerResponseLatency", "serverResponseLatency_s") * 1000,
		ttft:   math.NaN(),
		status: int(numOf(d, "properties.httpStatus", "HttpStatus", "httpStatus_d")), stream: -1, timeNS: at,
		client: strOf(d, "properties.clientIP", "ClientIp", "clientIP_s")}
}

// frontdoorOracle: Front Door's resource log (properties.*, Standard/
// Premium or classic) or its AzureDiagnostics rows (names suffixed _s,
// or _d where a workspace took a number); timeTaken in seconds, as
// Microsoft's reference says, here in ms. Status 0 (the origin timed
// out) is read as 504. The client is the address.
func frontdoorOracle(d rawDoc) sourceWant {
	status := numOf(d, "properties.httpStatusCode", "httpStatusCode_s", "httpStatusCode_d")
	if status == 0 {
		status = 504
	}
	return sourceWant{rt: numOf(d, "properties.timeTaken", "timeTaken_s", "timeTaken_d") * 1000,
		ups: math.NaN(), ttft: math.NaN(), status: int(status), stream: -1,
		timeNS: rfc(strOf(d, "time", "TimeGenerated")), client: strOf(d, "properties.clientIp", "clientIp_s")}
}

// openaiProps is an Azure OpenAI record's properties: the resource
// log's object or its JSON text, or a Log Analytics row's properties_s.
func openaiProps(d rawDoc) rawDoc {
	if m, ok := d.get("properties").(map[string]any); ok {
		return m
	}
	if p := d.inner("properties"); len(p) > 0 {
		return p
	}
	return d.inner("properties_s")
}

// openaiOracle: Azure OpenAI's RequestResponse resource log (time,
// durationMs, resultSignature, callerIpAddress: the top-level schema of
// Azure's resource logs) or its AzureDiagnostics rows (TimeGenerated,
// DurationMs, ResultSignature, CallerIPAddress); durations in ms, the
// status an HTTP code as text. The model is properties' modelName, else
// the deployment's name; the stream type is not read. The log names no
// caller but its address, written with its last octet masked.
func openaiOracle(d rawDoc) sourceWant {
	props := openaiProps(d)
	model := props.str("modelName")
	if model == "" {
		model = props.str("modelDeploymentName")
	}
	status, err := strconv.Atoi(strOf(d, "resultSignature", "ResultSignature"))
	if err != nil {
		panic(err)
	}
	return sourceWant{rt: numOf(d, "durationMs", "DurationMs"), ups: math.NaN(), ttft: math.NaN(),
		status: status, model: model, stream: -1, timeNS: rfc(strOf(d, "time", "TimeGenerated")),
		client: strOf(d, "callerIpAddress", "CallerIPAddress")}
}

// azureRow is what TestAzureSourceFields checks of a record beyond
// TestSourceFixtures's times and status.
type azureRow struct {
	timeNS                                  int64
	method, uri, host, upstream, addr, ttfb string
	region                                  string
	upstreamStatus                          int64 // 0 when absent
}

func azureRowOf(r *ingest.Record) azureRow {
	us, _ := r.Int(ingest.FUpstreamStatus)
	ttfb := "absent"
	if v, ok := r.Float(ingest.FTTFB); ok {
		ttfb = strconv.FormatFloat(v, 'f', 3, 64)
	}
	return azureRow{timeNS: r.TimeNS, method: string(r.Text(ingest.FMethod)),
		uri: string(ingest.URIPath(r.Text(ingest.FURI))), host: string(r.Text(ingest.FHost)),
		upstream: string(r.Text(ingest.FUpstreamAddr)), addr: string(r.Text(ingest.FRemoteAddr)), ttfb: ttfb,
		region: string(r.Text(ingest.FRegion)), upstreamStatus: us}
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
		// Its AzureDiagnostics rows name each property with a suffix
		// of its type (_s text).
		us, _ := strconv.ParseInt(strOf(d, "properties.serverStatus", "ServerStatus", "serverStatus_s"), 10, 64)
		uri := strOf(d, "properties.requestUri", "RequestUri", "requestUri_s")
		if uri == "" {
			uri = strOf(d, "properties.originalRequestUriWithArgs", "OriginalRequestUriWithArgs", "originalRequestUriWithArgs_s")
		}
		return azureRow{method: strOf(d, "properties.httpMethod", "HttpMethod", "httpMethod_s"), uri: urlPath(t, uri),
			host:     strOf(d, "properties.host", "Host", "host_s", "properties.originalHost", "OriginalHost", "originalHost_s"),
			upstream: strOf(d, "properties.serverRouted", "ServerRouted", "serverRouted_s"),
			addr:     strOf(d, "properties.clientIP", "ClientIp", "clientIP_s"),
			ttfb:     "absent", upstreamStatus: us}
	},
	// Azure OpenAI: the caller's address and the resource's region
	// (location; a Log Analytics row has none); no method or path (the
	// operation is ChatCompletions_Create), no host, upstream, time to
	// first byte or upstream status.
	"azure-openai": func(t *testing.T, d rawDoc) azureRow {
		return azureRow{addr: strOf(d, "callerIpAddress", "CallerIPAddress"), region: d.str("location"), ttfb: "absent"}
	},
	// Front Door: requestUri is a full URL; the host asked for
	// (Standard/Premium; classic names none); the origin (N/A, as
	// written, when none was asked), else classic's backend; the time
	// to first byte in seconds; no upstream status, no region (pop is
	// an edge near the caller).
	"azure-frontdoor": func(t *testing.T, d rawDoc) azureRow {
		ttfb := "absent"
		if v := numOf(d, "properties.timeToFirstByte", "timeToFirstByte_s", "timeToFirstByte_d"); !math.IsNaN(v) {
			ttfb = strconv.FormatFloat(v*1000, 'f', 3, 64)
		}
		return azureRow{method: strOf(d, "properties.httpMethod", "httpMethod_s"),
			uri: urlPath(t, strOf(d, "properties.requestUri", "requestUri_s")), host: strOf(d, "properties.hostName", "hostName_s"),
			upstream: strOf(d, "properties.originName", "originName_s", "properties.backendHostname", "backendHostname_s"),
			addr:     strOf(d, "properties.clientIp", "clientIp_s"), ttfb: ttfb}
	},
}

// TestAzureSourceFields: every record of the Azure sources' fixtures
// gives the method, path, host, upstream, client address, time to first
// byte and upstream status its documentation says, worked out here with
// encoding/json and net/url.
func TestAzureSourceFields(t *testing.T) {
	oracles := map[string]func(rawDoc) azureRow{}
	for src, oracle := range azureFields {
		oracles[src] = func(d rawDoc) azureRow { return oracle(t, d) }
	}
	checkOracleRows(t, oracles, azureRowOf, func(r *azureRow) *int64 { return &r.timeNS })
}

// TestAzureSourcesDetected: CSV exports of the Log Analytics tables are
// their source's by their column names, and logs that only look alike
// (the same gateways' other logs, Application Gateway v1's, Application
// Gateway for Containers', Front Door's WAF and health probe logs,
// Application Gateway's rows in AzureDiagnostics) are not.
func TestAzureSourcesDetected(t *testing.T) {
	for _, c := range []struct {
		name, text, src string
		rt, urt         float64 // s of the first record
	}{
		// AGWAccessLogs exported as CSV.
		{"agw.csv", `TimeGenerated,ClientIp,HttpMethod,RequestUri,HttpStatus,TimeTaken,ServerRouted,ServerStatus,ServerResponseLatency,TransactionId,ClientResponseTime,Host
2026-12-04T17:00:41.213Z,203.0.113.7,POST,/openai/deployments/gpt-4o/chat/completions,200,41.213,10.20.1.4:443,200,41.189,5d1a9c0e7b2f4e21a3c6d8e9f0a1b2c4,0.021,aoai.contoso.com
`, "azure-appgw", 41.213, 41.189},
		// Front Door's AzureDiagnostics rows from a workspace whose first
		// rows made the numbers doubles (_d).
		{"afd.csv", `TimeGenerated,Category,ResourceProvider,trackingReference_s,httpMethod_s,requestUri_s,hostName_s,clientIp_s,httpStatusCode_d,timeTaken_d,timeToFirstByte_d,pop_s,cacheStatus_s,routingRuleName_s,originName_s
2026-12-04T19:00:38.412Z,FrontDoorAccessLog,MICROSOFT.CDN,20261204T190000Z-r1a2b3c4,POST,https://ai.contoso.com:443/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21,ai.contoso.com,203.0.113.7,200,38.412,0.912,AMS,CONFIG_NOCACHE,aoai-route,contoso-swc.openai.azure.com
`, "azure-frontdoor", 38.412, math.NaN()},
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
		// Front Door's WAF log: a tracking reference, socketIP, no timing.
		"afd-waf.jsonl": `{"time":"2026-12-04T18:00:41Z","resourceId":"/SUBSCRIPTIONS/X/RESOURCEGROUPS/Y/PROVIDERS/MICROSOFT.CDN/PROFILES/Z",` +
			`"category":"FrontDoorWebApplicationFirewallLog","operationName":"Microsoft.Cdn/Profiles/Write","properties":{"clientIP":"198.51.100.66",` +
			`"clientPort":"40111","socketIP":"198.51.100.66","requestUri":"https://ai.contoso.com:443/openai/deployments/gpt-4o/chat/completions",` +
			`"ruleName":"Microsoft_DefaultRuleSet-2.1-SQLI-942100","policy":"aiwafpolicy","action":"Block","host":"ai.contoso.com",` +
			`"trackingReference":"20261204T180041Z-r1a2b3c4d5e6f7g8h9FRAxxxx0000000003","policyMode":"prevention",` +
			`"details":{"matches":[{"matchVariableName":"QueryParamValue:q","matchVariableValue":"' or 1=1"}]}}}` + "\n",
		// Its health probe log, as Microsoft's sample: an origin, POP.
		"afd-probe.json": `{"records":[{"time":"2026-12-04T18:00:37.3640748Z","resourceId":"/SUBSCRIPTIONS/X/RESOURCEGROUPS/Y/PROVIDERS/MICROSOFT.CDN/PROFILES/Z",` +
			`"category":"FrontDoorHealthProbeLog","operationName":"Microsoft.Cdn/Profiles/FrontDoorHealthProbeLog/Write","properties":{` +
			`"healthProbeId":"9642AEA07BA64675A0A7AD214ACF746E","POP":"AMS","httpVerb":"HEAD","result":"OriginError","httpStatusCode":"400",` +
			`"probeURL":"https://contoso-swc.openai.azure.com:443/","originName":"contoso-swc.openai.azure.com","originIP":"20.91.0.17:443",` +
			`"totalLatencyMilliseconds":"141","connectionLatencyMilliseconds":"68","DNSLatencyMicroseconds":"1814"}}]}` + "\n",
		// Application Gateway's rows in AzureDiagnostics, as its
		// reference lists them: not Front Door's, though suffixed alike.
		"agw-diag.csv": `TimeGenerated,Category,requestUri_s,userAgent_s,ruleName_s,httpMethod_s,instanceId_s,httpVersion_s,clientIP_s,host_s,requestQuery_s,sslEnabled_s
2026-12-04T16:00:41Z,ApplicationGatewayAccessLog,/openai/deployments/gpt-4o/chat/completions,AzureOpenAI/Python 1.54.4,aoai-rule,POST,appgw_0,HTTP/1.1,203.0.113.7,aoai.contoso.com,api-version=2024-10-21,on
`,
	} {
		_, res := collect(t, []string{writeTemp(t, name, text)}, ingest.Options{Workers: 1, Location: time.UTC})
		if s := res.Files[0].Source; strings.HasPrefix(s, "azure-") {
			t.Errorf("%s read as %q", name, s)
		}
	}
}

// TestAzureOpenAIDetected: Azure OpenAI's RequestResponse log is its
// source when its first record's properties are JSON text and carry no
// model (an Assistants call), its ticks are not read as the time, and
// the logs that only look alike (the same resource's Audit and Trace
// categories, the activity log, another category's AzureDiagnostics
// rows) are not its. TestSourceFixtures reads the three fixtures.
func TestAzureOpenAIDetected(t *testing.T) {
	rid := `"resourceId":"/SUBSCRIPTIONS/X/RESOURCEGROUPS/Y/PROVIDERS/MICROSOFT.COGNITIVESERVICES/ACCOUNTS/Z",`
	text := `{"Tenant":"eastus","callerIpAddress":"203.0.113.***","category":"RequestResponse","durationMs":102,"event":"ShoeboxCallResult",` +
		`"location":"eastus","operationName":"Create_Thread","properties":"{\"apiName\":\"Azure OpenAI API version 2024-05-01-preview\",` +
		`\"requestTime\":639005472300000000,\"requestLength\":2,\"responseTime\":639005472301020000,\"responseLength\":113,\"objectId\":\"\"}",` +
		rid + `"resultSignature":"200","time":"2026-12-04T12:00:03.25Z"}` + "\n" +
		`{"Tenant":"eastus","callerIpAddress":"203.0.113.***","category":"RequestResponse","durationMs":7,"event":"ShoeboxCallResult",` +
		`"location":"eastus","operationName":"ChatCompletions_Create","properties":{"apiName":"Azure OpenAI API version 2024-10-21",` +
		`"requestTime":639005472310000000,"requestLength":900,"responseTime":639005472310070000,"responseLength":240,"objectId":"",` +
		`"streamType":"Non-Streaming","modelDeploymentName":"gpt-4o-prod","modelName":"gpt-4o","modelVersion":"2024-11-20"},` +
		rid + `"resultSignature":"404","time":"2026-12-04T12:00:04Z"}` + "\n"
	got, res := collect(t, []string{writeTemp(t, "aoai.json", text)}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 2 || res.Files[0].Source != "azure-openai" || res.BadLines() != 0 {
		t.Fatalf("%d records, source %q, %d bad lines; want 2 of azure-openai", len(got), res.Files[0].Source, res.BadLines())
	}
	if !nearSrc(got[0].rt, 0.102) || got[0].status != 200 || got[0].model != "" || got[0].timeNS != rfc("2026-12-04T12:00:03.25Z") ||
		got[0].region != "eastus" || got[0].client != "203.0.113.***" ||
		!nearSrc(got[1].rt, 0.007) || got[1].status != 404 || got[1].model != "gpt-4o" || got[1].hasStream {
		t.Errorf("records %+v", got)
	}
	for name, text := range map[string]string{
		// The Audit category, as the service writes it: the caller's
		// object id, no duration.
		"audit.jsonl": `{"AssetIdentity":"07628fea-0000-424d-b160-fdc46c82d0b4","Tenant":"eastus","category":"Audit","operationName":"ListKey",` +
			`"properties":{"objectId":"b610ab05-0000-4cc1-a6dd-174b9f80468a"},` + rid + `"time":"2026-12-04T12:00:00Z"}` + "\n",
		// A Trace record: the same top-level schema, properties of its own.
		"trace.jsonl": `{"time":"2026-12-04T12:00:00Z",` + rid + `"category":"Trace","operationName":"QueryKnowledgebase","durationMs":12,` +
			`"resultSignature":"200","callerIpAddress":"203.0.113.***","location":"eastus","properties":{"message":"knowledge base queried","kbId":"kb1"}}` + "\n",
		// The activity log of the same account: a durationMs, a
		// resultSignature that is no HTTP code, properties of a
		// management call.
		"activity.jsonl": `{"time":"2026-12-04T12:00:00Z",` + rid + `"operationName":"MICROSOFT.COGNITIVESERVICES/ACCOUNTS/LISTKEYS/ACTION",` +
			`"category":"Administrative","resultType":"Success","resultSignature":"Succeeded.OK","durationMs":"0","callerIpAddress":"203.0.113.7",` +
			`"correlationId":"c1","level":"Information","properties":{"statusCode":"OK","serviceRequestId":"r1","eventCategory":"Administrative"}}` + "\n",
		// The Audit category's AzureDiagnostics row.
		"audit-diag.json": `[{"TimeGenerated":"2026-12-04T12:00:00Z","Category":"Audit","ResourceProvider":"MICROSOFT.COGNITIVESERVICES",` +
			`"OperationName":"ListKey","properties_s":"{\"objectId\":\"b610ab05-0000-4cc1-a6dd-174b9f80468a\"}","Type":"AzureDiagnostics"}]` + "\n",
	} {
		_, res := collect(t, []string{writeTemp(t, name, text)}, ingest.Options{Workers: 1, Location: time.UTC})
		if s := res.Files[0].Source; s == "azure-openai" {
			t.Errorf("%s read as %q", name, s)
		}
	}
	// API Management's gateway log of calls to Azure OpenAI is APIM's.
	_, res = collect(t, []string{filepath.Join("testdata", "sources", "azure-apim.json")}, ingest.Options{Workers: 1, Location: time.UTC})
	if s := res.Files[0].Source; s != "azure-apim" {
		t.Errorf("azure-apim.json read as %q", s)
	}
}
