package main

// Golden scenarios: each testdata/golden/*.txtar archive is one or more
// runs of the whole command, in-process, and the exact bytes they write.
//
// An archive's comment (the text before the first section) says what the
// scenario exercises. Its sections are:
//
//	args          the checked run's command line, one argument per line;
//	              $DIR is the temporary directory the input files are in
//	stdin         what the run reads as standard input (default: nothing)
//	exit          golden: the exit code
//	stderr        golden: what the run wrote on standard error
//	stdout        golden: what it wrote on standard output, when anything
//	md, json,     golden: the report in that format; for each one present
//	prom, html    the test adds --md (--json, ...) $DIR/<run>report.<ext>
//	              to the command line
//	NAME/args     a run before the checked one (e.g. first/args, to fill a
//	              --state directory), in archive order, with its own
//	              NAME/exit, NAME/stderr, NAME/json and so on
//	NAME.base64   an input file written to $DIR/NAME, decoded: for
//	              binary inputs (Parquet, Arrow, gzip), which a txtar
//	              section cannot hold (it always ends in a newline)
//	anything else an input file, written to $DIR/<section name>
//
// Every run has the same fixed clock (goldenNow, 2026-11-29T11:00Z). In
// outputs the temporary directory is replaced by $DIR. To rewrite the
// golden sections after a deliberate change, run
//
//	go test ./cmd/loganalyze -run TestGolden -update
//
// and read the diff: the inputs and args are never rewritten.

import (
	"bytes"
	"encoding/base64"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// goldenNow is every scenario's clock: --since -30m and the like are
// relative to it.
var goldenNow = func() time.Time { return time.Date(2026, 11, 29, 11, 0, 0, 0, time.UTC) }

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/golden/*.txtar with what the runs write")

// goldenReports are the report sections of a run, each with the flag that
// asks for it, in the order an updated archive lists them.
var goldenReports = []struct{ section, flag string }{
	{"md", "--md"},
	{"json", "--json"},
	{"prom", "--prom"},
	{"html", "--html"},
}

// goldenNames are the base names of a run's sections other than input
// files.
var goldenNames = []string{"args", "stdin", "exit", "stderr", "stdout", "md", "json", "prom", "html"}

// scenarioRun is one run of an archive: its prefix ("" for the checked
// run, "first/" for one named first) and its sections by base name.
type scenarioRun struct {
	prefix   string
	sections map[string][]byte
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden scenarios in testdata/golden")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			testScenario(t, file)
		})
	}
}

// runSection splits a section name into a run prefix and a base name;
// ok is false for an input file.
func runSection(name string) (prefix, base string, ok bool) {
	i := strings.LastIndexByte(name, '/')
	prefix, base = name[:i+1], name[i+1:]
	return prefix, base, slices.Contains(goldenNames, base)
}

func testScenario(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var runs []*scenarioRun
	byPrefix := map[string]*scenarioRun{}
	for _, f := range ar.Files {
		prefix, base, ok := runSection(f.Name)
		if !ok {
			if !filepath.IsLocal(f.Name) {
				t.Fatalf("input file %q is not a path inside the scenario's directory", f.Name)
			}
			name, data := f.Name, f.Data
			if n, ok := strings.CutSuffix(name, ".base64"); ok {
				name = n
				if data, err = base64.StdEncoding.DecodeString(strings.ReplaceAll(string(data), "\n", "")); err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
			}
			path := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		r := byPrefix[prefix]
		if r == nil {
			r = &scenarioRun{prefix: prefix, sections: map[string][]byte{}}
			byPrefix[prefix] = r
		}
		if _, dup := r.sections[base]; dup {
			t.Fatalf("section %q given twice", f.Name)
		}
		r.sections[base] = f.Data
		if base == "args" {
			runs = append(runs, r)
		}
	}
	for prefix, r := range byPrefix {
		if _, ok := r.sections["args"]; !ok {
			t.Fatalf("sections %s... but no %sargs", prefix, prefix)
		}
	}
	if r := byPrefix[""]; r == nil || runs[len(runs)-1] != r {
		t.Fatal("the archive's last run must be the one named args")
	}

	got := map[string][]byte{} // section name → this run's bytes
	for _, r := range runs {
		for base, data := range runScenario(t, dir, r) {
			got[r.prefix+base] = data
		}
	}

	if *update {
		updateArchive(t, file, ar, runs, got)
		return
	}
	for _, f := range ar.Files {
		if _, _, ok := runSection(f.Name); !ok {
			continue
		}
		g, ok := got[f.Name]
		if !ok {
			continue // args, stdin
		}
		if !bytes.Equal(g, f.Data) {
			t.Errorf("%s differs from the golden section (-golden +got):\n%s", f.Name,
				cmp.Diff(strings.SplitAfter(string(f.Data), "\n"), strings.SplitAfter(string(g), "\n")))
		}
	}
	for _, r := range runs {
		if _, ok := r.sections["stdout"]; !ok && len(got[r.prefix+"stdout"]) > 0 {
			t.Errorf("%sstdout: the run wrote to stdout, the archive has no section for it:\n%s", r.prefix, got[r.prefix+"stdout"])
		}
		for _, base := range []string{"exit", "stderr"} {
			if _, ok := r.sections[base]; !ok {
				t.Errorf("no %s%s section: run with -update", r.prefix, base)
			}
		}
	}
}

// runScenario runs the command line of r in-process and returns what it
// wrote, by section base name, with dir replaced by $DIR.
func runScenario(t *testing.T, dir string, r *scenarioRun) map[string][]byte {
	var args []string
	for _, line := range strings.Split(string(r.sections["args"]), "\n") {
		if line != "" {
			args = append(args, strings.ReplaceAll(line, "$DIR", dir))
		}
	}
	if len(args) == 0 {
		t.Fatalf("%sargs: empty", r.prefix)
	}
	outs := map[string]string{}
	for _, rep := range goldenReports {
		if _, ok := r.sections[rep.section]; ok {
			path := filepath.Join(dir, strings.ReplaceAll(r.prefix, "/", "-")+"report."+rep.section)
			args = append(args, rep.flag, path)
			outs[rep.section] = path
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(args, bytes.NewReader(r.sections["stdin"]), &stdout, &stderr, goldenNow)

	// The directory as it appears in text, and as Markdown escapes it.
	clean := strings.NewReplacer(strings.ReplaceAll(dir, "_", `\_`), "$DIR", dir, "$DIR")
	got := map[string][]byte{
		"exit":   []byte(strconv.Itoa(code) + "\n"),
		"stderr": []byte(clean.Replace(stderr.String())),
		"stdout": []byte(clean.Replace(stdout.String())),
	}
	for section, path := range outs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s%s: the run wrote no report: %v", r.prefix, section, err)
			continue
		}
		got[section] = []byte(clean.Replace(string(b)))
	}
	for section, b := range got {
		// A txtar section ends in a newline; output that does not
		// could not be compared exactly.
		if len(b) > 0 && b[len(b)-1] != '\n' {
			t.Errorf("%s%s: the output does not end in a newline", r.prefix, section)
		}
	}
	return got
}

// updateArchive rewrites file with the runs' output as golden sections:
// the comment, args and input files as they were, then each run's
// sections in a fixed order.
func updateArchive(t *testing.T, file string, ar *txtar.Archive, runs []*scenarioRun, got map[string][]byte) {
	out := &txtar.Archive{Comment: ar.Comment}
	for _, f := range ar.Files {
		if _, base, ok := runSection(f.Name); !ok || base == "args" || base == "stdin" {
			out.Files = append(out.Files, f)
		}
	}
	for _, r := range runs {
		add := func(base string) {
			out.Files = append(out.Files, txtar.File{Name: r.prefix + base, Data: got[r.prefix+base]})
		}
		add("exit")
		add("stderr")
		if _, ok := r.sections["stdout"]; ok || len(got[r.prefix+"stdout"]) > 0 {
			add("stdout")
		}
		for _, rep := range goldenReports {
			if _, ok := r.sections[rep.section]; ok {
				add(rep.section)
			}
		}
	}
	data := txtar.Format(out)
	// Output holding a line like "-- name --" would split a section.
	back := txtar.Parse(data)
	if len(back.Files) != len(out.Files) {
		t.Fatalf("the output cannot be stored in a txtar archive: a line of it reads as a section marker")
	}
	if bytes.Equal(data, mustRead(t, file)) {
		return
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", file)
}

func mustRead(t *testing.T, file string) []byte {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoldenArchivesHaveComments keeps every scenario saying what it is
// for, and every scenario that succeeds checking a report, not only an
// exit code.
func TestGoldenArchivesHaveComments(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(ar.Comment)) == 0 {
			t.Errorf("%s: no comment saying what the scenario exercises", file)
		}
		reports, failed := 0, false
		for _, f := range ar.Files {
			switch _, base, ok := runSection(f.Name); {
			case !ok:
			case base == "exit":
				failed = failed || string(f.Data) != "0\n"
			case base != "args" && base != "stdin" && base != "stderr":
				reports++
			}
		}
		if reports == 0 && !failed {
			t.Errorf("%s: a run that succeeds with no report section (md, json, prom, html or stdout)", file)
		}
	}
}
