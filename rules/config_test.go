package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultsAreSpec(t *testing.T) {
	c := Default()
	// SPEC §5's table, written out here independently of Default.
	checks := []struct {
		name      string
		got, want float64
	}{
		{"cross_region.min_requests", float64(setting[*crossRegionRule](c).MinRequests), 50},
		{"cross_region.crit_network_p95_ms", setting[*crossRegionRule](c).CritNetworkP95Ms, 100},
		{"cross_region.inferred_excess_ms", setting[*crossRegionRule](c).InferredExcessMs, 20},
		{"non_streaming_large_model.min_params_b", setting[*nonStreamingRule](c).MinParamsB, 60},
		{"non_streaming_large_model.min_requests", float64(setting[*nonStreamingRule](c).MinRequests), 20},
		{"non_streaming_large_model.min_share", setting[*nonStreamingRule](c).MinShare, 0.10},
		{"non_streaming_large_model.crit_ttft_p95_ms", setting[*nonStreamingRule](c).CritTTFTP95Ms, 2000},
		{"missing_keepalive.min_requests", float64(setting[*keepaliveRule](c).MinRequests), 50},
		{"missing_keepalive.new_connection_share", setting[*keepaliveRule](c).NewConnectionShare, 0.8},
		{"rate_limit_storm.min_429", float64(setting[*stormRule](c).Min429), 20},
		{"rate_limit_storm.min_share", setting[*stormRule](c).MinShare, 0.2},
		{"token_cache_miss.min_token_requests", float64(setting[*tokenCacheRule](c).MinTokenRequests), 20},
		{"token_cache_miss.min_ratio", setting[*tokenCacheRule](c).MinRatio, 0.5},
		{"error_burst.min_errors", float64(setting[*burstRule](c).MinErrors), 20},
		{"error_burst.min_share", setting[*burstRule](c).MinShare, 0.05},
		{"latency_regression.min_ratio", setting[*regressionRule](c).MinRatio, 1.5},
		{"latency_regression.min_increase_ms", setting[*regressionRule](c).MinIncreaseMs, 100},
		{"latency_regression.min_requests", float64(setting[*regressionRule](c).MinRequests), 200},
		{"latency_regression.crit_ratio", setting[*regressionRule](c).CritRatio, 3},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	if c.TokenURI.String() != "(?i)token" {
		t.Errorf("token_uri %q", c.TokenURI)
	}
}

func TestParseSpecExample(t *testing.T) {
	c, err := Parse("rules.yaml", []byte(`
rules:                       # settings per rule ID; names are each rule's own
  cross_region:      {min_requests: 50, crit_network_p95_ms: 100}
  missing_keepalive: {min_requests: 70, new_connection_share: 0.9}
  token_cache_miss:  {enabled: false}
  rate_limit_storm:
    min_429: 5
    min_share: 0.5
models:                      # parameter counts (billions) the names don't show
  hunyuan-turbo: 300
  Some-Model: 1.5
token_uri: '(?i)/token|gettoken'
`))
	if err != nil {
		t.Fatal(err)
	}
	if setting[*keepaliveRule](c).MinRequests != 70 || setting[*keepaliveRule](c).NewConnectionShare != 0.9 || setting[*tokenCacheRule](c).Enabled || !setting[*crossRegionRule](c).Enabled ||
		setting[*stormRule](c).Min429 != 5 || setting[*stormRule](c).MinShare != 0.5 {
		t.Errorf("settings not applied: %+v %+v %+v", setting[*keepaliveRule](c), setting[*tokenCacheRule](c), setting[*stormRule](c))
	}
	if v, src, ok := c.ModelParams("hunyuan-turbo"); !ok || v != 300 || src != "rules file" {
		t.Errorf("hunyuan-turbo: %v %q %v", v, src, ok)
	}
	if v, _, ok := c.ModelParams("some-model"); !ok || v != 1.5 {
		t.Errorf("some-model: %v %v", v, ok)
	}
	if !c.TokenURI.MatchString("/oauth/gettoken") || c.TokenURI.MatchString("/v1/detokenize") {
		t.Errorf("token_uri %q", c.TokenURI)
	}
}

func TestDisabledRuleDoesNotRun(t *testing.T) {
	c, err := Parse("r.yaml", []byte("rules:\n  missing_keepalive: {enabled: false}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := ruleFindings(t, c, RuleKeepalive, conns(100, 100, "app-x")); len(fs) != 0 {
		t.Errorf("disabled rule fired: %+v", fs)
	}
	if fs := ruleFindings(t, nil, RuleKeepalive, conns(100, 100, "app-x")); len(fs) != 1 {
		t.Errorf("enabled rule: %d findings, want 1", len(fs))
	}
}

func TestParseReportsEveryErrorAtOnce(t *testing.T) {
	src := `rules:
  cross_region: {min_reqests: 50}
  missing_keepalive:
    new_connection_share: 1.5
    min_requests: many
  no_such_rule: {}
  error_burst: {enabled: maybe}
models:
  big: -3
  other: [1]
token_uri: '(unclosed'
extra: 1
`
	_, err := Parse("bad.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		`bad.yaml:2:18: unknown key "min_reqests" in rules.cross_region`,
		`bad.yaml:4:27: rules.missing_keepalive.new_connection_share`,
		`bad.yaml:5:19: rules.missing_keepalive.min_requests: want a whole number`,
		`bad.yaml:6:3: unknown rule "no_such_rule"`,
		`bad.yaml:7:26: rules.error_burst.enabled: want true or false`,
		`bad.yaml:9:8: models.big`,
		`bad.yaml:10:10: models.other: want a number`,
		`bad.yaml:11:12: token_uri`,
		`bad.yaml:12:1: unknown key "extra"`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != 9 {
		t.Errorf("%d errors, want 9:\n%s", n, msg)
	}
}

func TestParseDuplicateKeyAndSyntax(t *testing.T) {
	if _, err := Parse("d.yaml", []byte("rules:\n  cross_region: {min_requests: 1, min_requests: 2}\n")); err == nil || !strings.Contains(err.Error(), "d.yaml:") {
		t.Errorf("duplicate key: %v", err)
	}
	if _, err := Parse("s.yaml", []byte("rules: [\n")); err == nil || !strings.HasPrefix(err.Error(), "s.yaml: ") {
		t.Errorf("syntax error: %v", err)
	}
	if c, err := Parse("empty.yaml", nil); err != nil || setting[*crossRegionRule](c).MinRequests != 50 {
		t.Errorf("empty file: %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.yaml")
	if err := os.WriteFile(path, []byte("rules:\n  error_burst: {min_errors: 7}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || setting[*burstRule](c).MinErrors != 7 {
		t.Fatalf("Load: %v, %+v", err, c)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}
