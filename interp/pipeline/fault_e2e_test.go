package pipeline_test

import (
	"context"
	"errors"
	"io"
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

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/plan"
	"github.com/sievetool/sieve/interp/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestComponentDeath kills each kind of component of a control plane (and
// cuts the proxy's upstream) while a plan runs, once the workload's copy
// is done: the run must end with an UnhealthyError naming what failed,
// never as a run to judge; the worker's next run, on a new control plane,
// must succeed; and nothing of the failed plane may be left (processes,
// directory). It has its own control plane, since it kills it.
func TestComponentDeath(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills embedded control planes; skipped in -short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("kills components by PID and checks /proc (linux only)")
	}
	c := embedded.New(embedded.Options{Binary: embeddedtest.ControlPlane(t)})
	b := &relayed{Cluster: c}
	t.Cleanup(func() { _ = b.Stop() })
	if err := b.Start(context.Background()); err != nil {
		t.Skipf("no embedded control plane: %v", err)
	}
	w := &pipeline.Worker{Backend: b}
	test := loadTest(t, "linger")
	p := &plan.Plan{Name: "restart-out-a", Pattern: ir.Intermediate, Actions: []*plan.Action{
		{Kind: ir.ActRestart, Trigger: &plan.Trigger{Op: ir.TrigWrite, On: "create", Target: ref("configmap", "out-a")}},
	}}
	masks, err := plan.Masks(test)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(dir string, during func()) error {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		done := make(chan struct{})
		if during != nil {
			go func() {
				defer close(done)
				waitFor(filepath.Join(dir, "trace.jsonl"), `"out-a"`, time.Minute)
				during()
			}()
		} else {
			close(done)
		}
		_, err := w.Execute(ctx, pipeline.Run{Test: test, BaseDir: filepath.Dir(specFile), Dir: dir, Plan: p, Masks: masks,
			Settle: 500 * time.Millisecond, Header: trace.Header{Test: test.Name, Plan: p.Name}})
		<-done
		return err
	}
	for _, victim := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "nodesim", "upstream"} {
		t.Run(victim, func(t *testing.T) {
			dir, pids := c.Dir(), c.Processes()
			var killed time.Time
			err := exec(t.TempDir(), func() {
				killed = time.Now()
				if victim == "upstream" {
					b.cut()
					return
				}
				for _, pr := range pids {
					if pr.Name == victim {
						_ = syscall.Kill(pr.PID, syscall.SIGKILL)
					}
				}
			})
			detected := time.Since(killed)
			var u *pipeline.UnhealthyError
			want := victim + " exited: signal: killed"
			if victim == "upstream" {
				want = "proxy: upstream"
			}
			switch {
			case killed.IsZero():
				t.Fatalf("the run ended (%v) before the workload's copy was in the trace", err)
			case !errors.As(err, &u):
				t.Fatalf("run with %s killed: %v, want an UnhealthyError", victim, err)
			case !strings.Contains(err.Error(), want):
				t.Errorf("run with %s killed: %v, want it to say %q", victim, err, want)
			}
			t.Logf("| %s | error: %s | ended %.1fs after the fault |", victim, firstLine(err), detected.Seconds())
			if err := exec(t.TempDir(), nil); err != nil {
				t.Fatalf("the run after the failure (on a new control plane): %v", err)
			}
			if dir == c.Dir() {
				t.Errorf("the control plane was not replaced (still %s)", dir)
			}
			if _, err := os.Stat(dir); victim != "upstream" && !errors.Is(err, os.ErrNotExist) {
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
	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
}

func (r *relayed) Start(ctx context.Context) error {
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
