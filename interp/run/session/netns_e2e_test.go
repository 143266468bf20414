package session_test

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sievecluster "github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
)

// TestFixedPortParallel runs a controller that binds the fixed address
// 127.0.0.1:18080 on two workers at once (as sieve run --parallel 2
// does), while the test holds that address on the host: each controller
// has its own loopback, so neither collides, and the readiness check
// reaches each one's own port.
func TestFixedPortParallel(t *testing.T) {
	if err := netns.Check(); errors.Is(err, netns.ErrUnsupported) {
		t.Skipf("no private networks here: %v", err)
	}
	host, err := net.Listen("tcp", "127.0.0.1:18080")
	if err != nil {
		t.Skipf("the host's 127.0.0.1:18080 is taken: %v", err)
	}
	defer host.Close()
	second := embedded.New(embedded.Options{Binary: embeddedtest.ControlPlane(t)})
	t.Cleanup(func() { _ = second.Stop() })
	c := cluster(t)
	if err := second.Start(context.Background()); err != nil {
		t.Skipf("no second embedded control plane: %v", err)
	}
	test := sessiontest.LoadTest(t, podopSpec, "fixedport")
	helper := []string{embeddedtest.Binary(t), "internal", "incluster"}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	outs := make([]*session.Outcome, 2)
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, b := range []sievecluster.Backend{c, second} {
		wg.Go(func() {
			w := &session.Worker{Backend: b, Helper: helper}
			outs[i], errs[i] = w.Execute(ctx, session.Run{Test: test, BaseDir: filepath.Dir(podopSpec), Dir: dirs[i],
				Header: trace.Header{Test: test.Name, Spec: podopSpec, Run: i + 1}})
		})
	}
	wg.Wait()
	for i, dir := range dirs {
		b, _ := os.ReadFile(filepath.Join(dir, results.ControllerLog))
		if !strings.Contains(string(b), "LISTEN 127.0.0.1:18080") {
			t.Errorf("run %d: the controller did not listen on 127.0.0.1:18080:\n%s", i+1, b)
		}
		if errs[i] != nil {
			t.Errorf("run %d: %v", i+1, errs[i])
		} else if outs[i].WorkloadErr != nil {
			t.Errorf("run %d: workload: %v", i+1, outs[i].WorkloadErr)
		}
	}
}

// TestStandinByName runs podop with a stand-in for Service db-client
// (testdata/fakedb): in its private network the operator reaches it by
// the short name, the .svc name and the full cluster name, and the
// stand-in's log is in the run's directory. The trace holds each call,
// an HTTP exchange relayed by sieve, before the write it led to.
func TestStandinByName(t *testing.T) {
	if err := netns.Check(); errors.Is(err, netns.ErrUnsupported) {
		t.Skipf("no private networks here: %v", err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("the stand-in testdata/fakedb needs python3")
	}
	c := cluster(t)
	r := executeSpec(t, c, podopSpec, "standin", nil)
	if r.err != nil {
		t.Fatalf("run: %v", r.err)
	}
	if r.out.WorkloadErr != nil {
		t.Errorf("workload: %v", r.out.WorkloadErr)
	}
	b, err := os.ReadFile(filepath.Join(r.dir, "standin-db-client.log"))
	if err != nil || strings.Count(string(b), "GET / from 127.") < 3 {
		t.Errorf("the stand-in's log does not show the operator's three requests (%v):\n%s", err, b)
	}
	checkStandinCalls(t, r.trace)
}

// checkStandinCalls checks that the trace holds podop's three calls to
// db-client, by its three names, each on a connection opened and closed
// in order, before podop wrote out-a with their answers.
func checkStandinCalls(t *testing.T, tr *trace.Trace) {
	t.Helper()
	var hosts []string
	var last int64
	conns := map[int64][]string{}
	for _, e := range tr.Entries {
		switch {
		case e.Type == trace.HTTP && e.Conn.Standin == "db-client":
			if x := e.HTTP; x.String() == "GET / -> 200" && x.ResponseBody == "fakedb\n" && e.Error == "" {
				hosts, last = append(hosts, x.Host), e.Seq
			}
		case e.Type == trace.Connection && e.Conn.Standin == "db-client":
			conns[e.Conn.ID] = append(conns[e.Conn.ID], e.What+" "+e.Conn.End)
		case e.Type == trace.Request && e.Verb == "create" && e.Key != nil && e.Key.Name == "out-a":
			if last == 0 || len(hosts) < 3 {
				t.Errorf("podop wrote out-a (#%d) before its calls to db-client were recorded (%v)", e.Seq, hosts)
			}
		}
	}
	if want := "db-client:5000 db-client.e2e.svc:5000 db-client.e2e.svc.cluster.local:5000"; !strings.HasPrefix(strings.Join(hosts, " "), want) {
		t.Errorf("calls to db-client recorded for hosts %v, want first %s", hosts, want)
	}
	for id, what := range conns {
		if strings.Join(what, ",") != "open ,close eof" {
			t.Errorf("connection %d recorded as %v, want open then close at eof", id, what)
		}
	}
}

// TestStandinByPod runs podop calling every other pod of its namespace
// by IP, with a stand-in for the pods labelled app=agent
// (testdata/fakeagent): each call to agent-0 and agent-1 reaches the
// stand-in, which answers with the pod it reached, the call to web-0 is
// refused, and the stand-in's log names the pod of each connection. The
// trace holds an HTTP exchange with each agent pod, naming it, and none
// with web-0.
func TestStandinByPod(t *testing.T) {
	if err := netns.Check(); errors.Is(err, netns.ErrUnsupported) {
		t.Skipf("no private networks here: %v", err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("the stand-in testdata/fakeagent needs python3")
	}
	c := cluster(t)
	r := executeSpec(t, c, podopSpec, "agents", nil)
	if r.err != nil {
		t.Fatalf("run: %v", r.err)
	}
	if r.out.WorkloadErr != nil {
		t.Errorf("workload: %v", r.out.WorkloadErr)
	}
	b, err := os.ReadFile(filepath.Join(r.dir, "standin-pods-app=agent.log"))
	for _, want := range []string{"to pod e2e/agent-0 at 10.", "to pod e2e/agent-1 at 10.", "GET / for pod e2e/agent-0", "GET / for pod e2e/agent-1"} {
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("the stand-in's log does not say %q (%v):\n%s", want, err, b)
		}
	}
	pods := map[string]int{}
	for _, e := range r.trace.Entries {
		if e.Type == trace.HTTP && e.Conn.Standin == "pods app=agent" && e.HTTP.Status == 200 {
			pods[e.Conn.Pod]++
		}
	}
	if pods["e2e/agent-0"] == 0 || pods["e2e/agent-1"] == 0 || len(pods) != 2 {
		t.Errorf("calls to pods recorded: %v, want e2e/agent-0 and e2e/agent-1", pods)
	}
}
