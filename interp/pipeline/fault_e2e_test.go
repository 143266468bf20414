package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
	"github.com/sievetool/sieve/lang/ir"
)

// TestComponentDeath kills each kind of component of a control plane (and
// cuts the proxy's upstream) at a random moment of a plan run, uniform
// over the duration of a fault-free run of the same plan (seeded: the log
// gives SIEVE_FAULT_SEED to replay the moments). The run must end with an
// UnhealthyError naming what failed, never as a run to judge, unless the
// fault came after the run's last look at its health; the worker's next
// run, on a new control plane, must succeed; and nothing of the failed
// planes may be left (processes and their process groups, directories,
// listening ports). It has its own control plane, since it kills it.
func TestComponentDeath(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills embedded control planes; skipped in -short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("kills components by PID and checks /proc (linux only)")
	}
	left := watchLeftovers(t)
	c := embedded.New(embedded.Options{Binary: embeddedtest.ControlPlane(t)})
	b := &relayed{Cluster: c}
	t.Cleanup(func() { _ = b.Stop() })
	if err := b.Start(context.Background()); err != nil {
		t.Skipf("no embedded control plane: %v", err)
	}
	seed := faultSeed(t)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	t.Logf("fault moments from seed %d (SIEVE_FAULT_SEED=%d replays them)", seed, seed)
	f := &faultRun{t: t, w: &session.Worker{Backend: b}, test: loadTest(t, "linger")}
	f.plan = &planfile.Plan{Name: "restart-out-a", Pattern: ir.Intermediate, Actions: []*planfile.Action{
		{Kind: ir.ActRestart, Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "create", Target: ref("configmap", "out-a")}},
	}}
	left.plane(c)
	var base faulted
	for i := range 2 { // the first run on a new plane is the slower
		r := f.exec(0, nil)
		if r.err != nil {
			t.Fatalf("the fault-free run: %v", r.err)
		}
		if i == 0 || r.took < base.took {
			base = r
		}
	}
	t.Logf("| component | moment | outcome | detected after |")
	for _, victim := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "nodesim", "upstream"} {
		t.Run(victim, func(t *testing.T) {
			f.t = t
			at := time.Duration(rng.Int64N(int64(base.took * 8 / 10)))
			dir := c.Dir()
			var pids []embedded.Process
			r := f.exec(at, func() {
				pids = c.Processes()
				left.plane(c)
				kill(b, pids, victim)
				waitUnhealthy(b)
			})
			t.Logf("| %s | %.2fs of %.1fs | %s | %s |", victim, at.Seconds(), base.took.Seconds(), r.outcome(), r.detection())
			r.judge(t, victim)
			if after := f.exec(0, nil); after.err != nil {
				t.Fatalf("the run after the failure (on a new control plane): %v", after.err)
			}
			left.plane(c)
			if dir == c.Dir() {
				t.Errorf("the control plane was not replaced (still %s)", dir)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the failed plane's directory %s is left: %v", dir, err)
			}
			for _, pr := range pids {
				if _, err := os.Stat("/proc/" + strconv.Itoa(pr.PID)); err == nil && !zombie(pr.PID) {
					t.Errorf("%s (pid %d) of the failed plane is still running", pr.Name, pr.PID)
				}
			}
		})
	}
}

// lateStop bounds the time a run takes to stop its controller and proxy
// after its last look at its health.
const lateStop = time.Second

// TestReferenceComponentDeath kills the API server during a reference
// run: the run is recorded again on a new control plane, saying why, with
// the failed attempt set aside; killed in the second attempt too, the
// reference runs fail naming it.
func TestReferenceComponentDeath(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills embedded control planes; skipped in -short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("kills components by PID (linux only)")
	}
	left := watchLeftovers(t)
	c := embedded.New(embedded.Options{Binary: embeddedtest.ControlPlane(t)})
	t.Cleanup(func() { _ = c.Stop() })
	if err := c.Start(context.Background()); err != nil {
		t.Skipf("no embedded control plane: %v", err)
	}
	test := loadTest(t, "linger")
	for _, kills := range []int{1, 2} {
		t.Run(fmt.Sprintf("killed %d time(s)", kills), func(t *testing.T) {
			out := t.TempDir()
			ref := results.Layout{Root: out}.ReferenceDir(1)
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range kills {
					killDuring(c, left, filepath.Join(ref, results.TraceFile), "kube-apiserver")
				}
			}()
			var progress bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			env := pipeline.Env{Spec: specFile, BaseDir: filepath.Dir(specFile), Workers: []*session.Worker{{Backend: c}}, Progress: &progress}
			_, err := pipeline.References(ctx, env, test, results.Layout{Root: out}, pipeline.RefOptions{})
			<-done
			t.Logf("progress:\n%s", progress.String())
			killed := "kube-apiserver exited: signal: killed"
			if !strings.Contains(progress.String(), "reference run 1: unhealthy: embedded cluster: "+killed) {
				t.Errorf("progress does not say the reference run's API server died")
			}
			if _, err := os.Stat(filepath.Join(ref, "unhealthy-1", results.TraceFile)); err != nil {
				t.Errorf("the failed attempt was not set aside: %v", err)
			}
			switch {
			case kills == 1 && err != nil:
				t.Errorf("references with one failure: %v, want them recorded on a new control plane", err)
			case kills == 2 && (err == nil || !strings.Contains(err.Error(), "reference run 1: failed twice") || !strings.Contains(err.Error(), killed)):
				t.Errorf("references with two failures: %v, want \"reference run 1: failed twice\" naming %q", err, killed)
			}
		})
	}
}

// killDuring waits until a new control plane (not the one of the last
// kill) runs and trace holds the workload's copy, then kills victim.
func killDuring(c *embedded.Cluster, left *leftovers, trace, victim string) {
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end) && left.seen(c.Dir()); {
		time.Sleep(50 * time.Millisecond)
	}
	waitFor(trace, `"out-a"`, 3*time.Minute)
	left.plane(c)
	for _, pr := range c.Processes() {
		if pr.Name == victim {
			_ = syscall.Kill(pr.PID, syscall.SIGKILL)
		}
	}
}

// faultSeed is SIEVE_FAULT_SEED if set (to replay a failure), else a new
// seed.
func faultSeed(t *testing.T) int64 {
	s := os.Getenv("SIEVE_FAULT_SEED")
	if s == "" {
		return time.Now().UnixNano()
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("SIEVE_FAULT_SEED=%q: %v", s, err)
	}
	return n
}

// kill kills victim's processes among pids (the plane's at the moment of
// the fault: an earlier fault may have replaced it), or cuts the relay
// for the proxy's upstream.
func kill(b *relayed, pids []embedded.Process, victim string) {
	if victim == "upstream" {
		b.cut()
		return
	}
	for _, pr := range pids {
		if pr.Name == victim {
			_ = syscall.Kill(pr.PID, syscall.SIGKILL)
		}
	}
}

// waitUnhealthy waits until b sees the fault (a killed process is seen
// once it is reaped), so that a fault after a run is seen by the next.
func waitUnhealthy(b *relayed) {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && b.Health() == nil; {
		time.Sleep(10 * time.Millisecond)
	}
}

// faultRun runs one plan on one worker, with a fault at a given moment.
type faultRun struct {
	t    *testing.T
	w    *session.Worker
	test *ir.Test
	plan *planfile.Plan
}

// faulted is how a run with a fault went: the run's error and duration,
// and when the fault came (fired false: the run had ended before).
type faulted struct {
	err         error
	took, at    time.Duration
	fired, late bool
}

// exec runs the plan, calling fault (if not nil) at moment at of the run,
// or just after the run if it ended before.
func (f *faultRun) exec(at time.Duration, fault func()) faulted {
	masks, err := observe.Masks(f.test)
	if err != nil {
		f.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var r faulted
	done := make(chan struct{})
	start := time.Now()
	timer := time.AfterFunc(at, func() {
		defer close(done)
		if fault != nil {
			r.at = time.Since(start)
			fault()
		}
	})
	_, r.err = f.w.Execute(ctx, session.Run{Test: sessiontest.SettleQuickly(f.test), BaseDir: filepath.Dir(specFile), Dir: f.t.TempDir(), Plan: f.plan, Masks: masks,
		Header: trace.Header{Test: f.test.Name, Plan: f.plan.Name}})
	r.took = time.Since(start)
	if timer.Stop() {
		close(done)
		if fault != nil {
			r.at, r.late = r.took, true
			fault() // the next run must still see it
		}
	}
	<-done
	r.fired = fault != nil && !r.late
	return r
}

// outcome is the table's outcome column.
func (r faulted) outcome() string {
	switch {
	case r.late:
		return fmt.Sprintf("fault after the run ended (%.1fs)", r.took.Seconds())
	case r.err == nil:
		return "run ended without error"
	}
	return "error: " + firstLine(r.err)
}

// detection is how long after the fault the run ended.
func (r faulted) detection() string {
	if !r.fired {
		return "-"
	}
	return fmt.Sprintf("%.2fs", (r.took - r.at).Seconds())
}

// judge fails the test unless the run is what a fault at its moment must
// give: an UnhealthyError naming victim; no error only if the fault came
// after the run's last look at its health, which is followed by the
// controller's and the proxy's stop (lateStop).
func (r faulted) judge(t *testing.T, victim string) {
	t.Helper()
	want := victim + " exited: signal: killed"
	if victim == "upstream" {
		want = "upstream"
	}
	var u *session.UnhealthyError
	switch {
	case r.late:
	case r.err == nil && r.took-r.at > lateStop:
		t.Errorf("run with %s killed %.2fs before its end: no error, want an UnhealthyError", victim, (r.took - r.at).Seconds())
	case r.err == nil:
	case !errors.As(r.err, &u):
		t.Errorf("run with %s killed: %v, want an UnhealthyError", victim, r.err)
	case !strings.Contains(r.err.Error(), want):
		t.Errorf("run with %s killed: %v, want it to say %q", victim, r.err, want)
	}
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// zombie reports whether a process has exited but is not reaped yet.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	return strings.Contains(s[strings.LastIndexByte(s, ')')+1:], " Z ")
}

// waitFor waits until file holds s, or the time is up.
func waitFor(file, s string, limit time.Duration) {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(file); strings.Contains(string(b), s) {
			return
		}
	}
}

// relayed is an embedded cluster reached through a TCP relay, so that the
// test can cut the proxy's upstream without killing the API server.
type relayed struct {
	*embedded.Cluster
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
	broken bool // cut
}

// Health is the cluster's, and an error once the relay is cut (the
// relay is part of this backend: a cut before the proxy connects is
// seen here).
func (r *relayed) Health() error {
	r.mu.Lock()
	broken := r.broken
	r.mu.Unlock()
	if broken {
		return errors.New("relay: upstream cut")
	}
	return r.Cluster.Health()
}

func (r *relayed) Start(ctx context.Context) error {
	r.mu.Lock()
	r.broken = false
	r.mu.Unlock()
	if err := r.Cluster.Start(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	target := strings.TrimPrefix(r.Cluster.RESTConfig().Host, "https://")
	r.mu.Lock()
	r.ln = ln
	r.mu.Unlock()
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			r.mu.Lock()
			r.conns = append(r.conns, in, out)
			r.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
	return nil
}

// RESTConfig points at the relay.
func (r *relayed) RESTConfig() *rest.Config {
	cfg := r.Cluster.RESTConfig()
	r.mu.Lock()
	defer r.mu.Unlock()
	if cfg != nil && r.ln != nil {
		cfg.Host = "https://" + r.ln.Addr().String()
	}
	return cfg
}

// cut closes the relay and every connection through it.
func (r *relayed) cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.broken = true
	if r.ln != nil {
		r.ln.Close()
	}
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
}

func (r *relayed) Stop() error {
	r.cut()
	r.mu.Lock()
	r.ln = nil
	r.mu.Unlock()
	return r.Cluster.Stop()
}
