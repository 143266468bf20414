package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/campaign/dispatch"
	"github.com/sievetool/sieve/interp/campaign/image"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/results"
)

// TestCampaignAsLocalProcesses runs a campaign end to end without a
// kubelet. sieve image pushes the worker image to an in-process registry.
// sieve run --on kubernetes creates the Job on an embedded control plane,
// its pods held off every node by a node selector. This test plays the
// node: for each pod the job controller made, it runs the container's
// command line with the pod's environment, in the image's file system
// extracted to a directory. It reports the exit as the pod's status. The
// dispatcher then collects the shards' artefacts and reports them. The
// result must be the single-machine run of the same references: the same
// plans with the same verdicts.
func TestCampaignAsLocalProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a worker image and runs plans on embedded control planes")
	}
	t.Parallel() // beside the interrupt matrix's cells and TestRecordRunReproduce: most of it is waiting
	bin, cp := embeddedtest.Binary(t), embeddedtest.ControlPlane(t)
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	defer srv.Close()
	reg := strings.TrimPrefix(srv.URL, "http://")
	c := embeddedtest.Start(t, embedded.Options{})
	spec, err := filepath.Abs("../../../specs/datastore/datastore.sieve")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	ref := strings.TrimSpace(sieveOut(t, bin, "image", spec, "--test", "buggy", "--push", reg+"/sieve/worker:e2e", "--sieve-binary", bin, "--controlplane", cp))
	t.Logf("worker image %s", ref)

	d := startCampaign(t, bin, spec, c.Kubeconfig(), ref, work, "--node-selector", "sieve.dev/node=none")
	cs, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(work, "root")
	pullRoot(t, ref, root)
	shards := playNode(t, cs, root, d)
	d.wait(t, 2*time.Minute)
	sameAsOneMachine(t, bin, spec, d.dir, work, shards)
}

// dispatcher is a sieve run --on kubernetes of the datastore spec's buggy
// test (one plan per shard, two workers, campaign e2e) running.
type dispatcher struct {
	dir    string // its results directory
	exited chan error
	out    bytes.Buffer
}

// startCampaign starts the dispatcher of the worker image ref on the
// cluster of kubeconfig, with more flags.
func startCampaign(t *testing.T, bin, spec, kubeconfig, ref, work string, more ...string) *dispatcher {
	t.Helper()
	d := &dispatcher{dir: filepath.Join(work, "campaign"), exited: make(chan error, 1)}
	cmd := exec.Command(bin, append([]string{"run", spec, "--test", "buggy", "--max-plans", "1", "--on", "kubernetes", "--kubeconfig", kubeconfig,
		"--image", ref, "--workers", "2", "--campaign", "e2e", "-o", d.dir}, more...)...)
	cmd.Stdout, cmd.Stderr = &d.out, &d.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.exited <- cmd.Wait() }()
	return d
}

// wait waits up to limit for the dispatcher to end, which must find the
// campaign's results reported (exit 0 or 1).
func (d *dispatcher) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case err := <-d.exited:
		t.Logf("sieve run --on kubernetes: %v\n%s", err, d.out.String())
		if code := processExit(err); code != exitOK && code != exitFindings {
			t.Fatalf("sieve run --on kubernetes exited %d, want 0 or 1", code)
		}
	case <-time.After(limit):
		t.Fatalf("sieve run --on kubernetes did not end in %s:\n%s", limit, d.out.String())
	}
}

// sameAsOneMachine runs each shard's part from the campaign's references
// on this machine (--max-plans caps each part, as in the pods). The parts
// run all at once, each on its own control plane, as the pods did. It
// wants the same plans with the same verdicts.
func sameAsOneMachine(t *testing.T, bin, spec, campaign, work string, shards int) {
	t.Helper()
	var dirs, singles []string
	var wg sync.WaitGroup
	errs := make([]string, shards)
	for i := 1; i <= shards; i++ {
		dirs = append(dirs, filepath.Join(campaign, "shard-"+itoa(i)))
		single := filepath.Join(work, "single-"+itoa(i))
		singles = append(singles, single)
		cmd := exec.Command(bin, "run", spec, "--test", "buggy", "--max-plans", "1", "--shard", itoa(i)+"/"+itoa(shards), "--parallel", "1",
			"--references", filepath.Join(campaign, "references"), "-o", single)
		wg.Go(func() {
			out, err := cmd.CombinedOutput()
			if code := processExit(err); code != exitOK && code != exitFindings {
				errs[i-1] = fmt.Sprintf("single-machine run of shard %d exited %d:\n%s", i, code, out)
			}
		})
	}
	wg.Wait()
	if msg := strings.Join(slices.DeleteFunc(errs, func(e string) bool { return e == "" }), "\n"); msg != "" {
		t.Fatal(msg)
	}
	sameVerdicts(t, dirs, singles)
}

// sieveOut runs sieve and returns its stdout; a failure fails the test.
func sieveOut(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sieve %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// pullRoot pulls the worker image and extracts its file system to root,
// as a container runtime unpacks it.
func pullRoot(t *testing.T, ref, root string) {
	t.Helper()
	img, err := image.Pull(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if err := image.Extract(img, root); err != nil {
		t.Fatal(err)
	}
}

// playNode waits for the campaign's Job, then runs each index's pod as a
// local process, all at once, and sets the pods' status from their exit.
// It returns the number of shards.
func playNode(t *testing.T, cs kubernetes.Interface, root string, d *dispatcher) int {
	t.Helper()
	ctx := context.Background()
	var shards int
	for end := time.Now().Add(5 * time.Minute); shards == 0; time.Sleep(500 * time.Millisecond) {
		select {
		case err := <-d.exited:
			t.Fatalf("sieve run --on kubernetes ended before its job ran: %v\n%s", err, d.out.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("no job sieve-e2e after 5 minutes:\n%s", d.out.String())
		}
		if job, err := cs.BatchV1().Jobs("default").Get(ctx, "sieve-e2e", metav1.GetOptions{}); err == nil {
			shards = int(*job.Spec.Completions)
		}
	}
	// The Job runs its pods at once (--workers), so the node does too.
	pods := make([]*corev1.Pod, shards)
	for i := range shards {
		pods[i] = waitPod(t, cs, i)
	}
	codes := make([]int, shards)
	var wg sync.WaitGroup
	for i, pod := range pods {
		wg.Go(func() {
			var u usage
			codes[i], u = runPod(t, root, pod)
			t.Logf("shard %d/%d: exit %d, %.1f CPU-seconds of its process tree", i+1, shards, codes[i], u.cpu)
		})
	}
	wg.Wait()
	for i, pod := range pods {
		finishPod(t, cs, pod, codes[i])
	}
	return shards
}

// waitPod waits for the pod of index i.
func waitPod(t *testing.T, cs kubernetes.Interface, i int) *corev1.Pod {
	t.Helper()
	sel := "batch.kubernetes.io/job-name=sieve-e2e,batch.kubernetes.io/job-completion-index=" + itoa(i)
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
		pods, err := cs.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{LabelSelector: sel})
		if err == nil && len(pods.Items) > 0 {
			return &pods.Items[0]
		}
	}
	t.Fatalf("no pod for index %d", i)
	return nil
}

type usage struct {
	cpu    float64
	maxRSS int64
}

// runPod runs the pod's container as a local process: the image's paths
// (its working directory, PATH, the /tmp emptyDir) mapped below root and
// a directory of the test's, the environment the pod's (the job
// controller's JOB_COMPLETION_INDEX taken from its label).
func runPod(t *testing.T, root string, pod *corev1.Pod) (int, usage) {
	t.Helper()
	ct := pod.Spec.Containers[0]
	mounts := map[string]string{dispatch.Root: filepath.Join(root, dispatch.Root)}
	for _, m := range ct.VolumeMounts {
		mounts[m.MountPath] = t.TempDir()
	}
	env := podEnv(pod, ct, mounts)
	exe := lookPath(ct.Command[0], env, mounts)
	cmd := exec.Command(exe, append(ct.Command[1:], ct.Args...)...)
	cmd.Dir, cmd.Env = mapPath(ct.WorkingDir, mounts), env
	logFile := filepath.Join(t.TempDir(), "pod.log")
	f, err := os.Create(logFile)
	if err != nil {
		t.Error(err) // not Fatal: runPod runs on a goroutine of its own
		return -1, usage{}
	}
	defer f.Close()
	cmd.Stdout, cmd.Stderr = f, f
	err = cmd.Run()
	code := processExit(err)
	if code != 0 {
		b, _ := os.ReadFile(logFile)
		t.Logf("pod %s exited %d; its log:\n%s", pod.Name, code, b)
	}
	var u usage
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u = usage{cpu: tv(ru.Utime) + tv(ru.Stime), maxRSS: ru.Maxrss << 10}
	}
	return code, u
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// podEnv is the container's environment, values naming a mounted path
// mapped.
func podEnv(pod *corev1.Pod, ct corev1.Container, mounts map[string]string) []string {
	var env []string
	for _, e := range ct.Env {
		v := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			v = fieldValue(pod, e.ValueFrom.FieldRef.FieldPath)
		}
		env = append(env, e.Name+"="+mapList(v, mounts))
	}
	return env
}

// fieldValue resolves a downward-API field path of the pod's labels or
// annotations ("metadata.labels['k']"), as the kubelet does.
func fieldValue(pod *corev1.Pod, path string) string {
	if key, ok := strings.CutPrefix(path, "metadata.annotations['"); ok {
		return pod.Annotations[strings.TrimSuffix(key, "']")]
	}
	if key, ok := strings.CutPrefix(path, "metadata.labels['"); ok {
		return pod.Labels[strings.TrimSuffix(key, "']")]
	}
	return ""
}

// mapList maps each path of a colon-separated list.
func mapList(v string, mounts map[string]string) string {
	parts := strings.Split(v, ":")
	for i, p := range parts {
		parts[i] = mapPath(p, mounts)
	}
	return strings.Join(parts, ":")
}

// mapPath maps a path of the container below the mount that holds it.
func mapPath(p string, mounts map[string]string) string {
	for _, m := range slices.Sorted(maps.Keys(mounts)) {
		if p == m || strings.HasPrefix(p, m+"/") {
			return mounts[m] + strings.TrimPrefix(p, m)
		}
	}
	return p
}

// lookPath finds the command on the container's PATH.
func lookPath(name string, env []string, mounts map[string]string) string {
	for _, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range strings.Split(path, ":") {
				if p := filepath.Join(dir, name); isFile(p) {
					return p
				}
			}
		}
	}
	return mapPath(name, mounts)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// finishPod sets the pod's status as a kubelet would when its one
// container exited with code.
func finishPod(t *testing.T, cs kubernetes.Interface, pod *corev1.Pod, code int) {
	t.Helper()
	ctx := context.Background()
	p, err := cs.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := metav1.Now()
	p.Status.Phase = corev1.PodSucceeded
	reason := "Completed"
	if code != 0 {
		p.Status.Phase, reason = corev1.PodFailed, "Error"
	}
	p.Status.StartTime = &now
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{
		Name: p.Spec.Containers[0].Name, Image: p.Spec.Containers[0].Image, ImageID: p.Spec.Containers[0].Image,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(code), Reason: reason, StartedAt: now, FinishedAt: now}},
	}}
	if _, err := cs.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("setting pod %s's status: %v", p.Name, err)
	}
}

// sameVerdicts holds the shards' results, read as one run, equal to the
// single run's: the same plans, each with the same status.
func sameVerdicts(t *testing.T, shards, single []string) {
	t.Helper()
	got, err := results.LoadAll(shards)
	if err != nil {
		t.Fatal(err)
	}
	want, err := results.LoadAll(single)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := func(s *results.Summary) map[string]results.Status {
		m := map[string]results.Status{}
		for _, r := range s.Results {
			m[r.Plan] = r.Status
		}
		return m
	}
	g, w := verdicts(got), verdicts(want)
	if len(w) == 0 {
		t.Fatal("the single-machine run ran no plan")
	}
	if !maps.Equal(g, w) {
		t.Errorf("campaign verdicts %v, single-machine run %v: want the same", g, w)
	}
	t.Logf("campaign and single-machine run agree on %d plans: %v", len(w), w)
}

// processExit is the exit status of a process that Run or Wait
// returned err for.
func processExit(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

func itoa(i int) string { return strconv.Itoa(i) }
