package sievetest

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/interp/run/session"
)

// runPlans runs each plan of p as a subtest of t named by the plan, on
// env's workers in parallel (t.Run is called from a goroutine per
// worker), and returns when every plan ended. A plan's name is lowercase
// letters, digits, dots and dashes, so the subtest's name is the plan's as
// sieve prints it, and -run selects plans by it. In -short mode every plan
// is skipped.
func runPlans(t *testing.T, env pipeline.Env, p *pipeline.Prepared, out results.Layout, o pipeline.RunOptions) {
	plans := p.Set.Plans
	if len(plans) == 0 {
		t.Logf("sievetest: test %s: no plans to run", p.Refs.Test.Name)
		return
	}
	if testing.Short() {
		for _, pl := range plans {
			t.Run(pl.Name, func(t *testing.T) { t.Skip("-short: the reference runs only") })
		}
		return
	}
	queue := make(chan *planfile.Plan)
	var wg sync.WaitGroup
	for _, w := range env.Workers[:min(len(plans), len(env.Workers))] {
		wg.Go(func() {
			for pl := range queue {
				t.Run(pl.Name, func(t *testing.T) { runPlan(t, env, w, p.Refs, pl, out, o) })
			}
		})
	}
	for _, pl := range plans {
		queue <- pl
	}
	close(queue)
	wg.Wait()
}

// runExplore runs the Explore stage of a test whose workloads explore
// (explore steps), as sieve run does before the plans: the first
// reference run judged by the explored-run oracles and the differential
// runs. Each of its results is a subtest named as sieve names it
// (pipeline.ExploredPlan, pipeline.DirectPlan, DirectPlan-K) and judged as
// a plan's. In -short mode they are skipped.
func runExplore(t *testing.T, env pipeline.Env, p *pipeline.Prepared, out results.Layout) {
	if generated, _ := pipeline.ExploredCounts(p.Refs.Test, p.Refs.Traces[0]); generated == 0 {
		return
	}
	if testing.Short() {
		for _, name := range []string{pipeline.ExploredPlan, pipeline.DirectPlan} {
			t.Run(name, func(t *testing.T) { t.Skip("-short: the reference runs only") })
		}
		return
	}
	rs, err := pipeline.Explore(t.Context(), env, p.Refs, out, pipeline.Shard{})
	for _, r := range rs {
		t.Run(r.Plan, func(t *testing.T) { verdict(t, r) })
	}
	if err != nil {
		t.Errorf("sievetest: test %s: the explored run: %v", p.Refs.Test.Name, err)
	}
}

// runPlan runs plan pl on worker w and turns its result into the
// subtest's verdict.
func runPlan(t *testing.T, env pipeline.Env, w *session.Worker, refs *pipeline.Refs, pl *planfile.Plan, out results.Layout, o pipeline.RunOptions) {
	r, err := pipeline.RunPlan(t.Context(), env, w, refs, pl, out, o)
	if err != nil {
		t.Fatalf("sievetest: plan %s: %v", pl.Name, err)
	}
	verdict(t, r)
}

// verdict fails, skips or passes a plan's subtest by its result.
func verdict(t *testing.T, r *results.Result) {
	for _, f := range r.Unconfirmed {
		t.Logf("unconfirmed (no rerun found it again, not counted): %s", f.Message)
	}
	if r.Unreleased != nil {
		t.Logf("the release never came (the hold was lifted when the workload was over): %s", r.Unreleased)
	}
	if r.Retried != "" {
		t.Logf("ran again on a new control plane after: %s", firstLine(r.Retried))
	}
	switch r.Status {
	case results.Failed:
		for _, f := range r.Findings {
			t.Error(findingText(f))
		}
		t.Log(rerunLine(t))
	case results.NotInjected:
		t.Skipf("not injected, nothing was tested: %s%s", r.NotFired, untested(r))
	case results.Errored:
		t.Errorf("error: the plan's run could not be done, so nothing was tested: %s", r.Error)
	default:
		t.Logf("%s (%.1fs)", r.Status, r.Seconds)
	}
}

// findingText says what a finding is: the check, object and field, what
// happened, the values in the reference and in the test run, where in the
// spec, and the command that reproduces it.
func findingText(f *oracle.Finding) string {
	subject := f.Key
	if subject == "" {
		subject = f.Invariant
	}
	if f.Path != "" {
		subject += " " + f.Path
	}
	lines := []string{fmt.Sprintf("finding (%s): %s %s", f.Severity, f.Check, subject), "    " + f.Message}
	if f.Check == oracle.CheckField {
		lines = append(lines, "    reference: "+report.ShowRaw(f.Reference), "    test run:  "+report.ShowRaw(f.Value))
	}
	if f.Src != "" {
		lines = append(lines, "    at "+relPath(f.Src))
	}
	if f.Reproduce != "" {
		lines = append(lines, "    reproduce: "+f.Reproduce)
	}
	return strings.Join(lines, "\n")
}

// rerunLine is the go test command that runs this plan's subtest alone.
func rerunLine(t *testing.T) string {
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return "run this plan alone: go test -run '" + strings.Join(parts, "/") + "'"
}

// untested says how many findings a not-injected run saw all the same.
func untested(r *results.Result) string {
	if len(r.Untested) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d findings seen all the same, not counted)", len(r.Untested))
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
