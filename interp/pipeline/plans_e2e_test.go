package pipeline_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// TestGeneratedPlans runs the whole pipeline: reference runs, plans
// generated from them for every pattern, and a run of each. Every plan's
// fault fires in its run: none is reported not injected or in error.
func TestGeneratedPlans(t *testing.T) {
	c := cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := outDir(t)
	env := pipeline.Env{Spec: specFile, BaseDir: filepath.Dir(specFile), Workers: []*session.Worker{{Backend: c}}, Progress: logWriter{t}}
	out, err := pipeline.Test(ctx, env, loadTest(t, "generated"), results.Layout{Root: dir}, pipeline.Options{Select: pipeline.Selection{MaxPlans: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) == 0 {
		t.Fatal("no plan ran")
	}
	pats := map[string]bool{}
	for _, r := range out.Results {
		t.Logf("%s: %s %s", r.Plan, r.Status, r.Error)
		pats[r.Pattern] = true
		if r.Status == results.NotInjected || r.Status == results.Errored {
			t.Errorf("plan %s: %s %s", r.Plan, r.Status, r.Error)
		}
		checkPhases(t, r.Plan, r.Timing, r.Seconds, results.PhaseJudge)
	}
	if len(out.ReferenceRuns) != out.References {
		t.Errorf("%d reference run timings, want %d", len(out.ReferenceRuns), out.References)
	}
	for i, tm := range out.ReferenceRuns {
		checkPhases(t, fmt.Sprintf("reference run %d", i+1), tm, tm.Seconds(), results.PhaseStop)
	}
	for _, p := range []ir.Pattern{ir.Intermediate, ir.Unobserved} {
		if !pats[string(p)] {
			t.Errorf("no %s plan ran", p)
		}
	}
	checkPruned(t, dir, out.Results)
}

// checkPhases checks a run's timing: phases from the reset to the last
// one, each right after the one before, none negative, adding up to the
// run's seconds (within 5%), and a workload step among them.
func checkPhases(t *testing.T, run string, tm results.Timing, seconds float64, last string) {
	t.Helper()
	ps := tm.Phases
	if len(ps) == 0 || ps[0].Phase != results.PhaseReset || ps[len(ps)-1].Phase != last {
		t.Errorf("%s: phases %+v, want reset first and %s last", run, ps, last)
		return
	}
	end, steps := 0.0, 0
	for _, p := range ps {
		if p.Seconds < 0 || math.Abs(p.At-end) > 0.002 {
			t.Errorf("%s: phase %s at %gs for %gs, after a phase that ended at %gs", run, p.Phase, p.At, p.Seconds, end)
		}
		end = p.At + p.Seconds
		if strings.Contains(p.What, ".sieve:") {
			steps++
		}
	}
	if sum := tm.Seconds(); math.Abs(sum-seconds) > 0.05*seconds {
		t.Errorf("%s: phases add up to %.3fs, the run took %.3fs", run, sum, seconds)
	}
	if steps == 0 {
		t.Errorf("%s: no workload step among the phases %+v", run, ps)
	}
}

// checkPruned checks the results directory's pruned.jsonl: each plan
// that ran is some candidate's plan, and the candidates whose plan did not
// run say why (here: --max-plans).
func checkPruned(t *testing.T, dir string, ran []*results.Result) {
	t.Helper()
	f, err := os.Open(results.Layout{Root: dir}.Pruned())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cands, err := plan.ReadCandidates(f)
	if err != nil {
		t.Fatal(err)
	}
	made, sampledOut := map[string]bool{}, 0
	for _, c := range cands {
		if c.Pass == "" {
			made[c.Plan] = true
		} else if c.Pass == "max-plans" {
			sampledOut++
		}
	}
	for _, r := range ran {
		if !made[r.Plan] && r.Pattern != string(planfile.User) {
			t.Errorf("plan %s ran but pruned.jsonl has no candidate kept for it", r.Plan)
		}
	}
	if sampledOut == 0 {
		t.Errorf("no candidate left out by --max-plans 3 in pruned.jsonl (%d candidates)", len(cands))
	}
}

// logWriter logs each write to the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

// outDir is SIEVE_E2E_OUT when set (to look at a run afterwards), or a
// temporary directory.
func outDir(t *testing.T) string {
	if d := os.Getenv("SIEVE_E2E_OUT"); d != "" {
		return d
	}
	return t.TempDir()
}
