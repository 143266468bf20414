package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
	"github.com/sievetool/sieve/lang/ir"
)

// shared is the embedded control plane the tests of this package share;
// each test resets it first.
var shared sessiontest.Shared

func TestMain(m *testing.M) { sessiontest.Main(m, &shared) }

// specFile holds the tests' controller, workloads and bad inputs.
const specFile = "testdata/relay.sieve"

// ns is the namespace of every test of specFile.
const ns = "e2e"

// cluster returns the shared cluster, reset to its state after start
// (sessiontest.Shared.Cluster).
func cluster(t *testing.T) *embedded.Cluster { return shared.Cluster(t) }

// loadTest compiles test name of specFile.
func loadTest(t *testing.T, name string) *ir.Test { return sessiontest.LoadTest(t, specFile, name) }

// run is one executed run: what Execute returned and what it left in
// its directory.
type run struct {
	test  *ir.Test
	dir   string
	out   *session.Outcome
	err   error
	trace *trace.Trace
}

// execute runs test name of specFile (with plan p, if not nil) on the
// shared cluster and reads the trace it wrote.
func execute(t *testing.T, name string, p *planfile.Plan) *run {
	t.Helper()
	c := cluster(t)
	r := &run{test: loadTest(t, name), dir: t.TempDir()}
	masks, err := observe.Masks(r.test)
	if err != nil {
		t.Fatal(err)
	}
	w := &session.Worker{Backend: c}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r.out, r.err = w.Execute(ctx, session.Run{
		Test: sessiontest.SettleQuickly(r.test), BaseDir: filepath.Dir(specFile), Dir: r.dir, Plan: p, Masks: masks,
		Header: trace.Header{Test: name, Spec: specFile, Plan: planName(p)},
		Errors: func(err error) { t.Errorf("injected action failed: %v", err) },
	})
	if ctx.Err() != nil {
		t.Fatalf("the run did not end within 3 minutes")
	}
	tr, err := trace.Read(filepath.Join(r.dir, results.TraceFile))
	if err != nil {
		t.Fatalf("the run left no readable trace: %v", err)
	}
	r.trace = tr
	t.Cleanup(func() {
		if t.Failed() || testing.Verbose() {
			b, _ := os.ReadFile(filepath.Join(r.dir, "controller.log"))
			t.Logf("controller log:\n%s\nlifecycle: %v", b, r.lifecycle())
		}
	})
	return r
}

func planName(p *planfile.Plan) string {
	if p == nil {
		return ""
	}
	return p.Name
}

// mustSucceed fails the test unless the run and its workload succeeded.
func (r *run) mustSucceed(t *testing.T) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("run: %v", r.err)
	}
	if r.out.WorkloadErr != nil {
		t.Fatalf("workload: %v", r.out.WorkloadErr)
	}
}

// fired reports, for every plan action, whether it fired.
func (r *run) fired() []bool {
	var out []bool
	for _, s := range r.out.Status {
		out = append(out, s.Fired)
	}
	return out
}

// lives splits the controller's log into the output of each process it
// ran, at the runner's "--- sieve: starting" lines.
func (r *run) lives(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "controller.log"))
	if err != nil {
		t.Fatalf("the run left no controller log: %v", err)
	}
	var out [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "--- sieve: starting") {
			out = append(out, nil)
			continue
		}
		if len(out) > 0 && line != "" {
			out[len(out)-1] = append(out[len(out)-1], line)
		}
	}
	return out
}

// events are the relay's EVENT lines about object name, as "TYPE RV v=V".
func events(life []string, name string) []string {
	var out []string
	for _, l := range life {
		f := strings.Fields(l)
		if len(f) == 5 && f[0] == "EVENT" && f[2] == name {
			out = append(out, f[1]+" "+f[3]+" "+f[4])
		}
	}
	return out
}

// entries are the trace's entries of a type (and, if key is not empty,
// about that object).
func (r *run) entries(typ trace.Type, key string) []trace.Entry {
	var out []trace.Entry
	for _, e := range r.trace.Entries {
		if e.Type == typ && (key == "" || e.Key != nil && e.Key.String() == key) {
			out = append(out, e)
		}
	}
	return out
}

// lifecycle is the sequence of controller lifecycle events and fired
// faults, as "controller:start", "fault:crash", ...
func (r *run) lifecycle() []string {
	var out []string
	for _, e := range r.trace.Entries {
		if e.Type == trace.Controller || e.Type == trace.Fault {
			out = append(out, string(e.Type)+":"+e.What)
		}
	}
	return out
}

// index is the position of s in list, or -1.
func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// rv orders resourceVersions (the embedded etcd's are integers).
func rv(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q: %v", s, err)
	}
	return n
}

// dataV is data.v of a ConfigMap in the cluster ("" when it is gone).
func dataV(t *testing.T, name string) string {
	t.Helper()
	cs, err := kubernetes.NewForConfig(shared.Current().RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	return cm.Data["v"]
}

func ref(kind, name string) *ir.Ref { return &ir.Ref{Kind: kind, Namespace: ns, Name: name} }
