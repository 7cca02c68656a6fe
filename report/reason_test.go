package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestReasonPatternsMatchTheRules: each not-evaluated reason pattern,
// filled as the rules fill it, is the English message of its id, and
// the Chinese printer translates it, keeping the detail.
func TestReasonPatternsMatchTheRules(t *testing.T) {
	zh, en := printerFor(LangZhCN), printerFor(LangEn)
	for _, rp := range reasonPatterns {
		if rp.suffix == "" {
			continue // a fixed text and a detail after it
		}
		reason := rp.prefix + "76.7" + rp.suffix
		if want := en.f(rp.id, "76.7"); reason != want {
			t.Errorf("%s: the rule's text %q is not the English message %q", rp.id, reason, want)
		}
		got := zh.reason(reason)
		if got == reason || !strings.Contains(got, "76.7") || strings.Contains(got, "%!") {
			t.Errorf("%s: %q reads in Chinese as %q", rp.id, reason, got)
		}
	}
	// The two sample texts are the ones the rules write.
	for _, s := range []string{
		fmt.Sprintf("partly: the callers were judged from a hash sample of about %.3g %% of them, the log having more callers than kept", 12.5),
		fmt.Sprintf("partly: the callers' paths were judged from a hash sample of about %.3g %% of them, the log having more paths than kept", 0.391),
	} {
		if got := zh.reason(s); got == s {
			t.Errorf("%q is not translated", s)
		}
	}
}
