package rules

import "loganalyze/aggregate"

// Config holds the rules' settings.
type Config struct{}

// Default returns the built-in settings of SPEC §5.
func Default() *Config { return &Config{} }

// Evaluate runs every enabled rule over the merged aggregate.
func Evaluate(acc *aggregate.Accumulator, cfg *Config) ([]Finding, []NotEvaluated) {
	return nil, nil
}
