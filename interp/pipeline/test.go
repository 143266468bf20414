package pipeline

import (
	"context"
	"time"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
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
	// ReusePrefix runs the plans of an explored operation from a
	// checkpoint after the operation before it, judged against suffix
	// references (Suffixes), where that operation has MinSuffixPlans or
	// more. If false, every plan runs from the start.
	ReusePrefix bool
}

// TestOutcome is what Test produced.
type TestOutcome struct {
	References int
	// ReferenceRuns say where the time of the reference runs went (none
	// when they were reused).
	ReferenceRuns []results.Timing
	Counts        []plan.Count
	Plans         []*planfile.Plan
	Results       []*results.Result
	// Explored are the results of the Explore stage (none for a test
	// that explores nothing).
	Explored []*results.Result
	// Suffix says what the suffix stage did and saved (nil without
	// Options.ReusePrefix).
	Suffix *SuffixCounts
}

// Prepared is a test run up to its plans: the results directory started,
// the reference runs recorded and the plans chosen. Its plans are run with
// RunPlans or RunPlan, and the run is ended with Finish(out, Run).
type Prepared struct {
	// Run is the run's summary.json, which Finish completes.
	Run  *results.TestRun
	Refs *Refs
	// Set holds the plans to run (Set.Plans) and what became of every
	// candidate.
	Set *plan.Set
}

// Prepare runs the stages of test t before its plans, as sieve run does:
// Start, References and Plans, writing out's pruned.jsonl and the number
// of plans (and of explored operations) into its summary.json. The
// Prepared, never nil, has a nil Refs or Set when the stage that makes it
// failed.
func Prepare(ctx context.Context, env Env, t *ir.Test, out results.Layout, o Options) (*Prepared, error) {
	p := &Prepared{}
	var err error
	if p.Run, err = Start(out, env, t, o.References, o.Select.Shard); err != nil {
		return p, err
	}
	if p.Refs, err = References(ctx, env, t, out, o.References); err != nil {
		return p, err
	}
	p.Run.ReferenceRuns = p.Refs.Timings
	set, err := Plans(env, p.Refs.Test, p.Refs.Traces, o.Select)
	if err != nil {
		return p, err
	}
	p.Set = set
	if err := results.WritePruned(out, set.Candidates); err != nil {
		return p, err
	}
	p.Run.Planned = len(set.Plans)
	if p.Run.Explored = exploredCounts(p.Refs.Test, p.Refs.Traces[0], set.Operations); p.Run.Explored != nil {
		env.progressf("explored: %s", p.Run.Explored)
	}
	return p, results.WriteRun(out, p.Run)
}

// Test runs test t through every stage, as sieve run does: Prepare,
// Explore (its results in the shard, with no --pattern or explore's),
// RunPlans and Finish. Results are
// written to out as each plan ends, so an interrupted run (ctx cancelled)
// keeps every finished plan; the outcome, never nil, then holds what
// finished and the error is ctx's.
func Test(ctx context.Context, env Env, t *ir.Test, out results.Layout, o Options) (*TestOutcome, error) {
	outcome := &TestOutcome{}
	p, err := Prepare(ctx, env, t, out, o)
	if p.Refs != nil {
		outcome.References, outcome.ReferenceRuns = len(p.Refs.Traces), p.Refs.Timings
	}
	if p.Set != nil {
		outcome.Plans, outcome.Counts = p.Set.Plans, p.Set.Counts
	}
	if err != nil {
		return outcome, err
	}
	if o.Select.Explores() {
		if outcome.Explored, err = Explore(ctx, env, p.Refs, out, o.Select.Shard); err != nil {
			return outcome, err
		}
	}
	var suffix func() *SuffixCounts
	if o.ReusePrefix {
		if suffix, err = reusePrefix(ctx, env, p, out, o.Select); err != nil {
			return outcome, err
		}
		outcome.Plans = p.Set.Plans
	}
	if o.Planned != nil {
		o.Planned(p.Set)
	}
	outcome.Results, err = RunPlans(ctx, env, p.Refs, p.Set.Plans, out, o.Run)
	if suffix != nil {
		outcome.Suffix = suffix()
	}
	timings := results.Timings(outcome.Results)
	p.Run.Phases, p.Run.Windows = results.SumPhases(timings), results.SumWindows(timings)
	if err != nil {
		return outcome, err
	}
	return outcome, Finish(out, p.Run)
}

// reusePrefix runs the suffix stage on p, replacing its plans, and
// writes their number to out's summary.json. The function it returns
// counts what the stage did, once the plans have run.
func reusePrefix(ctx context.Context, env Env, p *Prepared, out results.Layout, sel Selection) (func() *SuffixCounts, error) {
	start := time.Now()
	before := len(p.Set.Plans)
	plans, err := Suffixes(ctx, env, p.Refs, p.Set, out, sel)
	if err != nil {
		return nil, err
	}
	seconds := time.Since(start).Seconds()
	p.Set.Plans = plans
	p.Run.Planned = len(plans)
	if err := results.WriteRun(out, p.Run); err != nil {
		return nil, err
	}
	replaced := before
	for _, pl := range plans {
		if pl.Checkpoint == nil {
			replaced--
		}
	}
	return func() *SuffixCounts { return suffixCounts(p.Refs, plans, replaced, seconds) }, nil
}
