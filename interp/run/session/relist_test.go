package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// TestConvergeNoWatch: a run whose controller has no watch open through
// the proxy cannot make it list again; the trace says so, and the run
// waits for the controller's own resync, up to the converge bound, not
// the short recheck.
func TestConvergeNoWatch(t *testing.T) {
	o, settled, _ := convergeFixture(t, "converge-persists")
	dir := t.TempDir()
	px, err := proxy.Start(proxy.Options{Upstream: &rest.Config{Host: "https://127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer px.Close()
	ctx := context.Background()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	runner, err := controller.New(ctx, controller.Options{RunDir: dir, Access: controller.Access{Kubeconfig: kubeconfig},
		Controller: &ir.Controller{Name: "idle", Command: []string{"sleep", "60"}, Namespaces: []string{"default"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Stop()
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "trace.jsonl")
	tw, err := trace.Create(path, settled.Header)
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	for _, e := range settled.Entries {
		if _, err := tw.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	s := &session{tracePath: path, runner: runner, px: px, tw: tw, clock: newClock(results.PhaseSettle, time.Now),
		r: Run{Converge: &Converge{Oracle: o, Bound: 1500 * time.Millisecond, Recheck: 200 * time.Millisecond}}}
	start := time.Now()
	s.converge(ctx, 10*time.Millisecond, time.Minute)
	took := time.Since(start)
	tw.Close()
	tr, err := trace.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Entries {
		if e.Type == trace.Converge {
			got = append(got, e.What+": "+e.Message)
		}
	}
	if len(got) != 3 || !strings.Contains(got[1], "relist: the controller has no watch open through the proxy") || endAfter(got[2]) < 1500*time.Millisecond {
		t.Errorf("converge entries:\n%s\nwant start, relist saying no watch is open, end after the 1.5s bound", strings.Join(got, "\n"))
	}
	if took < 1500*time.Millisecond {
		t.Errorf("the run waited %s, want the converge bound (1.5s), not the recheck", took)
	}
}

// endAfter is the time a converge end entry ("end: still differing after
// 1.6s: ...") says it waited, or 0. A loaded machine ends the wait a
// little after the bound, never before.
func endAfter(entry string) time.Duration {
	rest, ok := strings.CutPrefix(entry, "end: still differing after ")
	if !ok {
		return 0
	}
	d, _ := time.ParseDuration(strings.SplitN(rest, ":", 2)[0])
	return d
}
