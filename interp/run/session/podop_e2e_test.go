package session_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/analysis/observe"
	sievecluster "github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// podopSpec holds the in-cluster operator's tests.
const podopSpec = "testdata/podop.sieve"

// TestLeaderElectionInCluster runs podop, an operator that becomes leader
// as operator-lib's leader.Become does, unchanged in in-cluster mode:
// fault-free, and with a restart after its first copy. Each start finds
// its own Pod (a new one, Running and Ready, with the spec's labels and
// service account) and leads; after the restart the old lock goes with
// the old pod, and the new start leads again.
func TestLeaderElectionInCluster(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("in-cluster emulation needs root (mount namespaces)")
	}
	c := cluster(t)
	admin, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Run("fault-free", func(t *testing.T) {
		r := executeSpec(t, c, podopSpec, "leader", nil)
		if r.err != nil {
			t.Fatalf("run: %v", r.err)
		}
		if n := strings.Count(r.log(), "LEADER\n"); n != 1 {
			t.Errorf("LEADER logged %d times, want 1", n)
		}
		checkPod(t, admin, r)
	})
	t.Run("restart", func(t *testing.T) {
		cluster(t)
		p := &planfile.Plan{Name: "restart-out-a", Pattern: ir.Intermediate, Actions: []*planfile.Action{
			{Kind: ir.ActRestart, Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "create", Target: ref("configmap", "out-a")}},
		}}
		r := executeSpec(t, c, podopSpec, "leader", p)
		if r.err != nil {
			t.Fatalf("run: %v", r.err)
		}
		if n := strings.Count(r.log(), "LEADER\n"); n != 2 {
			t.Errorf("LEADER logged %d times, want 2 (before and after the restart)", n)
		}
		if uids := podUIDs(r.trace, "podop-sieve"); len(uids) != 2 {
			t.Errorf("pod podop-sieve created with UIDs %v, want 2 (one per start)", uids)
		}
		checkPod(t, admin, r)
	})
}

// checkPod checks the emulated pod as it stands at the end of run r.
func checkPod(t *testing.T, admin kubernetes.Interface, r *run) {
	t.Helper()
	pod, err := admin.CoreV1().Pods(ns).Get(context.Background(), "podop-sieve", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the emulated pod: %v", err)
	}
	ready := false
	for _, c := range pod.Status.Conditions {
		ready = ready || (c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue)
	}
	if pod.Status.Phase != corev1.PodRunning || !ready || pod.Labels["name"] != "podop" || pod.Spec.ServiceAccountName != "podop" || len(pod.OwnerReferences) != 0 {
		t.Errorf("emulated pod: phase %s, ready %v, labels %v, service account %q, owners %v", pod.Status.Phase, ready, pod.Labels, pod.Spec.ServiceAccountName, pod.OwnerReferences)
	}
	lock, err := admin.CoreV1().ConfigMaps(ns).Get(context.Background(), "podop-lock", metav1.GetOptions{})
	if err != nil || len(lock.OwnerReferences) != 1 || lock.OwnerReferences[0].UID != pod.UID {
		t.Errorf("the lock is not owned by the current pod %s: %v %+v", pod.UID, err, lock)
	}
	if !strings.Contains(r.log(), "sieve: starting") {
		t.Errorf("no start in the log")
	}
}

// podUIDs are the UIDs pod name was created with, in order.
func podUIDs(tr *trace.Trace, name string) []string {
	var uids []string
	for _, e := range tr.Entries {
		if e.Type == trace.History && e.Event == "ADDED" && e.Key != nil && e.Key.Kind == "pod" && e.Key.Name == name {
			var obj corev1.Pod
			if err := json.Unmarshal(e.Object, &obj); err == nil {
				uids = append(uids, string(obj.UID))
			}
		}
	}
	return uids
}

// executeSpec runs test name of spec (with plan p, if not nil) on cluster
// c and reads the trace it wrote.
func executeSpec(t *testing.T, c sievecluster.Backend, spec, name string, p *planfile.Plan) *run {
	t.Helper()
	sp, ds := load.Load(spec, load.Options{})
	if ds.HasErrors() {
		t.Fatalf("%s: %v", spec, ds)
	}
	test, d := load.SelectTest(sp, name)
	if d != nil {
		t.Fatalf("%s: %v", spec, d)
	}
	r := &run{test: test, dir: t.TempDir()}
	masks, err := observe.Masks(test)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	w := &session.Worker{Backend: c, Helper: []string{embeddedtest.Binary(t), "internal", "incluster"}}
	r.out, r.err = w.Execute(ctx, session.Run{
		Test: sessiontest.SettleQuickly(test), BaseDir: filepath.Dir(spec), Dir: r.dir, Plan: p, Masks: masks,
		Header: trace.Header{Test: name, Spec: spec, Plan: planName(p)},
		Errors: func(err error) { t.Errorf("injected action failed: %v", err) },
	})
	tr, err := trace.Read(filepath.Join(r.dir, results.TraceFile))
	if err != nil {
		t.Fatalf("the run left no readable trace: %v", err)
	}
	r.trace = tr
	t.Cleanup(func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("controller log:\n%s", r.log())
		}
	})
	return r
}

func (r *run) log() string {
	b, _ := os.ReadFile(filepath.Join(r.dir, results.ControllerLog))
	return string(b)
}
