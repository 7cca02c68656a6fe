package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVerdictNamesTheTail: without --state no rule sees a region slowed
// for half an hour; the verdict then says that no rule fired and which
// key holds the slow tail, not that there is nothing to fix. The same
// log without the slowdown says nothing to fix.
func TestVerdictNamesTheTail(t *testing.T) {
	write := func(slow bool) string {
		rng := rand.New(rand.NewPCG(3, 3))
		regions := []string{"ap-beijing", "ap-shanghai", "ap-guangzhou", "ap-singapore"}
		start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
		var b strings.Builder
		for i := range 4000 {
			at := start.Add(time.Duration(i) * time.Hour / 4000)
			region := regions[i%4]
			rt := 0.5 + rng.ExpFloat64()*0.3
			if slow && region == "ap-beijing" && at.Minute() >= 15 && at.Minute() < 45 {
				rt += 3
			}
			fmt.Fprintf(&b, `{"time":%q,"region":%q,"client_region":%q,"model":"m-7b","stream":true,"status":200,"request_time":%.3f,"upstream_response_time":"%.3f","app_id":"app-%d"}`+"\n",
				at.Format(time.RFC3339Nano), region, region, rt, rt-0.01, i%20)
		}
		path := filepath.Join(t.TempDir(), "h.jsonl")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	code, out, errs := runCLI(t, "--tz", "UTC", "--md", "-", write(true))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "**Verdict: OK** — no rule fired, but region `ap-beijing` holds 100.0 % of the slow tail (below)"; !strings.Contains(out, want) {
		t.Errorf("verdict %q, want %q", firstLines(out, 3), want)
	}
	code, out, errs = runCLI(t, "--tz", "UTC", "--html", "-", write(true))
	if want := "no rule fired, but region ap-beijing holds 100.0 % of the slow tail"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d; the HTML report lacks %q", code, want)
	}
	code, out, errs = runCLI(t, "--tz", "UTC", "--md", "-", write(false))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "**Verdict: OK** — nothing to fix") {
		t.Errorf("healthy verdict %q, want nothing to fix", firstLines(out, 3))
	}
}
