package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// externalClaims are the claims the manifests use but do not declare:
// the gateways' logs, which exist before loganalyze is deployed.
var externalClaims = []string{"gateway-logs"}

// manifests are the decoded objects of deploy/kubernetes/*.yaml.
type manifests struct {
	claims   map[string]*corev1.PersistentVolumeClaim
	cronJobs map[string]*batchv1.CronJob
	jobs     map[string]*batchv1.Job
}

// decodeFile decodes each document of a multi-document YAML file
// strictly into its API type, as the API server's strict field
// validation does: an unknown or misspelt field (also one misspelt only
// in case, which encoding/json and so yaml.UnmarshalStrict would take), a
// duplicate key or a value of the wrong type is an error, as is a kind
// this package does not know.
func decodeFile(name string, b []byte, m *manifests) error {
	for i, doc := range splitDocuments(b) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return fmt.Errorf("%s: document %d: %w", name, i+1, err)
		}
		var obj interface{ GetName() string }
		switch tm.APIVersion + " " + tm.Kind {
		case "v1 PersistentVolumeClaim":
			obj = &corev1.PersistentVolumeClaim{}
		case "batch/v1 CronJob":
			obj = &batchv1.CronJob{}
		case "batch/v1 Job":
			obj = &batchv1.Job{}
		default:
			return fmt.Errorf("%s: document %d: unknown kind %q of %q", name, i+1, tm.Kind, tm.APIVersion)
		}
		j, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return fmt.Errorf("%s: document %d (%s): %w", name, i+1, tm.Kind, err)
		}
		strict, err := kjson.UnmarshalStrict(j, obj, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
		if err == nil && len(strict) > 0 {
			err = errors.Join(strict...)
		}
		if err != nil {
			return fmt.Errorf("%s: document %d (%s): %w", name, i+1, tm.Kind, err)
		}
		if obj.GetName() == "" {
			return fmt.Errorf("%s: document %d (%s): no metadata.name", name, i+1, tm.Kind)
		}
		switch o := obj.(type) {
		case *corev1.PersistentVolumeClaim:
			m.claims[o.Name] = o
		case *batchv1.CronJob:
			m.cronJobs[o.Name] = o
		case *batchv1.Job:
			m.jobs[o.Name] = o
		}
	}
	return nil
}

// splitDocuments splits a YAML stream at its "---" lines, dropping
// documents that hold only comments.
func splitDocuments(b []byte) [][]byte {
	var docs [][]byte
	for _, doc := range regexp.MustCompile(`(?m)^---[ \t]*$`).Split(string(b), -1) {
		for line := range strings.Lines(doc) {
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
				docs = append(docs, []byte(doc))
				break
			}
		}
	}
	return docs
}

func loadManifests(t *testing.T) *manifests {
	t.Helper()
	files, err := filepath.Glob("kubernetes/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	m := &manifests{map[string]*corev1.PersistentVolumeClaim{}, map[string]*batchv1.CronJob{}, map[string]*batchv1.Job{}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := decodeFile(f, b, m); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestStrictDecodingRejectsMistakes(t *testing.T) {
	good, err := os.ReadFile("kubernetes/cronjob.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, why string }{
		{"concurrencyPolicy: Forbid", "concurencyPolicy: Forbid", "misspelt field"},
		{"readOnlyRootFilesystem: true", "readOnlyRootFileSystem: true", "wrong case"},
		{"runAsNonRoot: true", "runAsNonRoot: yes please", "wrong type"},
		{"kind: CronJob", "kind: CronJobs", "unknown kind"},
		{"  concurrencyPolicy: Forbid", "  concurrencyPolicy: Forbid\n  concurrencyPolicy: Allow", "duplicate key"},
	} {
		bad := bytes.Replace(good, []byte(c.from), []byte(c.to), 1)
		if bytes.Equal(bad, good) {
			t.Fatalf("%s: %q is not in cronjob.yaml", c.why, c.from)
		}
		m := &manifests{map[string]*corev1.PersistentVolumeClaim{}, map[string]*batchv1.CronJob{}, map[string]*batchv1.Job{}}
		if err := decodeFile("cronjob.yaml", bad, m); err == nil {
			t.Errorf("%s: decoded without an error", c.why)
		} else {
			t.Logf("%s: %v", c.why, err)
		}
	}
}

func TestCronJob(t *testing.T) {
	m := loadManifests(t)
	cj := m.cronJobs["loganalyze"]
	if cj == nil {
		t.Fatalf("no CronJob loganalyze in %v", m.cronJobs)
	}
	s := cj.Spec
	if f := strings.Fields(s.Schedule); len(f) != 5 {
		t.Errorf("schedule %q has %d fields, want 5", s.Schedule, len(f))
	}
	sched, err := cron.ParseStandard(s.Schedule)
	if err != nil {
		t.Fatalf("schedule %q: %v", s.Schedule, err)
	}
	// Hourly: consecutive runs an hour apart, through a day.
	at := time.Date(2026, 11, 29, 0, 30, 0, 0, time.UTC)
	for range 24 {
		next := sched.Next(at)
		if after := sched.Next(next); after.Sub(next) != time.Hour {
			t.Fatalf("schedule %q: runs at %v then %v, not hourly", s.Schedule, next, after)
		}
		at = next
	}
	if s.TimeZone != nil {
		if _, err := time.LoadLocation(*s.TimeZone); err != nil {
			t.Errorf("timeZone: %v", err)
		}
	}
	if s.ConcurrencyPolicy != batchv1.ForbidConcurrent {
		t.Errorf("concurrencyPolicy %q, want Forbid", s.ConcurrencyPolicy)
	}
	pod := s.JobTemplate.Spec.Template.Spec
	c := checkPod(t, m, "CronJob loganalyze", &pod)
	flags, paths := checkArgs(t, "CronJob loganalyze", c.Args)
	for _, want := range []string{"--since", "--state", "--keep", "--fail-on", "--html", "--json", "--prom"} {
		if len(flags[want]) == 0 {
			t.Errorf("CronJob loganalyze: no %s", want)
		}
	}
	if len(paths) == 0 {
		t.Error("CronJob loganalyze: no log path")
	}
	checkPaths(t, "CronJob loganalyze", c, flags, paths)
	if r := s.JobTemplate.Spec.PodFailurePolicy; r != nil {
		for _, rule := range r.Rules {
			if e := rule.OnExitCodes; e != nil && e.ContainerName != nil && *e.ContainerName != c.Name {
				t.Errorf("podFailurePolicy names container %q, the container is %q", *e.ContainerName, c.Name)
			}
		}
	}
}

func TestIndexedJobAndRollup(t *testing.T) {
	m := loadManifests(t)
	shards, rollup := m.jobs["loganalyze-shards"], m.jobs["loganalyze-rollup"]
	if shards == nil || rollup == nil {
		t.Fatalf("want Jobs loganalyze-shards and loganalyze-rollup, have %v", m.jobs)
	}
	if shards.Spec.CompletionMode == nil || *shards.Spec.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("loganalyze-shards: completionMode %v, want Indexed", shards.Spec.CompletionMode)
	}
	if shards.Spec.Completions == nil || *shards.Spec.Completions < 2 {
		t.Fatalf("loganalyze-shards: completions %v, want at least 2", shards.Spec.Completions)
	}
	n := int(*shards.Spec.Completions)
	sc := checkPod(t, m, "Job loganalyze-shards", &shards.Spec.Template.Spec)
	sflags, spaths := checkArgs(t, "Job loganalyze-shards", sc.Args)
	const index = "$(JOB_COMPLETION_INDEX)"
	if len(sflags["--state"]) != 1 || !strings.Contains(sflags["--state"][0], index) {
		t.Errorf("loganalyze-shards: --state %q does not name the pod's index", sflags["--state"])
	}
	if len(spaths) == 0 || !strings.Contains(spaths[0], index) {
		t.Errorf("loganalyze-shards: the logs %q are not the pod's share", spaths)
	}
	checkPaths(t, "Job loganalyze-shards", sc, sflags, spaths)

	rc := checkPod(t, m, "Job loganalyze-rollup", &rollup.Spec.Template.Spec)
	if len(rc.Args) == 0 || rc.Args[0] != "report" {
		t.Fatalf("loganalyze-rollup: args %q, want loganalyze report …", rc.Args)
	}
	rflags, rpaths := checkArgs(t, "Job loganalyze-rollup", rc.Args)
	if len(rpaths) != 0 {
		t.Errorf("loganalyze-rollup: report reads no logs, got %q", rpaths)
	}
	// The roll-up reads every shard's state directory, in the same volume.
	var want []string
	for i := range n {
		want = append(want, strings.ReplaceAll(sflags["--state"][0], index, fmt.Sprint(i)))
	}
	if !slices.Equal(rflags["--state"], want) {
		t.Errorf("loganalyze-rollup: --state %q, want the %d shards' %q", rflags["--state"], n, want)
	}
	if a, b := claimAt(sc, &shards.Spec.Template.Spec, want[0]), claimAt(rc, &rollup.Spec.Template.Spec, want[0]); a == "" || a != b {
		t.Errorf("the shards write their state to claim %q, the roll-up reads claim %q", a, b)
	}
	checkPaths(t, "Job loganalyze-rollup", rc, rflags, nil)
}

// checkPod checks what every loganalyze pod must have and returns its
// one container.
func checkPod(t *testing.T, m *manifests, where string, pod *corev1.PodSpec) *corev1.Container {
	t.Helper()
	if pod.RestartPolicy != corev1.RestartPolicyNever && pod.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("%s: restartPolicy %q, a Job's pod needs Never or OnFailure", where, pod.RestartPolicy)
	}
	psc := pod.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Errorf("%s: the pod's securityContext lacks runAsNonRoot: true", where)
	}
	if psc != nil && psc.RunAsUser != nil && *psc.RunAsUser == 0 {
		t.Errorf("%s: runAsUser 0", where)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%s: %d containers, want 1", where, len(pod.Containers))
	}
	c := &pod.Containers[0]
	if want := entrypoint(t); !slices.Equal(c.Command, []string{want}) || path.Base(want) != "loganalyze" {
		t.Errorf("%s: command %q, want the image's [%q]", where, c.Command, want)
	}
	if c.Image == "" {
		t.Errorf("%s: no image", where)
	}
	sc := c.SecurityContext
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Errorf("%s: the container lacks readOnlyRootFilesystem: true", where)
	}
	if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("%s: the container lacks allowPrivilegeEscalation: false", where)
	}
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, lim := c.Resources.Requests[res], c.Resources.Limits[res]
		if req.IsZero() || lim.IsZero() || req.Cmp(lim) > 0 {
			t.Errorf("%s: %s request %v, limit %v: want both, request ≤ limit", where, res, &req, &lim)
		}
	}
	volumes := map[string]*corev1.Volume{}
	for i := range pod.Volumes {
		volumes[pod.Volumes[i].Name] = &pod.Volumes[i]
	}
	for _, vm := range c.VolumeMounts {
		v := volumes[vm.Name]
		if v == nil {
			t.Errorf("%s: mount %q names no volume", where, vm.Name)
			continue
		}
		if pvc := v.PersistentVolumeClaim; pvc != nil {
			if m.claims[pvc.ClaimName] == nil && !slices.Contains(externalClaims, pvc.ClaimName) {
				t.Errorf("%s: claim %q is not declared", where, pvc.ClaimName)
			}
			if vm.ReadOnly != pvc.ReadOnly {
				t.Errorf("%s: mount %q read-only %v, its claim read-only %v", where, vm.Name, vm.ReadOnly, pvc.ReadOnly)
			}
		}
	}
	return c
}

// mountOf returns the volume mount that holds p, the deepest one.
func mountOf(c *corev1.Container, p string) *corev1.VolumeMount {
	var best *corev1.VolumeMount
	for i, vm := range c.VolumeMounts {
		mp := strings.TrimSuffix(vm.MountPath, "/")
		if (p == mp || strings.HasPrefix(p, mp+"/")) && (best == nil || len(mp) > len(best.MountPath)) {
			best = &c.VolumeMounts[i]
		}
	}
	return best
}

// claimAt is the claim mounted where p is, or "".
func claimAt(c *corev1.Container, pod *corev1.PodSpec, p string) string {
	vm := mountOf(c, p)
	if vm == nil {
		return ""
	}
	for _, v := range pod.Volumes {
		if v.Name == vm.Name && v.PersistentVolumeClaim != nil {
			return v.PersistentVolumeClaim.ClaimName
		}
	}
	return ""
}

// checkPaths checks that, with the root filesystem read-only, what the
// run writes (the state directory, the reports) is on a writable mount
// and the logs it reads are on read-only ones.
func checkPaths(t *testing.T, where string, c *corev1.Container, flags map[string][]string, logs []string) {
	t.Helper()
	for _, name := range []string{"--state", "--md", "--html", "--json", "--prom"} {
		for _, p := range flags[name] {
			if p == "-" {
				continue
			}
			if vm := mountOf(c, p); vm == nil || vm.ReadOnly {
				t.Errorf("%s: %s %s is not on a writable mount", where, name, p)
			}
		}
	}
	for _, p := range logs {
		if vm := mountOf(c, p); vm == nil || !vm.ReadOnly {
			t.Errorf("%s: the logs %s are not on a read-only mount", where, p)
		}
	}
}
