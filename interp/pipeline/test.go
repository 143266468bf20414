package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/mask"
	"github.com/sievetool/sieve/interp/oracle"
	"github.com/sievetool/sieve/interp/plan"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/interp/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Options configure a test's pipeline. Workers and Test are required.
type Options struct {
	Test *ir.Test
	// Spec is the spec file (for headers and reports); BaseDir the
	// directory IR paths are relative to.
	Spec    string
	BaseDir string
	// Out is the test's results directory.
	Out string
	// Workers run plans in parallel, one backend each; the first also runs
	// the reference runs.
	Workers []*Worker
	// Patterns keeps only plans of these patterns (empty: all).
	Patterns []ir.Pattern
	// Shard keeps only the plans of one part (zero: all plans).
	Shard Shard
	// MaxPlans caps the plans run, chosen by content (plan.Sample; 0: no
	// cap), after Shard.
	MaxPlans int
	// Plans, when set, replaces generation: exactly these plans run
	// (sieve reproduce).
	Plans []*plan.Plan
	// Progress receives one line per event worth telling (stderr); may be
	// nil.
	Progress io.Writer
	// OnResult is called after each plan's result is written; may be nil.
	OnResult func(*report.Result)
	// Cache, when set, reuses reference runs recorded before for the same
	// test, controller and sieve build, and keeps newly recorded ones.
	Cache *Cache
	// References, when set, is a results directory whose reference runs
	// are reused instead of recording new ones (sieve reproduce).
	References string
	// ReferencesOnly stops Prepare after the reference runs and the
	// learned masks: no plans are generated (sieve record).
	ReferencesOnly bool
	// Confirm is how many times a failed plan is run again, at most, to
	// confirm its findings: a finding no rerun finds again is reported
	// as unconfirmed and not counted (0: no reruns, every finding counts).
	Confirm int
}

// TestOutcome is what a test's pipeline produced.
type TestOutcome struct {
	References int
	Counts     []plan.Count
	Plans      []*plan.Plan
	Results    []*report.Result
	// Seconds are the durations of the plan runs, in the order they ended.
	Seconds []float64
}

// Prepared is a test whose reference runs are recorded and whose plans
// are generated, ready to run.
type Prepared struct {
	o       *Options
	layout  report.Layout
	run     *report.TestRun
	oracle  *oracle.Oracle
	masks   *mask.Matcher
	Outcome *TestOutcome
}

// RunTest records the reference runs, generates the plans and runs them.
// Results are written to Out as each plan ends, so an interrupted run
// (ctx cancelled) keeps every finished plan; the outcome then holds what
// finished and the error is ctx's.
func RunTest(ctx context.Context, o Options) (*TestOutcome, error) {
	p, err := Prepare(ctx, o)
	if err != nil {
		return p.Outcome, err
	}
	return p.Outcome, p.Run(ctx)
}

// Prepare records the reference runs (writing them and the learned masks
// to Out, after removing what an earlier run left there) and generates the
// plans. The outcome is never nil.
func Prepare(ctx context.Context, o Options) (*Prepared, error) {
	p := &Prepared{o: &o, layout: report.Layout{Root: o.Out}, Outcome: &TestOutcome{},
		run: &report.TestRun{Test: o.Test.Name, Spec: o.Spec, Shard: o.Shard.String(), Started: time.Now()}}
	if err := p.layout.Clear(); err != nil {
		return p, err
	}
	var err error
	if o.Test, err = buildOnce(ctx, o.Test, o.BaseDir, o.Workers[0].CacheDir); err != nil {
		return p, err
	}
	refs, store, err := o.references(ctx, p.layout, p.run)
	if err != nil {
		return p, err
	}
	p.Outcome.References = len(refs)
	p.oracle, err = oracle.New(refs, oracle.Options{Masks: append([]*ir.Mask{ClusterMask()}, o.Test.Masks...), Invariants: o.Test.Invariants, ResultsDir: o.Out})
	if err != nil {
		return p, err
	}
	if err := brokenInvariants(p.oracle, o.Test.Invariants, refs, referenceTraces(p.layout, len(refs))); err != nil {
		return p, err
	}
	comment := []string{fmt.Sprintf("learned from %d reference runs of test %s", len(refs), o.Test.Name)}
	if err := report.WriteLearned(p.layout, p.oracle.Learned(), comment); err != nil {
		return p, err
	}
	if store != "" {
		o.store(store, p.layout)
	}
	if o.ReferencesOnly {
		now := time.Now()
		p.run.Finished = &now
		return p, report.WriteRun(p.layout, p.run)
	}
	if p.masks, err = plan.Masks(o.Test); err != nil {
		return p, err
	}
	var cands []plan.Candidate
	p.Outcome.Plans, p.Outcome.Counts, cands, err = o.plans(refs[0], p.masks)
	if err != nil {
		return p, err
	}
	if o.Plans == nil {
		if err := plan.WriteCandidatesFile(p.layout.Pruned(), cands); err != nil {
			return p, err
		}
	}
	p.run.Planned = len(p.Outcome.Plans)
	return p, report.WriteRun(p.layout, p.run)
}

// Trim keeps at most one worker per plan to run (and at least one) and
// returns the others, whose backends the caller may stop.
func (pr *Prepared) Trim() []*Worker {
	keep := max(len(pr.Outcome.Plans), 1)
	if len(pr.o.Workers) <= keep {
		return nil
	}
	spare := pr.o.Workers[keep:]
	pr.o.Workers = pr.o.Workers[:keep]
	return spare
}

// Run runs the prepared plans and marks the test finished.
func (pr *Prepared) Run(ctx context.Context) error {
	pr.o.progressf("%d plans to run on %d worker(s)", len(pr.Outcome.Plans), len(pr.o.Workers))
	if err := pr.runPlans(ctx); err != nil {
		return err
	}
	now := time.Now()
	pr.run.Finished = &now
	return report.WriteRun(pr.layout, pr.run)
}

// references records the reference runs, or reuses them from
// o.References or the cache. store is the cache entry to keep newly
// recorded runs in ("" for none).
func (o *Options) references(ctx context.Context, layout report.Layout, run *report.TestRun) (refs []*trace.Trace, store string, err error) {
	n := max(o.Test.Runs, 1)
	if o.References != "" {
		n = max(CountReferences(o.References), 1)
	}
	run.References = n
	if err := report.WriteRun(layout, run); err != nil {
		return nil, "", err
	}
	if o.References != "" {
		o.progressf("reusing %d reference run(s) from %s", n, o.References)
		refs, err = reuse(o.References, layout, n)
		return refs, "", err
	}
	key, entry, hit := o.cached(ctx)
	if hit {
		o.progressf("reusing reference runs from %s", entry)
		if refs, err = reuse(entry, layout, n); err == nil {
			return refs, "", nil
		}
		o.progressf("reference cache: %v (recording them again)", err)
	}
	if key != "" {
		store = entry
	}
	refs, err = o.record(ctx, layout, n)
	return refs, store, err
}

// record records n reference runs, spread over the workers and run at
// once. Masks are then learned across control planes as well as across
// runs, as plans run on every worker.
func (o *Options) record(ctx context.Context, layout report.Layout, n int) ([]*trace.Trace, error) {
	refs := make([]*trace.Trace, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for w := range min(n, len(o.Workers)) {
		wg.Go(func() {
			for i := w; i < n && ctx.Err() == nil; i += len(o.Workers) {
				if refs[i], errs[i] = o.recordOne(ctx, o.Workers[w], layout, i+1, n); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// referenceTraces are the trace files of n reference runs.
func referenceTraces(layout report.Layout, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = filepath.Join(layout.ReferenceDir(i+1), report.TraceFile)
	}
	return out
}

// recordOne records reference run i of n on worker w.
func (o *Options) recordOne(ctx context.Context, w *Worker, layout report.Layout, i, n int) (*trace.Trace, error) {
	o.progressf("reference run %d/%d", i, n)
	start := time.Now()
	r := Run{Test: o.Test, BaseDir: o.BaseDir, Dir: layout.ReferenceDir(i),
		Header: trace.Header{Test: o.Test.Name, Spec: o.Spec, Run: i}}
	res, err := o.executeReference(ctx, w, r, i)
	if err != nil {
		return nil, withDiskFull(fmt.Errorf("reference run %d: %w", i, err))
	}
	t, err := trace.Read(res.Trace)
	if err != nil {
		return nil, err
	}
	if res.WorkloadErr != nil {
		return nil, stepFailure(res.WorkloadErr, t, res.Trace, i)
	}
	o.progressf("reference run %d: %d trace entries in %.1fs", i, len(t.Entries), time.Since(start).Seconds())
	return t, nil
}

// executeReference performs reference run i; if its infrastructure
// failed (UnhealthyError), it runs it once more on a new control plane,
// with the failed attempt's files set aside in its directory's
// unhealthy-N, as a plan run is retried.
func (o *Options) executeReference(ctx context.Context, w *Worker, r Run, i int) (*Outcome, error) {
	res, err := w.Execute(ctx, r)
	if !isUnhealthy(err) || ctx.Err() != nil {
		return res, err
	}
	aside, aerr := setAside(r.Dir, "")
	if aerr != nil {
		return res, fmt.Errorf("%w (not retried: %v)", err, aerr)
	}
	o.progressf("reference run %d: %s; running it again on a new control plane (the failed attempt is in %s)", i, firstLine(err.Error()), aside)
	res, again := w.Execute(ctx, r)
	if isUnhealthy(again) {
		return res, fmt.Errorf("failed twice: %w (first attempt: %s)", again, firstLine(err.Error()))
	}
	return res, again
}

// plans generates and selects the plans to run, and says what became of
// every candidate, the selection included.
func (o *Options) plans(ref *trace.Trace, masks *mask.Matcher) ([]*plan.Plan, []plan.Count, []plan.Candidate, error) {
	if o.Plans != nil {
		return o.Plans, nil, nil, nil
	}
	set, err := plan.Generate(ref, o.Test, plan.Options{Masks: masks})
	if err != nil {
		return nil, nil, nil, err
	}
	plans := set.Plans
	if len(o.Patterns) > 0 {
		plans = keepPatterns(plans, o.Patterns)
		plan.MarkUnchosen(set.Candidates, plans, "pattern", "not of the patterns asked for (--pattern)")
	}
	if o.Shard.Of > 1 {
		all := len(plans)
		plans = o.Shard.keep(plans)
		o.progressf("shard %s: %d of %d plans", o.Shard, len(plans), all)
		plan.MarkUnchosen(set.Candidates, plans, "shard", "in another part than --shard "+o.Shard.String())
	}
	if o.MaxPlans > 0 && len(plans) > o.MaxPlans {
		plans = plan.Sample(plans, o.MaxPlans)
		plan.MarkUnchosen(set.Candidates, plans, "max-plans", fmt.Sprintf("not among the %d plans sampled (--max-plans)", o.MaxPlans))
	}
	return plans, set.Counts, set.Candidates, nil
}

func keepPatterns(plans []*plan.Plan, pats []ir.Pattern) []*plan.Plan {
	var out []*plan.Plan
	for _, p := range plans {
		for _, pat := range pats {
			if p.Pattern == pat {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// runPlans runs the plans on the workers and writes each result.
func (pr *Prepared) runPlans(ctx context.Context) error {
	o, out := pr.o, pr.Outcome
	queue := make(chan *plan.Plan)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var errs []error
	// A plan that fails to run or to be written (ctx ended, a full
	// disk) stops the run: later plans would fail the same way.
	stop := make(chan struct{})
	var stopOnce sync.Once
	for _, w := range o.Workers {
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
					out.Results = append(out.Results, res)
					out.Seconds = append(out.Seconds, res.Seconds)
				}
				mu.Unlock()
				if err == nil && o.OnResult != nil {
					o.OnResult(res)
				}
			}
		}()
	}
send:
	for _, p := range out.Plans {
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
	sort.Slice(out.Results, func(i, j int) bool { return out.Results[i].Plan < out.Results[j].Plan })
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return joinOnce(errs)
}

// runPlan runs one plan and writes its result; a failed plan is then run
// again to confirm its findings (Options.Confirm). A run that could not be
// done is a result with status error, not an error, unless ctx ended.
func (pr *Prepared) runPlan(ctx context.Context, w *Worker, p *plan.Plan) (*report.Result, error) {
	dir := pr.layout.PlanDir(p.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	b, err := p.Marshal()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, report.PlanFile), b, 0o644); err != nil {
		return nil, err
	}
	result, unhealthy, err := pr.judgeRun(ctx, w, p, dir, report.PlanRel(p.Name))
	if err == nil && unhealthy {
		result, err = pr.retry(ctx, w, p, dir, result)
	}
	if err != nil {
		return nil, err // interrupted: the plan did not finish
	}
	if err := report.WriteResult(pr.layout, result); err != nil {
		return nil, err
	}
	if result.Status == report.Failed && pr.o.Confirm > 0 {
		// The first verdict is on disk: an interrupted rerun leaves it.
		pr.confirm(ctx, w, p, dir, result)
		if len(result.Reruns) > 0 {
			if err := report.WriteResult(pr.layout, result); err != nil {
				return nil, err
			}
		}
	}
	pr.o.progressf("plan %s: %s (%.1fs)%s", p.Name, result.Status, result.Seconds, rerunNote(result)+notFiredNote(result))
	return result, nil
}

// retry runs a plan again, once, after its first attempt failed with its
// infrastructure (first): the worker has replaced its control plane, and
// the first attempt's files are set aside in dir/unhealthy-N. It fails
// only when ctx ends.
func (pr *Prepared) retry(ctx context.Context, w *Worker, p *plan.Plan, dir string, first *report.Result) (*report.Result, error) {
	aside, err := setAside(dir, report.PlanFile)
	if err != nil {
		first.Error += fmt.Sprintf(" (not retried: %v)", err)
		return first, nil
	}
	pr.o.progressf("plan %s: %s; running it again on a new control plane (the failed attempt is in %s)", p.Name, firstLine(first.Error), aside)
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
// (UnhealthyError). It fails only when ctx ends or the disk is full
// (DiskFullError).
func (pr *Prepared) judgeRun(ctx context.Context, w *Worker, p *plan.Plan, dir, rel string) (result *report.Result, unhealthy bool, err error) {
	o := pr.o
	start := time.Now()
	r := Run{Test: o.Test, BaseDir: o.BaseDir, Dir: dir, Plan: p, Masks: pr.masks,
		Header: trace.Header{Test: o.Test.Name, Spec: o.Spec, Plan: p.Name, Pattern: string(p.Pattern), Actions: len(p.Actions)},
		Errors: func(err error) { o.progressf("%v", err) }}
	res, runErr := w.Execute(ctx, r)
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	result = &report.Result{Test: o.Test.Name, Plan: p.Name, Pattern: string(p.Pattern), Dir: rel}
	if runErr == nil {
		var t *trace.Trace
		if t, runErr = trace.Read(res.Trace); runErr == nil {
			var judged *report.Result
			if judged, runErr = report.Judge(pr.oracle, p, t, rel); runErr == nil {
				result = judged
			}
		}
	}
	if d := diskFull(runErr); d != nil {
		return nil, false, d // the result could not be written either
	}
	if runErr != nil {
		result.Status, result.Error, result.Findings = report.Errored, runErr.Error(), nil
	}
	result.Started, result.Seconds = start, time.Since(start).Seconds()
	return result, isUnhealthy(runErr), nil
}

// confirm runs a failed plan again into DIR/rerun-N, up to
// Options.Confirm times or until every finding has been found again, and
// settles its findings with the reruns (report.Result.Confirm).
func (pr *Prepared) confirm(ctx context.Context, w *Worker, p *plan.Plan, dir string, res *report.Result) {
	var reruns []*report.Result
	for i := 1; i <= pr.o.Confirm && !res.FoundAgain(reruns); i++ {
		name := "rerun-" + strconv.Itoa(i)
		rr, _, err := pr.judgeRun(ctx, w, p, filepath.Join(dir, name), res.Dir+"/"+name)
		if err != nil {
			break // interrupted
		}
		reruns = append(reruns, rr)
	}
	res.Confirm(reruns)
}

// rerunNote says, for a progress line, what the reruns of a plan showed.
func rerunNote(r *report.Result) string {
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
// plan did not fire.
func notFiredNote(r *report.Result) string {
	if r.NotFired == nil {
		return ""
	}
	return ": " + r.NotFired.String()
}

func (o *Options) progressf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}
