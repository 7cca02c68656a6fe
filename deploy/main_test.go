package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is loganalyze built as the Dockerfile builds it, by TestMain.
var binary string

// helpFlags are the long flags the built binary's --help lists, each
// true when it takes a value (pflag prints "--name VALUE"), false for a
// switch ("--name[=true|false]").
var helpFlags map[string]bool

// dockerBuild is the build command of the Dockerfile's build stage; the
// tests build with exactly its environment and flags (buildArgs).
const dockerBuild = `CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/loganalyze ./cmd/loganalyze`

var buildArgs = []string{"build", "-trimpath", "-ldflags=-s -w", "-o"}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "loganalyze-deploy")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := 1
	if err := setup(dir); err != nil {
		fmt.Fprintln(os.Stderr, "setup:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// setup builds the binary into dir and reads its --help.
func setup(dir string) error {
	binary = filepath.Join(dir, "loganalyze")
	cmd := exec.Command("go", append(buildArgs, binary, "./cmd/loganalyze")...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(binary, "--help").Output()
	if err != nil {
		return fmt.Errorf("loganalyze --help: %v", err)
	}
	helpFlags = map[string]bool{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "-j, "))
		if len(fields) > 0 && strings.HasPrefix(fields[0], "--") {
			name, _, isSwitch := strings.Cut(fields[0], "[")
			helpFlags[name] = !isSwitch
		}
	}
	if len(helpFlags) < 20 || !helpFlags["--state"] || !helpFlags["--keep"] || helpFlags["--version"] {
		return fmt.Errorf("read only %d flags from --help: %v", len(helpFlags), helpFlags)
	}
	return nil
}

// checkArgs checks a loganalyze command line (after the program's name):
// every flag is one --help lists, given a value when it takes one. The
// report subcommand takes the same flags as the hourly run (SPEC §7). It
// returns the flags' values by name and the positional arguments.
func checkArgs(t *testing.T, where string, args []string) (flags map[string][]string, paths []string) {
	t.Helper()
	if len(args) > 0 && args[0] == "report" {
		args = args[1:]
	}
	flags = map[string][]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			if strings.HasPrefix(a, "-") && a != "-" {
				t.Errorf("%s: %q: use the long flags", where, a)
			}
			paths = append(paths, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		takesValue, ok := helpFlags[name]
		switch {
		case !ok:
			t.Errorf("%s: %q is not a flag loganalyze --help lists", where, name)
		case takesValue && !hasValue:
			if i+1 == len(args) {
				t.Errorf("%s: %s lacks its value", where, name)
				continue
			}
			i++
			value = args[i]
		}
		flags[name] = append(flags[name], value)
	}
	return flags, paths
}
