package pipeline

import (
	"context"

	"github.com/sievetool/sieve/interp/plan"
	"github.com/sievetool/sieve/interp/planfile"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/lang/ir"
)

// Options configure Test, one field per stage. The zero value records the
// reference runs anew, runs every plan generated, once each.
type Options struct {
	References RefOptions
	Select     Selection
	Run        RunOptions
	// Planned, if not nil, is called with the plans to run and the counts
	// per pattern once they are chosen, before any runs: RunPlans will use
	// only the first max(len(set.Plans), 1) workers, and the caller may
	// stop the others.
	Planned func(set *plan.Set)
}

// TestOutcome is what Test produced.
type TestOutcome struct {
	References int
	// ReferenceRuns say where the time of the reference runs went (none
	// when they were reused).
	ReferenceRuns []report.Timing
	Counts        []plan.Count
	Plans         []*planfile.Plan
	Results       []*report.Result
}

// Test runs test t through every stage, as sieve run does: Start,
// References, Plans (writing out's pruned.jsonl), RunPlans and Finish.
// Results are written to out as each plan ends, so an interrupted run
// (ctx cancelled) keeps every finished plan; the outcome, never nil,
// then holds what finished and the error is ctx's.
func Test(ctx context.Context, env Env, t *ir.Test, out report.Layout, o Options) (*TestOutcome, error) {
	outcome := &TestOutcome{}
	run, err := Start(out, env, t, o.References, o.Select.Shard)
	if err != nil {
		return outcome, err
	}
	refs, err := References(ctx, env, t, out, o.References)
	if err != nil {
		return outcome, err
	}
	outcome.References, outcome.ReferenceRuns = len(refs.Traces), refs.Timings
	run.ReferenceRuns = refs.Timings
	set, err := Plans(env, refs.Test, refs.Traces[0], o.Select)
	if err != nil {
		return outcome, err
	}
	outcome.Plans, outcome.Counts = set.Plans, set.Counts
	if err := report.WritePruned(out, set.Candidates); err != nil {
		return outcome, err
	}
	run.Planned = len(set.Plans)
	if err := report.WriteRun(out, run); err != nil {
		return outcome, err
	}
	if o.Planned != nil {
		o.Planned(set)
	}
	outcome.Results, err = RunPlans(ctx, env, refs, set.Plans, out, o.Run)
	timings := report.Timings(outcome.Results)
	run.Phases, run.Windows = report.SumPhases(timings), report.SumWindows(timings)
	if err != nil {
		return outcome, err
	}
	return outcome, Finish(out, run)
}
