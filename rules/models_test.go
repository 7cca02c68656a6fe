package rules

import "testing"

func TestParamsFromName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want float64
		ok   bool
	}{
		{"qwen2-7b-instruct", 7, true},
		{"qwen2-72b-instruct", 72, true},
		{"llama-3.1-405b-instruct", 405, true},
		{"Qwen2-1.5B-Instruct", 1.5, true},
		{"mixtral-8x22b", 176, true},
		{"mixtral-8x7b-instruct", 56, true},
		{"qwen3-30b-a3b", 30, true},
		{"meta/llama3-70b", 70, true},
		{"minicpm-2b", 2, true},
		{"gpt-4o", 0, false},
		{"deepseek-v3", 0, false},
		{"web3b", 0, false},
	} {
		got, ok := ParamsFromName(tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestModelParamsKnownNames(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		name string
		want float64
	}{{"deepseek-v3", 671}, {"DeepSeek-R1", 671}, {"deepseek-r1-0528", 671}, {"hunyuan-large", 389}} {
		if got, src, ok := c.ModelParams(tc.name); !ok || got != tc.want || src != "known model" {
			t.Errorf("%s: %v %q %v, want %v from the table", tc.name, got, src, ok, tc.want)
		}
	}
	c.Models["deepseek-v3"] = 37 // the rules file wins
	if got, _, _ := c.ModelParams("deepseek-v3"); got != 37 {
		t.Errorf("rules file not preferred: %v", got)
	}
	if _, _, ok := c.ModelParams("hunyuan-lite"); ok {
		t.Error("hunyuan-lite has no known size")
	}
}
