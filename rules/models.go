package rules

import (
	"regexp"
	"strconv"
	"strings"
)

// knownModels are parameter counts (billions) of well-known models whose
// names do not show them, from their publishers' model cards: DeepSeek-V3
// and R1 (671B total, mixture of experts), DeepSeek-V2 / V2.5 (236B),
// Tencent Hunyuan-Large (389B), xAI Grok-1 (314B), Databricks DBRX (132B),
// Snowflake Arctic (480B), AI21 Jamba 1.5 Large (398B). For a mixture of
// experts the total counts: every parameter must be loaded and served,
// and non-streaming calls wait for the whole generation either way.
var knownModels = map[string]float64{
	"deepseek-v3":      671,
	"deepseek-r1":      671,
	"deepseek-chat":    671, // the API name of V3
	"deepseek-v2":      236,
	"deepseek-v2.5":    236,
	"hunyuan-large":    389,
	"grok-1":           314,
	"dbrx":             132,
	"dbrx-instruct":    132,
	"snowflake-arctic": 480,
	"jamba-1.5-large":  398,
}

// sizeRE finds a parameter count in a model name: "72b", "1.5b", "8x22b"
// (experts × size), bounded by non-alphanumerics so that "a3b" (active
// parameters of a mixture) or "v2b" are not read as sizes.
var sizeRE = regexp.MustCompile(`(?:^|[^a-z0-9.])(?:(\d+)x)?(\d+(?:\.\d+)?)b(?:$|[^a-z0-9])`)

// ModelParams returns a model's parameter count in billions and where it
// came from ("rules file", "name", "known model"); ok is false when it is
// unknown. The rules file wins over the name, the name over the table.
func (c *Config) ModelParams(name string) (billions float64, source string, ok bool) {
	lower := strings.ToLower(name)
	if v, ok := c.Models[lower]; ok {
		return v, "rules file", true
	}
	if v, ok := ParamsFromName(lower); ok {
		return v, "name", true
	}
	// A known family with a suffix ("deepseek-v3-0324", "deepseek-r1:latest").
	best := ""
	for k := range knownModels {
		if (lower == k || strings.HasPrefix(lower, k+"-") || strings.HasPrefix(lower, k+":")) && len(k) > len(best) {
			best = k
		}
	}
	if best != "" {
		return knownModels[best], "known model", true
	}
	return 0, "", false
}

// ParamsFromName reads a parameter count in billions from a model name:
// the largest size it shows ("llama-3.1-405b" 405, "mixtral-8x22b" 176).
func ParamsFromName(name string) (float64, bool) {
	lower := strings.ToLower(name)
	best, found := 0.0, false
	// Sizes may share a separator ("-7b-8x7b"): match from each start.
	for i := 0; i < len(lower); {
		loc := sizeRE.FindStringSubmatchIndex(lower[i:])
		if loc == nil {
			break
		}
		v, err := strconv.ParseFloat(lower[i+loc[4]:i+loc[5]], 64)
		if err == nil {
			if loc[2] >= 0 {
				n, _ := strconv.ParseFloat(lower[i+loc[2]:i+loc[3]], 64)
				v *= n
			}
			if !found || v > best {
				best, found = v, true
			}
		}
		i += loc[5]
	}
	return best, found
}
