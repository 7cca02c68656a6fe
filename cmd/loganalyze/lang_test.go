package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loganalyze/gen"
)

// TestLangChangesOnlyMarkdownAndHTML runs the same input with --lang en
// and --lang zh-CN: the JSON and Prometheus reports are byte for byte
// the same, the Markdown and HTML ones are not, and the zh-CN page says
// its language.
func TestLangChangesOnlyMarkdownAndHTML(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "in.jsonl")
	f, err := os.Create(input)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteJSONL(f, gen.Generate(gen.Config{Seed: 5, N: 300, Plants: gen.All}), gen.WriteOptions{BadEvery: 100}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := map[string]map[string][]byte{}
	for _, lang := range []string{"en", "zh-CN"} {
		out[lang] = map[string][]byte{}
		args := []string{"--tz", "UTC", "--workers", "2", "--lang", lang}
		for _, ext := range []string{"md", "html", "json", "prom"} {
			args = append(args, "--"+ext, filepath.Join(dir, lang+"."+ext))
		}
		var stderr bytes.Buffer
		if code := run(append(args, input), nil, &bytes.Buffer{}, &stderr, goldenNow); code != exitOK {
			t.Fatalf("--lang %s: exit %d: %s", lang, code, stderr.String())
		}
		for _, ext := range []string{"md", "html", "json", "prom"} {
			b, err := os.ReadFile(filepath.Join(dir, lang+"."+ext))
			if err != nil {
				t.Fatal(err)
			}
			out[lang][ext] = b
		}
	}
	for _, ext := range []string{"json", "prom"} {
		if !bytes.Equal(out["en"][ext], out["zh-CN"][ext]) {
			t.Errorf("the %s report differs between --lang en and --lang zh-CN", ext)
		}
	}
	for _, ext := range []string{"md", "html"} {
		if bytes.Equal(out["en"][ext], out["zh-CN"][ext]) {
			t.Errorf("the %s report is the same in both languages", ext)
		}
	}
	if !bytes.Contains(out["zh-CN"]["html"], []byte(`<html lang="zh-CN">`)) || !bytes.Contains(out["en"]["html"], []byte(`<html lang="en">`)) {
		t.Errorf("the HTML reports do not say their language")
	}
	if md := string(out["zh-CN"]["md"]); !strings.HasPrefix(md, "# loganalyze 报告\n\n**结论：严重**") {
		t.Errorf("the zh-CN Markdown starts %q", md[:min(80, len(md))])
	}
}
