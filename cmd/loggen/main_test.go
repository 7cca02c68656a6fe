package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWritesEveryFormat(t *testing.T) {
	for _, name := range formatNames() {
		var out, errb bytes.Buffer
		if code := run([]string{"-n", "200", "--format", name, "--seed", "3"}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errb.String())
		}
		if out.Len() < 1000 {
			t.Errorf("%s: only %d bytes", name, out.Len())
		}
		var again bytes.Buffer
		run([]string{"-n", "200", "--format", name, "--seed", "3"}, &again, &errb)
		if !bytes.Equal(out.Bytes(), again.Bytes()) {
			t.Errorf("%s: the same seed wrote different bytes", name)
		}
	}
}

func TestPartsAndCompression(t *testing.T) {
	var whole bytes.Buffer
	if code := run([]string{"-n", "300", "--plant", "none"}, &whole, io.Discard); code != 0 {
		t.Fatal(code)
	}
	var joined strings.Builder
	for _, part := range []string{"1/3", "2/3", "3/3"} {
		var out bytes.Buffer
		if code := run([]string{"-n", "300", "--plant", "none", "--part", part}, &out, io.Discard); code != 0 {
			t.Fatal(code)
		}
		joined.Write(out.Bytes())
	}
	if joined.String() != whole.String() {
		t.Error("the parts do not add up to the whole log")
	}
	path := filepath.Join(t.TempDir(), "x.jsonl.gz")
	if code := run([]string{"-n", "300", "--plant", "none", "-o", path}, io.Discard, io.Discard); code != 0 {
		t.Fatal(code)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, whole.Bytes()) {
		t.Errorf("gzip output differs from the plain one (%v)", err)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"--format", "xml"}, {"--plant", "bogus"}, {"--part", "4/3"}, {"--start", "noon"},
		{"--slow-region", "ap-beijing", "--slow-factor", "0"}, {"--slow-model", "x", "--slow-factor", "-2"}} {
		var errb bytes.Buffer
		if code := run(args, io.Discard, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, %q", args, code, errb.String())
		}
	}
}

// TestSlow: --slow-region changes the lines of that region's calls
// only, and the same flags write the same bytes.
func TestSlow(t *testing.T) {
	args := []string{"-n", "300", "--plant", "none", "--seed", "4"}
	var base, slow, again bytes.Buffer
	if code := run(args, &base, io.Discard); code != 0 {
		t.Fatal(code)
	}
	slowArgs := append(args, "--slow-region", "ap-beijing", "--slow-factor", "2.5")
	if run(slowArgs, &slow, io.Discard) != 0 || run(slowArgs, &again, io.Discard) != 0 {
		t.Fatal("--slow-region failed")
	}
	if !bytes.Equal(slow.Bytes(), again.Bytes()) {
		t.Error("the same flags wrote different bytes")
	}
	a, b := strings.Split(base.String(), "\n"), strings.Split(slow.String(), "\n")
	if len(a) != len(b) {
		t.Fatalf("%d lines slowed, %d without", len(b), len(a))
	}
	changed := 0
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		changed++
		if !strings.Contains(a[i], `"region":"ap-beijing"`) {
			t.Errorf("line %d changed outside ap-beijing: %s", i+1, a[i])
		}
	}
	if changed == 0 {
		t.Error("nothing slowed")
	}
}
