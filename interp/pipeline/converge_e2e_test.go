package pipeline_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// convergeSpec holds the convergence tests' controller, resyncop, which
// repairs a half-done copy only at a resync (every 30s).
const convergeSpec = "testdata/converge.sieve"

// TestConvergeByRelist crashes resyncop between its two writes of out-a,
// so that the plan run settles with out-a's mark missing. The run makes
// the controller list again rather than wait for its 30 s resync: test
// repairs has its difference repaired within seconds, a transient; test
// keeps, whose resync does not repair it, keeps the finding, and its
// plan waits seconds for it, not the 35 s converge bound.
func TestConvergeByRelist(t *testing.T) {
	for _, tc := range []struct {
		test     string
		repaired bool
	}{{"repairs", true}, {"keeps", false}} {
		t.Run(tc.test, func(t *testing.T) {
			res, tr := runConvergePlan(t, tc.test)
			converge := phaseSeconds(res.Timing, results.PhaseConverge)
			t.Logf("converge %.1fs (%s); plan %.1fs in all", converge, res.Converge, res.Timing.Seconds())
			if converge == 0 || converge > 10 {
				t.Errorf("converge took %.1fs, want a few seconds (a relist, not the 30 s resync)", converge)
			}
			if !relisted(tr) {
				t.Errorf("no relist in the trace")
			}
			mark := "data.done"
			switch {
			case tc.repaired && (res.Status != results.Passed || !strings.HasPrefix(res.Converge, "converged after") || !hasPath(res.Transient, mark)):
				t.Errorf("status %s, converge %q, transient %v: want passed, out-a's mark repaired", res.Status, res.Converge, res.Transient)
			case !tc.repaired && (res.Status != results.Failed || !strings.HasSuffix(res.Converge, ": configmap/e2e/out-a") || !hasPath(res.Findings, mark)):
				t.Errorf("status %s, converge %q, findings %v: want failed on out-a's mark", res.Status, res.Converge, res.Findings)
			}
		})
	}
}

// runConvergePlan records test name's reference run and runs a plan
// that crashes the controller after it created out-a; it returns the
// plan's result and trace.
func runConvergePlan(t *testing.T, name string) (*results.Result, *trace.Trace) {
	t.Helper()
	c := cluster(t)
	sp, ds := load.Load(convergeSpec, load.Options{})
	if ds.HasErrors() {
		t.Fatalf("%s: %v", convergeSpec, ds)
	}
	test, d := load.SelectTest(sp, name)
	if d != nil {
		t.Fatalf("%s: %v", convergeSpec, d)
	}
	var progress bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env := pipeline.Env{Spec: convergeSpec, BaseDir: filepath.Dir(convergeSpec), Workers: []*session.Worker{{Backend: c}}, Progress: &progress}
	out := results.Layout{Root: t.TempDir()}
	refs, err := pipeline.References(ctx, env, test, out, pipeline.RefOptions{})
	if err != nil {
		t.Fatalf("references: %v\n%s", err, progress.String())
	}
	p := &planfile.Plan{Name: "crash-after-out-a", Pattern: ir.Intermediate, Actions: []*planfile.Action{
		{Kind: ir.ActCrash, Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "create", Target: ref("configmap", "out-a")}},
	}}
	res, err := pipeline.RunPlan(ctx, env, env.Workers[0], refs, p, out, pipeline.RunOptions{})
	if err != nil || res.Status == results.Errored || res.Status == results.NotInjected {
		t.Fatalf("plan: %v %s %s\n%s", err, res.Status, res.Error, progress.String())
	}
	tr, err := trace.Read(filepath.Join(out.Root, res.Dir, results.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() || testing.Verbose() {
			b, _ := os.ReadFile(filepath.Join(out.Root, res.Dir, results.ControllerLog))
			t.Logf("controller log:\n%s", b)
		}
	})
	return res, tr
}

// phaseSeconds is the time of timing's phases named phase.
func phaseSeconds(timing results.Timing, phase string) float64 {
	s := 0.0
	for _, p := range timing.Phases {
		if p.Phase == phase {
			s += p.Seconds
		}
	}
	return s
}

// relisted reports whether the trace marks a relist that ended watches.
func relisted(tr *trace.Trace) bool {
	for _, e := range tr.Entries {
		if e.Type == trace.Converge && e.What == "relist" && strings.HasPrefix(e.Message, "ended the controller's") {
			return true
		}
	}
	return false
}

// hasPath reports whether a finding of fs is on out-a at path.
func hasPath(fs []*oracle.Finding, path string) bool {
	for _, f := range fs {
		if f.Key == "configmap/e2e/out-a" && f.Path == path {
			return true
		}
	}
	return false
}
