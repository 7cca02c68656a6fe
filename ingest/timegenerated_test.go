package ingest_test

import (
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestTimeGenerated: Azure Log Analytics' TimeGenerated, the time of
// every row of every table, is a record's time in a file of no known
// source (the LLM log table alone, ApiManagementGatewayLlmLog).
func TestTimeGenerated(t *testing.T) {
	text := `{"TimeGenerated":"2026-12-04T09:00:12.611Z","OperationName":"ApiManagementGatewayLlmLog","ModelName":"gpt-4o","PromptTokens":12}` + "\n"
	got, res := collect(t, []string{writeTemp(t, "llm.json", text)}, ingest.Options{Workers: 1, Location: time.UTC})
	want := time.Date(2026, 12, 4, 9, 0, 12, 611e6, time.UTC).UnixNano()
	if len(got) != 1 || res.BadLines() != 0 || !got[0].hasTime || got[0].timeNS != want {
		t.Fatalf("records %+v, %v; want one at %d", got, res.Problems, want)
	}
}
