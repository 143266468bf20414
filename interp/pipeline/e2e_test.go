package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// The end-to-end tests of this package share one embedded control plane,
// started by the first test that needs it and stopped by TestMain; each
// test resets it first. Package-level state is the point here: it is how
// the tests of one process share the cluster.
var shared struct {
	once    sync.Once
	cluster *embedded.Cluster
	err     error
}

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "internal" && os.Args[2] == "incluster" {
		helperMain(os.Args[3:])
	}
	code := m.Run()
	if shared.cluster != nil {
		_ = shared.cluster.Stop()
	}
	os.Exit(code)
}

// specFile holds the tests' controller, workloads and bad inputs.
const specFile = "testdata/relay.sieve"

// ns is the namespace of every test of specFile.
const ns = "e2e"

// cluster returns the shared cluster, reset to its state after start. A
// test that cannot get one is skipped, with the reason.
func cluster(t *testing.T) *embedded.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts an embedded control plane; skipped in -short mode")
	}
	bin := embeddedtest.ControlPlane(t)
	shared.once.Do(func() {
		c := embedded.New(embedded.Options{Binary: bin})
		if err := c.Start(context.Background()); err != nil {
			_ = c.Stop()
			shared.err = err
			return
		}
		shared.cluster = c
	})
	if shared.err != nil {
		t.Skipf("no embedded control plane: %v", shared.err)
	}
	if err := shared.cluster.Reset(context.Background()); err != nil {
		t.Fatalf("reset: %v", err)
	}
	return shared.cluster
}

// loadTest compiles test name of specFile.
func loadTest(t *testing.T, name string) *ir.Test { return loadSpecTest(t, specFile, name) }

// loadSpecTest compiles test name of spec file.
func loadSpecTest(t *testing.T, file, name string) *ir.Test {
	t.Helper()
	spec, ds := load.Load(file, load.Options{})
	if ds.HasErrors() {
		t.Fatalf("%s: %v", file, ds)
	}
	test, d := load.SelectTest(spec, name)
	if d != nil {
		t.Fatalf("%s: %v", file, d)
	}
	return test
}

// run is one executed run: what Execute returned and what it left in
// its directory.
type run struct {
	test  *ir.Test
	dir   string
	out   *session.Outcome
	err   error
	trace *trace.Trace
}

// settleQuickly is test t with a settle window of 500ms, so that a run
// the test makes directly ends sooner.
func settleQuickly(t *ir.Test) *ir.Test {
	c := *t
	d := ir.Duration(500 * time.Millisecond)
	c.Settle = &d
	return &c
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
		Test: settleQuickly(r.test), BaseDir: filepath.Dir(specFile), Dir: r.dir, Plan: p, Masks: masks,
		Header: trace.Header{Test: name, Spec: specFile, Plan: planName(p)},
		Errors: func(err error) { t.Errorf("injected action failed: %v", err) },
	})
	if ctx.Err() != nil {
		t.Fatalf("the run did not end within 3 minutes")
	}
	tr, err := trace.Read(filepath.Join(r.dir, report.TraceFile))
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
	cs, err := kubernetes.NewForConfig(shared.cluster.RESTConfig())
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

// helperMain makes the test binary the controller's helper, which workers
// start by default (this executable's "internal incluster"): args are
// [--dir DIR] [--resolv FILE] -- ARGV...
func helperMain(args []string) {
	var m controller.Mounts
	for len(args) > 1 && args[0] != "--" {
		switch args[0] {
		case "--dir":
			m.ServiceAccount = args[1]
		case "--resolv":
			m.ResolvConf = args[1]
		}
		args = args[2:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	err := controller.HelperMain(m, args)
	fmt.Fprintln(os.Stderr, err)
	os.Exit(3)
}
