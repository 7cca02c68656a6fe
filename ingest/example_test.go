package ingest_test

import (
	"fmt"
	"log"
	"strings"
	"time"

	"loganalyze/ingest"
)

// printSink keeps each record's canonical fields as text. Each worker has
// its own sink, and a record is valid only during Add, so the text is
// made there.
type printSink struct{ lines []string }

func (s *printSink) Add(r *ingest.Record) {
	var b strings.Builder
	if r.Has(ingest.FTime) {
		fmt.Fprintf(&b, "time=%s", time.Unix(0, r.TimeNS).UTC().Format(time.RFC3339Nano))
	}
	for _, f := range []ingest.Field{ingest.FClient, ingest.FRegion, ingest.FModel, ingest.FURI} {
		if v := r.Text(f); v != nil {
			fmt.Fprintf(&b, " %s=%s", f, v)
		}
	}
	if v, ok := r.Bool(ingest.FStream); ok {
		fmt.Fprintf(&b, " stream=%t", v)
	}
	if v, ok := r.Int(ingest.FStatus); ok {
		fmt.Fprintf(&b, " status=%d", v)
	}
	for _, f := range []ingest.Field{ingest.FRequestTime, ingest.FUpstreamResponseTime, ingest.FTTFT} {
		if v, ok := r.Float(f); ok {
			fmt.Fprintf(&b, " %s=%g", f, v)
		}
	}
	s.lines = append(s.lines, b.String())
}

// Three JSON lines from standard input, each naming most of its fields
// another way (a CLS export's __TIMESTAMP__ in epoch ms and values as
// strings, aliases such as rsp_st, req_t, request_duration_ms), become
// records with the same canonical fields in the same units: request_time
// in seconds, ttft in milliseconds. (The client is read from one name
// per file, here app_id.) The unreadable line is
// counted and sampled with its line number; the run goes on.
func ExampleRun() {
	stdin := strings.NewReader(`{"time":"2026-11-29T10:00:00+08:00","app_id":"app-1","region":"ap-guangzhou","model":"deepseek-v3","stream":true,"status":200,"request_time":1.25,"upstream_response_time":"1.2","first_token_ms":350}
{"__TIMESTAMP__":"1795917601000","app_id":"app-2","__TAG__.region":"ap-shanghai","model_id":"qwen2-7b-instruct","response_type":"normal","rsp_st":"429","req_t":"0.004","uri":"/v1/chat/completions"}
{"time":"2026-11-29T10:00:02+08:00","request_time":"abc"}
{"@timestamp":"2026-11-29T02:00:03.5Z","app_id":"app-3","llm_model":"hunyuan-lite","is_stream":1,"status":200,"request_duration_ms":800,"ttft_ms":120}
`)
	sinks, res, err := ingest.Run([]string{"-"}, ingest.Options{Stdin: stdin, Workers: 1, Location: time.UTC},
		func() *printSink { return &printSink{} })
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range sinks {
		for _, l := range s.lines {
			fmt.Println(l)
		}
	}
	for _, f := range res.Files {
		fmt.Printf("%s: %s, %d records, %d bad lines\n", f.Path, f.Format, f.Records, f.BadLines)
	}
	for _, p := range res.Problems {
		fmt.Println(p)
	}
	// Output:
	// time=2026-11-29T02:00:00Z client=app-1 region=ap-guangzhou model=deepseek-v3 stream=true status=200 request_time=1.25 upstream_response_time=1.2 ttft=350
	// time=2026-11-29T02:00:01Z client=app-2 region=ap-shanghai model=qwen2-7b-instruct uri=/v1/chat/completions stream=false status=429 request_time=0.004
	// time=2026-11-29T02:00:03.5Z client=app-3 model=hunyuan-lite stream=true status=200 request_time=0.8 ttft=120
	// -: jsonl, 3 records, 1 bad lines
	// -:3: request_time: cannot read "abc"
}
