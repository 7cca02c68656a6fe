package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"loganalyze/gen"
)

// writeLogs writes 40 minutes of generated requests that end 10 minutes
// before now, with every problem planted, as JSON lines at path.
func writeLogs(t *testing.T, path string, seed uint64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	reqs := gen.Generate(gen.Config{Seed: seed, N: 3000, Start: time.Now().Add(-50 * time.Minute), Duration: 40 * time.Minute, Plants: gen.All})
	if _, err := gen.WriteJSONL(f, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// runContainer runs the built binary with the container's arguments, each
// mount path replaced by a directory of root named after its volume and
// $(JOB_COMPLETION_INDEX) by index; it returns the exit code and stderr.
func runContainer(t *testing.T, c *corev1.Container, root, index string) (int, string) {
	t.Helper()
	dirs := map[string]string{"$(JOB_COMPLETION_INDEX)": index}
	for _, vm := range c.VolumeMounts {
		dirs[strings.TrimSuffix(vm.MountPath, "/")] = filepath.Join(root, vm.Name)
	}
	return runArgs(t, c.Args, dirs)
}

// runArgs runs the built binary with args, each key of dirs in them
// replaced by its value (the longest first), each value of dirs created
// as a directory unless it is the index; it returns the exit code and
// stderr.
func runArgs(t *testing.T, args []string, dirs map[string]string) (int, string) {
	t.Helper()
	keys := slices.Collect(maps.Keys(dirs))
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	args = slices.Clone(args)
	for i := range args {
		for _, k := range keys {
			args[i] = strings.ReplaceAll(args[i], k, dirs[k])
		}
	}
	for _, k := range keys {
		if strings.HasPrefix(k, "/") {
			if err := os.MkdirAll(dirs[k], 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(binary, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = new(bytes.Buffer), &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// TestCronJobRuns runs the CronJob's command line on an hour of logs: it
// writes every report it names and the state, and exits 3 exactly when
// the JSON report's verdict is crit (--fail-on crit).
func TestCronJobRuns(t *testing.T) {
	m := loadManifests(t)
	cj := m.cronJobs["loganalyze"]
	if cj == nil {
		t.Fatal("no CronJob loganalyze")
	}
	c := &cj.Spec.JobTemplate.Spec.Template.Spec.Containers[0]
	root := t.TempDir()
	writeLogs(t, filepath.Join(root, "logs", "gw-a.jsonl"), 1)
	code, stderr := runContainer(t, c, root, "")
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	flags, _ := checkArgs(t, "CronJob loganalyze", c.Args)
	local := func(p string) string {
		return filepath.Join(root, "state", strings.TrimPrefix(p, "/var/lib/loganalyze"))
	}
	for _, name := range []string{"--html", "--json", "--prom"} {
		if st, err := os.Stat(local(flags[name][0])); err != nil || st.Size() == 0 {
			t.Errorf("%s %s: not written (%v)", name, flags[name][0], err)
		}
	}
	b, err := os.ReadFile(local(flags["--json"][0]))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Verdict string
		Input   struct{ Records int }
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	t.Logf("exit %d, verdict %s over %d records", code, rep.Verdict, rep.Input.Records)
	if rep.Input.Records < 3000 || (code == 3) != (rep.Verdict == "crit") {
		t.Errorf("exit %d, verdict %q over %d records", code, rep.Verdict, rep.Input.Records)
	}
	if hours, _ := filepath.Glob(filepath.Join(local(flags["--state"][0]), "*.sketch")); len(hours) == 0 {
		t.Errorf("no hour stored in %s", flags["--state"][0])
	}
}

// TestIndexedJobRuns runs two pods' command lines of the Indexed Job: each
// reads only its own directory of logs into its own state directory.
func TestIndexedJobRuns(t *testing.T) {
	m := loadManifests(t)
	job := m.jobs["loganalyze-shards"]
	if job == nil {
		t.Fatal("no Job loganalyze-shards")
	}
	c := &job.Spec.Template.Spec.Containers[0]
	root := t.TempDir()
	pods := int(*job.Spec.Completions)
	var lines int64
	for i := range pods {
		path := filepath.Join(root, "logs", fmt.Sprint(i), "part.jsonl")
		writeLogs(t, path, uint64(10+i))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines += int64(bytes.Count(b, []byte("\n")))
	}
	for i := range pods {
		code, stderr := runContainer(t, c, root, fmt.Sprint(i))
		if code != 0 {
			t.Fatalf("pod %d: exit %d: %s", i, code, stderr)
		}
	}
	flags, _ := checkArgs(t, "Job loganalyze-shards", c.Args)
	for i := range pods {
		dir := strings.ReplaceAll(flags["--state"][0], "$(JOB_COMPLETION_INDEX)", fmt.Sprint(i))
		dir = filepath.Join(root, "shards", strings.TrimPrefix(dir, "/shards"))
		if hours, _ := filepath.Glob(filepath.Join(dir, "*.sketch")); len(hours) == 0 {
			t.Errorf("pod %d stored no hour in %s", i, dir)
		}
	}
	// No pod wrote outside its own directory.
	entries, err := os.ReadDir(filepath.Join(root, "shards", "state"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"0", "1", "2", "3"}; !slices.Equal(names, want) {
		t.Errorf("state directories %q, want %q", names, want)
	}
	// The roll-up reads every shard's hours: the records of all the logs.
	rollup := m.jobs["loganalyze-rollup"]
	if rollup == nil {
		t.Fatal("no Job loganalyze-rollup")
	}
	if code, stderr := runContainer(t, &rollup.Spec.Template.Spec.Containers[0], root, ""); code != 0 && code != 3 {
		t.Fatalf("roll-up: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(root, "shards", "rollup.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Input struct {
			Records int64 `json:"records"`
		} `json:"input"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Input.Records != lines {
		t.Errorf("the roll-up read %d records, the shards' logs hold %d", rep.Input.Records, lines)
	}
}
