package deploy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// unit is a parsed systemd unit file: section → key → values, in order.
type unit map[string]map[string][]string

// readUnit parses a unit file as systemd does for these files: comments,
// sections, key=value, a trailing backslash continuing the line.
func readUnit(t *testing.T, name string) unit {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	u := unit{}
	section := ""
	var cont string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if cont != "" {
			line = cont + " " + line
			cont = ""
		}
		if strings.HasSuffix(line, "\\") {
			cont = strings.TrimSuffix(line, "\\")
			continue
		}
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[':
			section = strings.Trim(line, "[]")
			u[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("%s: cannot read %q", name, line)
			}
			u[section][k] = append(u[section][k], v)
		}
	}
	return u
}

func (u unit) get(section, key string) string {
	v := u[section][key]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// under says whether p is dir or below it.
func under(p, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return p == dir || strings.HasPrefix(p, dir+"/")
}

func TestSystemdUnits(t *testing.T) {
	svc := readUnit(t, "systemd/loganalyze.service")
	timer := readUnit(t, "systemd/loganalyze.timer")
	for key, want := range map[string]string{
		"Type":            "oneshot",
		"ProtectSystem":   "strict",
		"StateDirectory":  "loganalyze",
		"NoNewPrivileges": "yes",
		"PrivateTmp":      "yes",
	} {
		if got := svc.get("Service", key); got != want {
			t.Errorf("loganalyze.service: %s=%q, want %q", key, got, want)
		}
	}
	if user := svc.get("Service", "User"); svc.get("Service", "DynamicUser") != "yes" && (user == "" || user == "root" || user == "0") {
		t.Errorf("loganalyze.service runs as %q: want DynamicUser=yes or a user of its own", user)
	}
	exec := strings.Fields(svc.get("Service", "ExecStart"))
	if len(exec) == 0 || exec[0] != "/usr/local/bin/loganalyze" {
		t.Fatalf("ExecStart %q does not run /usr/local/bin/loganalyze", exec)
	}
	flags, logs := checkArgs(t, "loganalyze.service", exec[1:])
	for _, want := range []string{"--since", "--state", "--keep", "--fail-on", "--prom"} {
		if len(flags[want]) == 0 {
			t.Errorf("loganalyze.service: no %s", want)
		}
	}
	// ProtectSystem=strict leaves writable only the state directory and
	// ReadWritePaths; the logs must be in ReadOnlyPaths.
	stateDir := "/var/lib/" + svc.get("Service", "StateDirectory")
	writable := append([]string{stateDir}, strings.Fields(strings.Join(svc["Service"]["ReadWritePaths"], " "))...)
	if len(flags["--state"]) > 0 && !under(flags["--state"][0], stateDir) {
		t.Errorf("--state %s is not in StateDirectory %s", flags["--state"][0], stateDir)
	}
	for _, name := range []string{"--state", "--md", "--html", "--json", "--prom"} {
		for _, p := range flags[name] {
			if p != "-" && !slices.ContainsFunc(writable, func(d string) bool { return under(p, d) }) {
				t.Errorf("%s %s is not writable under ProtectSystem=strict (writable: %q)", name, p, writable)
			}
		}
	}
	readOnly := strings.Fields(strings.Join(svc["Service"]["ReadOnlyPaths"], " "))
	if len(logs) == 0 {
		t.Error("loganalyze.service reads no logs")
	}
	for _, p := range logs {
		if !slices.ContainsFunc(readOnly, func(d string) bool { return under(p, d) }) {
			t.Errorf("the logs %s are not in ReadOnlyPaths %q", p, readOnly)
		}
	}
	if got := timer.get("Timer", "OnCalendar"); got != "hourly" {
		t.Errorf("loganalyze.timer: OnCalendar=%q, want hourly", got)
	}
	if got := timer.get("Timer", "Unit"); got != "" && got != "loganalyze.service" {
		t.Errorf("loganalyze.timer starts %q", got)
	}
	if got := timer.get("Install", "WantedBy"); got != "timers.target" {
		t.Errorf("loganalyze.timer: WantedBy=%q, want timers.target", got)
	}
}

// TestSystemdVerify runs systemd-analyze verify on the units, installed
// with the built binary into a root of their own beside the system's
// units: any warning (an unknown key, a bad value) fails.
func TestSystemdVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatal("systemd-analyze is needed (Debian: apt-get install systemd): ", err)
	}
	root := t.TempDir()
	for _, d := range []string{"usr/local/bin", "etc/systemd/system", "usr/lib/systemd"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Copies, not links: verify resolves links inside the root.
	if out, err := exec.Command("cp", "-a", "/usr/lib/systemd/system", filepath.Join(root, "usr/lib/systemd/")).CombinedOutput(); err != nil {
		t.Fatalf("copying the system's units: %v %s", err, out)
	}
	bin, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "usr/local/bin/loganalyze"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"loganalyze.service", "loganalyze.timer"} {
		b, err := os.ReadFile(filepath.Join("systemd", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "etc/systemd/system", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(analyze, "verify", "--root="+root, "loganalyze.service", "loganalyze.timer")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil || out.Len() > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out.String())
	}
}

// TestSystemdExecStartRuns runs the service's command line on an hour of
// logs, its paths moved into a temporary root: it exits 0 or 3 (findings)
// and writes the Prometheus text where the textfile collector reads it.
func TestSystemdExecStartRuns(t *testing.T) {
	svc := readUnit(t, "systemd/loganalyze.service")
	args := strings.Fields(svc.get("Service", "ExecStart"))[1:]
	flags, _ := checkArgs(t, "loganalyze.service", args)
	root := t.TempDir()
	writeLogs(t, filepath.Join(root, "data/logs/gw.jsonl"), 3)
	dirs := map[string]string{}
	for _, d := range []string{"/data/logs", "/var/lib/loganalyze", filepath.Dir(flags["--prom"][0])} {
		dirs[d] = filepath.Join(root, d)
	}
	code, stderr := runArgs(t, args, dirs)
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	prom, err := os.ReadFile(filepath.Join(root, flags["--prom"][0]))
	if err != nil || !bytes.Contains(prom, []byte("\nloganalyze_requests_total ")) {
		t.Errorf("--prom %s: %v %.200q", flags["--prom"][0], err, prom)
	}
}
