package deploy

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestStaticBinary checks the binary built as the Dockerfile builds it:
// statically linked (no program interpreter, no shared library), built
// without cgo and with -trimpath, and --version runs in it.
func TestStaticBinary(t *testing.T) {
	f, err := elf.Open(binary)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has a program interpreter (PT_INTERP): it is dynamically linked")
		}
		if p.Type == elf.PT_DYNAMIC {
			t.Error("the binary has a dynamic section (PT_DYNAMIC)")
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("the binary needs shared libraries (DT_NEEDED) %q, %v", libs, err)
	}

	// What the toolchain recorded of the build, read by go version -m.
	out, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Fatal(err)
	}
	build := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "build" {
			k, v, _ := strings.Cut(f[1], "=")
			build[k] = v
		}
	}
	if build["CGO_ENABLED"] != "0" || build["-trimpath"] != "true" {
		t.Errorf("built with CGO_ENABLED=%q -trimpath=%q, want 0 and true", build["CGO_ENABLED"], build["-trimpath"])
	}

	v, err := exec.Command(binary, "--version").Output()
	if err != nil {
		t.Fatalf("--version: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(v), "\n"), "\n")
	goVersion := strings.Fields(strings.SplitN(string(out), "\n", 2)[0])[1]
	if f := strings.Fields(lines[0]); len(f) != 3 || f[0] != "loganalyze" || f[2] != goVersion {
		t.Errorf("--version first line %q, want loganalyze VERSION %s", lines[0], goVersion)
	}
	var wantVCS []string
	for _, k := range []string{"vcs.revision", "vcs.time", "vcs.modified"} {
		if val, ok := build[k]; ok {
			wantVCS = append(wantVCS, k+"="+val)
		}
	}
	if !slices.Equal(lines[1:], wantVCS) {
		t.Errorf("--version VCS lines %q, the build recorded %q", lines[1:], wantVCS)
	}
	if rev, ok := build["vcs.revision"]; ok {
		head, err := exec.Command("git", "-C", "..", "rev-parse", "HEAD").Output()
		if err != nil || strings.TrimSpace(string(head)) != rev {
			t.Errorf("vcs.revision %s, git HEAD %s (%v)", rev, head, err)
		}
	}
}

// TestDockerfile checks the Dockerfile's stages against what the tests
// build and what the manifests run: the Go of go.mod, the build command
// TestMain uses, a final stage of distroless static or scratch, a
// non-root user.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(mod))
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(df, -1)
	if len(froms) != 2 || goLine == nil {
		t.Fatalf("want two stages and go.mod's go line, have %q, %q", froms, goLine)
	}
	if !strings.HasPrefix(froms[0][1], "golang:"+goLine[1]) {
		t.Errorf("build stage %s, go.mod wants go %s", froms[0][1], goLine[1])
	}
	if final := froms[1][1]; final != "scratch" && !strings.HasPrefix(final, "gcr.io/distroless/static") {
		t.Errorf("final stage %s, want distroless static or scratch", final)
	}
	if !strings.Contains(df, "RUN "+dockerBuild) {
		t.Errorf("the Dockerfile does not build with %q, the command the tests check", dockerBuild)
	}
	users := regexp.MustCompile(`(?m)^USER (\S+)`).FindAllStringSubmatch(df, -1)
	if len(users) == 0 {
		t.Fatal("the Dockerfile sets no USER")
	}
	if u := users[len(users)-1][1]; u == "root" || u == "0" || strings.HasPrefix(u, "0:") || strings.HasPrefix(u, "root:") {
		t.Errorf("the image runs as %s", u)
	}
	if e := entrypoint(t); filepath.Base(e) != "loganalyze" || !strings.Contains(df, "COPY --from=build /out/loganalyze "+e+"\n") {
		t.Errorf("ENTRYPOINT %s is not the binary the build stage made", e)
	}
}

// entrypoint is the Dockerfile's ENTRYPOINT: the path of loganalyze in
// the image.
func entrypoint(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^ENTRYPOINT \["([^"]+)"\]$`)
	all := re.FindAllStringSubmatch(string(b), -1)
	if len(all) != 1 {
		t.Fatalf("Dockerfile: want one ENTRYPOINT [\"…\"], found %d", len(all))
	}
	return all[0][1]
}
