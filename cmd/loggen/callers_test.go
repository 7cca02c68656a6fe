package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// callerCounts runs loggen and counts the requests of each app_id.
func callerCounts(t *testing.T, args ...string) (map[string]int, map[string]string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"--plant", "none"}, args...), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	counts, ips := map[string]int{}, map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			AppID      string `json:"app_id"`
			RemoteAddr string `json:"remote_addr"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		counts[r.AppID]++
		if ip, ok := ips[r.AppID]; ok && ip != r.RemoteAddr {
			t.Errorf("caller %s from %s and %s", r.AppID, ip, r.RemoteAddr)
		}
		ips[r.AppID] = r.RemoteAddr
	}
	return counts, ips
}

func TestCallersInTurn(t *testing.T) {
	// -n counts background requests; their token calls add to them, so
	// a thousand callers in turn give each one request.
	counts, ips := callerCounts(t, "-n", "600", "--callers", "1000", "--caller-zipf", "0")
	total := 0
	seen := map[string]bool{}
	for c, n := range counts {
		total += n
		if n != 1 {
			t.Errorf("caller %s has %d requests, want 1", c, n)
		}
		if seen[ips[c]] {
			t.Errorf("IP %s of two callers", ips[c])
		}
		seen[ips[c]] = true
	}
	if total < 600 || total > 1000 || len(counts) != total {
		t.Errorf("%d callers for %d requests, want one each", len(counts), total)
	}
}

func TestCallersZipf(t *testing.T) {
	counts, _ := callerCounts(t, "-n", "4000", "--callers", "1000", "--caller-zipf", "1.5")
	if len(counts) > 1000 || len(counts) < 50 {
		t.Errorf("%d callers, want between 50 and 1000", len(counts))
	}
	// With exponent 1.5 the first caller has about a third of the
	// requests (1/ζ(1.5) ≈ 0.38), the second a third of that.
	first, second := counts[fmt.Sprintf("caller-%06d", 0)], counts[fmt.Sprintf("caller-%06d", 1)]
	if first < 4000/4 || first > 4000/2 || second > first/2 {
		t.Errorf("first callers have %d and %d of 4000 requests", first, second)
	}
}

func TestCallersBadUsage(t *testing.T) {
	for _, args := range [][]string{{"--callers", "-1"}, {"--callers", "10", "--caller-zipf", "0.5"}} {
		if code := run(args, io.Discard, io.Discard); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
