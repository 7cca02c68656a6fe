package rules

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// canonicalYAML writes every setting of c as a rules file, in a fixed
// order: what c means, independent of how the file that made it was
// spelled.
func canonicalYAML(t *testing.T, c *Config) []byte {
	t.Helper()
	rules := map[string]map[string]any{}
	for _, id := range RuleIDs() {
		ps := map[string]any{}
		for _, p := range c.params(id) {
			switch {
			case p.b != nil:
				ps[p.name] = *p.b
			case p.i != nil:
				ps[p.name] = *p.i
			default:
				ps[p.name] = *p.f
			}
		}
		rules[id] = ps
	}
	b, err := yaml.Marshal(map[string]any{"rules": rules, "models": c.Models, "token_uri": c.TokenURI.String()})
	if err != nil {
		t.Fatalf("cannot write the settings back as YAML: %v", err)
	}
	return b
}

// fileErrorRE is the form of every problem a rules file reports, one per
// line: the file, a line and a column from 1, and a message.
var fileErrorRE = regexp.MustCompile(`^fuzz\.yaml:[1-9][0-9]*:[1-9][0-9]*: \S`)

// FuzzParse feeds arbitrary rules files to Parse. It must not panic; an
// error names the file, and each problem of the file's content carries
// its line and column; an accepted file means what its settings written
// back mean (they parse to the same settings).
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		// SPEC §5's example and the files of config_test.go.
		`rules:                       # settings per rule ID; names are each rule's own
  cross_region:      {min_requests: 50, crit_network_p95_ms: 100}
  missing_keepalive: {min_requests: 50, new_connection_share: 0.8}
  token_cache_miss:  {enabled: false}
models:                      # parameter counts (billions) the names don't show
  hunyuan-turbo: 300
token_uri: '(?i)/token|gettoken'
`,
		"rules:\n  missing_keepalive: {enabled: false}\n",
		`rules:
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
`,
		"rules:\n  cross_region: {min_requests: 1, min_requests: 2}\n",
		"rules: [\n",
		"",
		"rules:\n  error_burst: {min_errors: 7}\n",
		"rules:\n  latency_regression: {min_ratio: 1.5e0, min_requests: 0x10, crit_ratio: .inf}\nmodels: {A: 1, a: 2}\n",
		"rules: &a {cross_region: *a}\n",
		"models:\n  ? [x]\n  : 1\n",
		"token_uri: !!binary aGk=\n",
		"rules:\n  rate_limit_storm: {min_429: 5, min_share: 0.5, crit_share: 1}\n--- \nrules: {}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data)
		if err != nil {
			if c != nil {
				t.Fatalf("Parse returned settings with the error %v", err)
			}
			msg := err.Error()
			var fe *FileError
			if errors.As(err, &fe) {
				// Problems found in the document, all at once.
				for _, line := range strings.Split(msg, "\n") {
					if !fileErrorRE.MatchString(line) {
						t.Fatalf("problem %q lacks file:line:col", line)
					}
				}
			} else if !strings.HasPrefix(msg, "fuzz.yaml: ") || strings.TrimSpace(strings.TrimPrefix(msg, "fuzz.yaml: ")) == "" {
				// A YAML syntax error: yaml.v3 gives a line, when it
				// knows one, but no column.
				t.Fatalf("syntax error %q does not name the file", msg)
			}
			return
		}
		if c == nil {
			t.Fatal("Parse returned neither settings nor an error")
		}
		want := canonicalYAML(t, c)
		again, err := Parse("fuzz.yaml", want)
		if err != nil {
			t.Fatalf("the accepted settings, written back, do not parse: %v\n%s", err, want)
		}
		if got := canonicalYAML(t, again); string(got) != string(want) {
			t.Fatalf("settings changed when written back and parsed:\n%s\nbecame\n%s", want, got)
		}
		if again.TokenURI.String() != c.TokenURI.String() {
			t.Fatalf("token_uri %q became %q", c.TokenURI, again.TokenURI)
		}
		for name, v := range c.Models {
			if name != strings.ToLower(name) || !(v > 0) {
				t.Fatalf("models: %q = %v; want lower-case names with positive sizes", name, v)
			}
			if got, src, ok := c.ModelParams(name); !ok || got != v || src != "rules file" {
				t.Fatalf("ModelParams(%q) = %v, %q, %v; the rules file says %v", name, got, src, ok, v)
			}
		}
		for _, id := range RuleIDs() {
			for _, p := range c.params(id) {
				if p.f != nil && (*p.f < 0 || p.share && *p.f > 1) {
					t.Fatalf("rules.%s.%s = %v accepted", id, p.name, *p.f)
				}
				if p.i != nil && *p.i < 0 {
					t.Fatalf("rules.%s.%s = %d accepted", id, p.name, *p.i)
				}
			}
		}
	})
}
