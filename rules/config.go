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
)

// Config holds the rules' settings: SPEC §5's defaults, changed by a
// --rules file.
type Config struct {
	// rules are the built-in rules with their settings, in registry
	// order.
	rules []rule
	// Models maps lower-case model names to their parameter count in
	// billions, for names that do not show it.
	Models map[string]float64
	// TokenURI matches the URIs of token-endpoint calls.
	TokenURI *regexp.Regexp
}

// DefaultTokenURI matches the URIs of token-endpoint calls (SPEC §5).
const DefaultTokenURI = `(?i)token`

// Default returns the built-in settings of SPEC §5.
func Default() *Config {
	c := &Config{Models: map[string]float64{}, TokenURI: regexp.MustCompile(DefaultTokenURI)}
	for _, mk := range registry {
		c.rules = append(c.rules, mk())
	}
	return c
}

// setting returns the rule of type R with its settings.
func setting[R rule](c *Config) R {
	for _, r := range c.rules {
		if x, ok := r.(R); ok {
			return x
		}
	}
	panic("BUG: a rule missing from the registry")
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

// RuleIDs returns the IDs of the built-in rules in SPEC order.
func RuleIDs() []string {
	var ids []string
	for _, r := range Default().rules {
		ids = append(ids, r.id())
	}
	return ids
}

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
func (c *Config) params(id string) []param {
	for _, r := range c.rules {
		if r.id() == id {
			return r.params()
		}
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
					p.errorf(rk, "unknown rule %q (known: %s)", rk.Value, strings.Join(RuleIDs(), ", "))
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
