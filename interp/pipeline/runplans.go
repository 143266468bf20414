package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// RunOptions configure RunPlans and RunPlan. The zero value runs each
// plan once.
type RunOptions struct {
	// Confirm is how many times a failed plan is run again, at most, to
	// confirm its findings: a finding no rerun finds again is reported
	// as unconfirmed and not counted. If 0, there are no reruns and every
	// finding counts.
	Confirm int
	// OnResult, if not nil, is called after each plan's result is
	// written.
	OnResult func(*results.Result)
}

// RunPlans is the third stage: it runs the plans, each with its fault
// injected, on the first min(len(plans), len(env.Workers)) workers (at
// least one) in parallel, judges each run against refs and writes each
// result to out as the plan ends, so an interrupted run (ctx cancelled)
// keeps every finished plan. It returns the results, sorted by plan name:
// on an interruption, those that finished, and ctx's error.
func RunPlans(ctx context.Context, env Env, refs *Refs, plans []*planfile.Plan, out results.Layout, opts RunOptions) ([]*results.Result, error) {
	env.shareNotes()
	env.Workers = env.Workers[:min(max(len(plans), 1), len(env.Workers))]
	env.progressf("%d plans to run on %d worker(s)", len(plans), len(env.Workers))
	return newPlanRunner(env, refs, out, opts).runPlans(ctx, plans)
}

// RunPlan runs one plan on worker w, as RunPlans does, and returns its
// result. A run that could not be done is a result with status error, not
// an error; the error is ctx's when it ended, or one writing to out.
func RunPlan(ctx context.Context, env Env, w *session.Worker, refs *Refs, p *planfile.Plan, out results.Layout, opts RunOptions) (*results.Result, error) {
	env.shareNotes()
	return newPlanRunner(env, refs, out, opts).runPlan(ctx, w, p)
}

// planRunner is what the runs of a test's plans share.
type planRunner struct {
	env  Env
	refs *Refs
	out  results.Layout
	opts RunOptions
	// recheck and timer are Converge.Recheck and Converge.Timer for every
	// plan from the start: learned once from the reference runs.
	recheck time.Duration
	timer   plan.Timer
}

func newPlanRunner(env Env, refs *Refs, out results.Layout, opts RunOptions) *planRunner {
	window, _ := refs.Test.SettleBounds()
	pr := &planRunner{env: env, refs: refs, out: out, opts: opts}
	pr.recheck, pr.timer = session.RecheckBound(refs.Traces, refs.Masks.Plan, window)
	return pr
}

// basis is what a plan's run starts from and is judged against.
type basis struct {
	refs    *Refs
	from    cluster.Checkpoint // nil: the start
	recheck time.Duration
	timer   plan.Timer
}

// basis returns plan p's basis on worker w: the test's reference runs,
// or for a plan from a checkpoint its suffix references and w's
// checkpoint, taken first if w holds none (Suffix.checkpoint).
func (pr *planRunner) basis(ctx context.Context, w *session.Worker, p *planfile.Plan) (basis, error) {
	if p.Checkpoint == nil {
		return basis{refs: pr.refs, recheck: pr.recheck, timer: pr.timer}, nil
	}
	s := pr.refs.Suffixes[p.Checkpoint.After]
	switch {
	case s == nil:
		return basis{}, fmt.Errorf("plan %s runs from the checkpoint after explored operation %d, and this run recorded no suffix references there (sieve run --reuse-prefix does)", p.Name, p.Checkpoint.After)
	case s.Err != nil:
		return basis{}, fmt.Errorf("the checkpoint after explored operation %d: %w", s.After, s.Err)
	}
	cp, err := s.checkpoint(ctx, pr.env, w)
	if err != nil {
		return basis{}, err
	}
	s.count(0, 1)
	return basis{refs: s.Refs, from: cp, recheck: s.recheck, timer: s.timer}, nil
}

// forget drops worker w's checkpoints: its control plane failed, and is
// replaced before its next run.
func (pr *planRunner) forget(w *session.Worker) {
	for _, s := range pr.refs.Suffixes {
		s.forget(w)
	}
}

// runPlans runs the plans on the workers and writes each result.
func (pr *planRunner) runPlans(ctx context.Context, plans []*planfile.Plan) ([]*results.Result, error) {
	queue := make(chan *planfile.Plan)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var errs []error
	var results []*results.Result
	// A plan that fails to run or to be written (ctx ended, a full
	// disk) stops the run: later plans would fail the same way.
	stop := make(chan struct{})
	var stopOnce sync.Once
	for _, w := range pr.env.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range queue {
				res, err := pr.runPlan(ctx, w, p)
				mu.Lock()
				if err != nil {
					errs = append(errs, withDiskFull(err))
					stopOnce.Do(func() { close(stop) })
				} else {
					results = append(results, res)
				}
				mu.Unlock()
				if err == nil && pr.opts.OnResult != nil {
					pr.opts.OnResult(res)
				}
			}
		}()
	}
send:
	for _, p := range plans {
		select {
		case queue <- p:
		case <-ctx.Done():
			break send
		case <-stop:
			break send
		}
	}
	close(queue)
	wg.Wait()
	sort.Slice(results, func(i, j int) bool { return results[i].Plan < results[j].Plan })
	if ctx.Err() != nil {
		return results, ctx.Err()
	}
	return results, joinOnce(errs)
}

// runPlan runs one plan and writes its result; a failed plan is then run
// again to confirm its findings (RunOptions.Confirm). A run that could not be
// done is a result with status error, not an error, unless ctx ended.
func (pr *planRunner) runPlan(ctx context.Context, w *session.Worker, p *planfile.Plan) (*results.Result, error) {
	dir, err := pr.out.WritePlan(p)
	if err != nil {
		return nil, err
	}
	result, unhealthy, err := pr.judgeRun(ctx, w, p, dir, results.PlanRel(p.Name))
	if err == nil && unhealthy {
		result, err = pr.retry(ctx, w, p, dir, result)
	}
	if err != nil {
		return nil, err // interrupted: the plan did not finish
	}
	if err := results.WriteResult(pr.out, result); err != nil {
		return nil, err
	}
	if result.Status == results.Failed && pr.opts.Confirm > 0 {
		// The first verdict is on disk: an interrupted rerun leaves it.
		pr.confirm(ctx, w, p, result)
		if len(result.Reruns) > 0 {
			if err := results.WriteResult(pr.out, result); err != nil {
				return nil, err
			}
		}
	}
	pr.env.progressf("plan %s: %s (%.1fs)%s", p.Name, result.Status, result.Seconds, rerunNote(result)+notFiredNote(result))
	return result, nil
}

// retry runs a plan again, once, after its first attempt failed with its
// infrastructure (first): the worker has replaced its control plane, and
// the first attempt's files are set aside in dir/unhealthy-N. It fails
// only when ctx ends.
func (pr *planRunner) retry(ctx context.Context, w *session.Worker, p *planfile.Plan, dir string, first *results.Result) (*results.Result, error) {
	aside, err := setAside(dir, results.PlanFile)
	if err != nil {
		first.Error += fmt.Sprintf(" (not retried: %v)", err)
		return first, nil
	}
	pr.env.progressf("plan %s: %s; running it again on a new control plane (the failed attempt is in %s)", p.Name, firstLine(first.Error), aside)
	again, _, err := pr.judgeRun(ctx, w, p, dir, first.Dir)
	if err != nil {
		return nil, err
	}
	again.Retried = first.Error
	return again, nil
}

// firstLine is the first line of s.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// judgeRun runs plan p into dir (rel, relative to the results root) and
// judges its trace; unhealthy says that the run's infrastructure failed
// (session.UnhealthyError). It fails only when ctx ends or the disk is full
// (DiskFullError).
func (pr *planRunner) judgeRun(ctx context.Context, w *session.Worker, p *planfile.Plan, dir, rel string) (result *results.Result, unhealthy bool, err error) {
	start := time.Now()
	res, b, runErr := pr.execute(ctx, w, p, dir)
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	result = &results.Result{Test: pr.refs.Test.Name, Plan: p.Name, Pattern: string(p.Pattern), Dir: rel}
	if res != nil {
		res.Enter(results.PhaseJudge)
	}
	if runErr == nil {
		var tr *trace.Trace
		if tr, runErr = trace.Read(res.Trace); runErr == nil {
			var judged *results.Result
			if judged, runErr = Judge(b.refs.Oracle, p, tr, pr.out, rel); runErr == nil {
				result = judged
			}
		}
	}
	if isUnhealthy(runErr) {
		pr.forget(w)
	}
	if d := diskFull(runErr); d != nil {
		return nil, false, d // the result could not be written either
	}
	if runErr != nil {
		result.Status, result.Error, result.Findings = results.Errored, runErr.Error(), nil
	}
	if res != nil {
		result.Timing = res.Timing()
	}
	result.Started, result.Seconds = start, time.Since(start).Seconds()
	return result, isUnhealthy(runErr), nil
}

// execute runs plan p into dir on worker w, from its basis, which it
// returns. A worker whose control plane was replaced since it took its
// checkpoint (session.ErrCheckpointLost: it failed between two runs)
// takes it again first.
func (pr *planRunner) execute(ctx context.Context, w *session.Worker, p *planfile.Plan, dir string) (*session.Outcome, basis, error) {
	b, err := pr.basis(ctx, w, p)
	if err != nil {
		return nil, b, err
	}
	t := b.refs.Test
	r := session.Run{Test: t, BaseDir: pr.env.BaseDir, Dir: dir, Plan: p, Masks: b.refs.Masks.Plan, From: b.from,
		Header:   trace.Header{Test: pr.refs.Test.Name, Spec: pr.env.Spec, Plan: p.Name, Pattern: string(p.Pattern), Actions: len(p.Actions)},
		Errors:   func(err error) { pr.env.progressf("%v", err) },
		Converge: &session.Converge{Oracle: b.refs.Oracle, Bound: convergeBound(t), Recheck: b.recheck, Timer: b.timer}}
	res, err := w.Execute(ctx, r)
	if b.from != nil && errors.Is(err, session.ErrCheckpointLost) {
		pr.forget(w)
		return pr.execute(ctx, w, p, dir) // w is used once it has replayed the prefix
	}
	return res, b, err
}

// confirm runs a failed plan again into its rerun directories, up to
// RunOptions.Confirm times or until every finding has been found again, and
// settles its findings with the reruns (results.Result.Confirm).
func (pr *planRunner) confirm(ctx context.Context, w *session.Worker, p *planfile.Plan, res *results.Result) {
	var reruns []*results.Result
	for i := 1; i <= pr.opts.Confirm && !res.FoundAgain(reruns); i++ {
		rerun, rel := pr.out.Rerun(p.Name, i)
		rr, _, err := pr.judgeRun(ctx, w, p, rerun, rel)
		if err != nil {
			break // interrupted
		}
		reruns = append(reruns, rr)
	}
	res.Confirm(reruns)
}

// rerunNote says, for a progress line, what the reruns of a plan showed.
func rerunNote(r *results.Result) string {
	if len(r.Reruns) == 0 {
		return ""
	}
	var sts []string
	for _, rr := range r.Reruns {
		sts = append(sts, string(rr.Status))
	}
	return fmt.Sprintf("; rerun: %s", strings.Join(sts, ", "))
}

// notFiredNote says, for a progress line, which action of a not-injected
// plan did not fire, or which release of an injected one never came.
func notFiredNote(r *results.Result) string {
	switch {
	case r.NotFired != nil:
		return ": " + r.NotFired.String()
	case r.Unreleased != nil:
		return "; the release never came: " + r.Unreleased.String()
	}
	return ""
}

// convergeBound is test t's converge bound (ir.DefaultConverge unless it
// sets one).
func convergeBound(t *ir.Test) time.Duration {
	if t.Converge == nil {
		return ir.DefaultConverge
	}
	return time.Duration(*t.Converge)
}
