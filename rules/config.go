package rules

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"loganalyze/aggregate"
)

// Config holds the rules' settings: SPEC §5's defaults, changed by a
// --rules file.
type Config struct {
	CrossRegion  CrossRegionConfig
	NonStreaming NonStreamingConfig
	Keepalive    KeepaliveConfig
	Storm        StormConfig
	Burst        BurstConfig
	TokenCache   TokenCacheConfig
	Regression   RegressionConfig
	// Models maps lower-case model names to their parameter count in
	// billions, for names that do not show it.
	Models map[string]float64
	// TokenURI matches the URIs of token-endpoint calls.
	TokenURI *regexp.Regexp
}

// CrossRegionConfig configures the cross_region rule.
type CrossRegionConfig struct {
	Enabled          bool
	MinRequests      int64   // requests on a cross-region route
	CritNetworkP95Ms float64 // crit at or above this network_time p95
	// InferredExcessMs flags a client whose p50 is this much above its
	// region's same-region level, when client_region is absent.
	InferredExcessMs float64
}

// NonStreamingConfig configures the non_streaming_large_model rule.
type NonStreamingConfig struct {
	Enabled       bool
	MinParamsB    float64 // a large model has at least this many billions
	MinRequests   int64   // non-streaming requests
	MinShare      float64 // of the model's requests
	CritTTFTP95Ms float64
}

// KeepaliveConfig configures the missing_keepalive rule.
type KeepaliveConfig struct {
	Enabled            bool
	MinRequests        int64
	NewConnectionShare float64
}

// StormConfig configures the rate_limit_storm rule.
type StormConfig struct {
	Enabled  bool
	Min429   int64   // 429 responses in a minute
	MinShare float64 // of the minute's responses
	// CritShare makes a storm crit when its 429s are at least this share
	// of the window's responses.
	CritShare float64
}

// BurstConfig configures the error_burst rule.
type BurstConfig struct {
	Enabled   bool
	MinErrors int64   // 5xx and 499 responses in a minute
	MinShare  float64 // of the minute's responses
	// CritShare makes a burst crit when its errors are at least this
	// share of the window's responses.
	CritShare float64
}

// TokenCacheConfig configures the token_cache_miss rule.
type TokenCacheConfig struct {
	Enabled          bool
	MinTokenRequests int64
	MinRatio         float64 // token requests per other request
}

// RegressionConfig configures the latency_regression rule (needs --state).
type RegressionConfig struct {
	Enabled       bool
	MinRatio      float64
	MinIncreaseMs float64
	MinRequests   int64
	CritRatio     float64
	// MaxKeys is how many regressed keys of one metric and dimension are
	// reported, by impact; the rest are counted in the last one's evidence.
	MaxKeys int64
}

// Default returns the built-in settings of SPEC §5.
func Default() *Config {
	return &Config{
		CrossRegion:  CrossRegionConfig{Enabled: true, MinRequests: 50, CritNetworkP95Ms: 100, InferredExcessMs: 20},
		NonStreaming: NonStreamingConfig{Enabled: true, MinParamsB: 60, MinRequests: 20, MinShare: 0.10, CritTTFTP95Ms: 2000},
		Keepalive:    KeepaliveConfig{Enabled: true, MinRequests: 50, NewConnectionShare: 0.8},
		Storm:        StormConfig{Enabled: true, Min429: 20, MinShare: 0.20, CritShare: 0.5},
		Burst:        BurstConfig{Enabled: true, MinErrors: 20, MinShare: 0.05, CritShare: 0.25},
		TokenCache:   TokenCacheConfig{Enabled: true, MinTokenRequests: 20, MinRatio: 0.5},
		Regression:   RegressionConfig{Enabled: true, MinRatio: 1.5, MinIncreaseMs: 100, MinRequests: 200, CritRatio: 3, MaxKeys: 3},
		Models:       map[string]float64{},
		TokenURI:     regexp.MustCompile(aggregate.DefaultTokenURI),
	}
}

// Rule IDs (SPEC §5).
const (
	RuleCrossRegion  = "cross_region"
	RuleNonStreaming = "non_streaming_large_model"
	RuleKeepalive    = "missing_keepalive"
	RuleStorm        = "rate_limit_storm"
	RuleTokenCache   = "token_cache_miss"
	RuleBurst        = "error_burst"
	RuleRegression   = "latency_regression"
)

// RuleIDs are the built-in rules in SPEC order.
var RuleIDs = []string{RuleCrossRegion, RuleNonStreaming, RuleKeepalive, RuleStorm, RuleTokenCache, RuleBurst, RuleRegression}

// param is one setting of a rule: exactly one of the pointers is set.
type param struct {
	name  string
	i     *int64
	f     *float64
	b     *bool
	share bool // a float in [0, 1]
}

func intP(name string, p *int64) param     { return param{name: name, i: p} }
func floatP(name string, p *float64) param { return param{name: name, f: p} }
func shareP(name string, p *float64) param { return param{name: name, f: p, share: true} }
func enabledP(p *bool) param               { return param{name: "enabled", b: p} }
func paramNames(ps []param) (names []string) {
	for _, p := range ps {
		names = append(names, p.name)
	}
	return names
}

// params returns the settings of a rule by ID, or nil for an unknown ID.
func (c *Config) params(rule string) []param {
	switch rule {
	case RuleCrossRegion:
		r := &c.CrossRegion
		return []param{enabledP(&r.Enabled), intP("min_requests", &r.MinRequests),
			floatP("crit_network_p95_ms", &r.CritNetworkP95Ms), floatP("inferred_excess_ms", &r.InferredExcessMs)}
	case RuleNonStreaming:
		r := &c.NonStreaming
		return []param{enabledP(&r.Enabled), floatP("min_params_b", &r.MinParamsB), intP("min_requests", &r.MinRequests),
			shareP("min_share", &r.MinShare), floatP("crit_ttft_p95_ms", &r.CritTTFTP95Ms)}
	case RuleKeepalive:
		r := &c.Keepalive
		return []param{enabledP(&r.Enabled), intP("min_requests", &r.MinRequests), shareP("new_connection_share", &r.NewConnectionShare)}
	case RuleStorm:
		r := &c.Storm
		return []param{enabledP(&r.Enabled), intP("min_429", &r.Min429), shareP("min_share", &r.MinShare), shareP("crit_share", &r.CritShare)}
	case RuleBurst:
		r := &c.Burst
		return []param{enabledP(&r.Enabled), intP("min_errors", &r.MinErrors), shareP("min_share", &r.MinShare), shareP("crit_share", &r.CritShare)}
	case RuleTokenCache:
		r := &c.TokenCache
		return []param{enabledP(&r.Enabled), intP("min_token_requests", &r.MinTokenRequests), floatP("min_ratio", &r.MinRatio)}
	case RuleRegression:
		r := &c.Regression
		return []param{enabledP(&r.Enabled), floatP("min_ratio", &r.MinRatio), floatP("min_increase_ms", &r.MinIncreaseMs),
			intP("min_requests", &r.MinRequests), floatP("crit_ratio", &r.CritRatio), intP("max_keys", &r.MaxKeys)}
	}
	return nil
}

// FileError is one problem in a rules file, at a line and column.
type FileError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Load reads a rules file (SPEC §5) over the defaults. Every unknown key
// and wrong value is reported at once, each as file:line:col.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read rules file %q: %w", path, err)
	}
	return Parse(path, data)
}

// Parse reads the rules file data, named file in messages, over the
// defaults.
func Parse(file string, data []byte) (*Config, error) {
	c := Default()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	p := &parser{file: file}
	if len(doc.Content) > 0 {
		p.top(c, doc.Content[0])
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return c, nil
}

type parser struct {
	file string
	errs []error
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &FileError{File: p.file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
}

// mapping calls f for each key of a mapping node, reporting duplicates;
// where names the node in messages.
func (p *parser) mapping(n *yaml.Node, where string, f func(k, v *yaml.Node)) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s: want a mapping, got %s", where, kindName(n))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			p.errorf(k, "%s: key %q given twice", where, k.Value)
			continue
		}
		seen[k.Value] = true
		f(k, v)
	}
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return fmt.Sprintf("%q", n.Value)
}

func (p *parser) top(c *Config, n *yaml.Node) {
	p.mapping(n, "rules file", func(k, v *yaml.Node) {
		switch k.Value {
		case "rules":
			p.mapping(v, "rules", func(rk, rv *yaml.Node) {
				ps := c.params(rk.Value)
				if ps == nil {
					p.errorf(rk, "unknown rule %q (known: %s)", rk.Value, strings.Join(RuleIDs, ", "))
					return
				}
				p.rule(rk.Value, ps, rv)
			})
		case "models":
			p.mapping(v, "models", func(mk, mv *yaml.Node) {
				if x, ok := p.number(mv, "models."+mk.Value); ok {
					if x <= 0 {
						p.errorf(mv, "models.%s: want a positive number of billions of parameters, got %s", mk.Value, mv.Value)
						return
					}
					c.Models[strings.ToLower(mk.Value)] = x
				}
			})
		case "token_uri":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
				p.errorf(v, "token_uri: want a regular expression string, got %s", kindName(v))
				return
			}
			re, err := regexp.Compile(v.Value)
			if err != nil {
				p.errorf(v, "token_uri: %v", err)
				return
			}
			c.TokenURI = re
		default:
			p.errorf(k, "unknown key %q (known: rules, models, token_uri)", k.Value)
		}
	})
}

func (p *parser) rule(id string, ps []param, n *yaml.Node) {
	p.mapping(n, "rules."+id, func(k, v *yaml.Node) {
		var pm *param
		for i := range ps {
			if ps[i].name == k.Value {
				pm = &ps[i]
			}
		}
		where := "rules." + id + "." + k.Value
		if pm == nil {
			names := paramNames(ps)
			sort.Strings(names)
			p.errorf(k, "unknown key %q in rules.%s (known: %s)", k.Value, id, strings.Join(names, ", "))
			return
		}
		switch {
		case pm.b != nil:
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				p.errorf(v, "%s: want true or false, got %s", where, kindName(v))
				return
			}
			*pm.b = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		case pm.i != nil:
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
				p.errorf(v, "%s: want a whole number, got %s", where, kindName(v))
				return
			}
			x, err := strconv.ParseInt(v.Value, 0, 64)
			if err != nil || x < 0 {
				p.errorf(v, "%s: want a whole number ≥ 0, got %s", where, v.Value)
				return
			}
			*pm.i = x
		default:
			x, ok := p.number(v, where)
			if !ok {
				return
			}
			if x < 0 || pm.share && x > 1 {
				want := "a number ≥ 0"
				if pm.share {
					want = "a share between 0 and 1"
				}
				p.errorf(v, "%s: want %s, got %s", where, want, v.Value)
				return
			}
			*pm.f = x
		}
	})
}

func (p *parser) number(v *yaml.Node, where string) (float64, bool) {
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") {
		p.errorf(v, "%s: want a number, got %s", where, kindName(v))
		return 0, false
	}
	x, err := strconv.ParseFloat(v.Value, 64)
	if err != nil {
		if i, ierr := strconv.ParseInt(v.Value, 0, 64); ierr == nil {
			return float64(i), true
		}
	}
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		p.errorf(v, "%s: want a finite number, got %s", where, v.Value)
		return 0, false
	}
	return x, true
}
