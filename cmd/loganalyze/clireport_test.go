package main

import (
	"encoding/json"
	"testing"
)

// cliReport is what the CLI tests of formats and sources read of the
// JSON report.
type cliReport struct {
	Verdict string
	Reason  struct {
		Files []struct{ Why string }
	} `json:"verdict_reason"`
	Input struct {
		Records  int64
		BadLines int64 `json:"bad_lines"`
		Fields   map[string]int64
		Files    []struct {
			Source     string
			Format     string
			Records    int64
			PassedOver int64 `json:"passed_over"`
		}
	}
	Window struct{ From string }
	Status map[string]int64
	// Latency is request_time's, overall and by dimension.
	Latency struct {
		RequestTime struct {
			All struct {
				Count  int64
				MeanMS float64 `json:"mean_ms"`
				MaxMS  float64 `json:"max_ms"`
			}
			By map[string][]struct {
				Key   string
				Count int64
			}
		} `json:"request_time"`
	}
}

// reportOf runs the command with args, which write the JSON report to
// stdout ("--json", "-"), and returns the report; an exit but 0 fails
// the test.
func reportOf(t *testing.T, args ...string) cliReport {
	t.Helper()
	code, out, errs := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep cliReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}
