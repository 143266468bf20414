package pipeline

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// Env is where a test's runs happen. The stages take it as it is and
// never change it.
type Env struct {
	// Spec is the spec file, named in trace headers and summary.json.
	Spec string
	// BaseDir is the directory the IR's paths are relative to.
	BaseDir string
	// Workers run one run at a time each, on a backend of their own. The
	// stages that run something need at least one; References records on
	// all of them at once, RunPlans runs plans on them in parallel.
	Workers []*session.Worker
	// Progress receives one line per event worth telling (stderr). If
	// nil, nothing is told.
	Progress io.Writer
}

// progressf tells one line of progress.
func (e Env) progressf(format string, args ...any) {
	if e.Progress != nil {
		fmt.Fprintf(e.Progress, format+"\n", args...)
	}
}

// shareNotes gives the env's workers one session.Notes, kept from an
// earlier stage, printing to env's progress output.
func (e Env) shareNotes() {
	var n *session.Notes
	for _, w := range e.Workers {
		if w.Notes != nil {
			n = w.Notes
			break
		}
	}
	if n == nil {
		n = &session.Notes{}
	}
	n.SetOutput(e.Progress)
	for _, w := range e.Workers {
		w.Notes = n
	}
}

// RefOptions say where the References stage takes the reference runs
// from. The zero value records them anew, without a cache.
type RefOptions struct {
	// Cache, if not nil, reuses reference runs recorded before for the
	// same test, controller and sieve build, and keeps newly recorded
	// ones.
	Cache *Cache
	// From, if not empty, is a results directory whose reference runs are
	// reused (copied) instead of recording new ones (sieve reproduce).
	From string
	// Binary, if not empty, is the controller binary built before from
	// the test's Go package (a worker image carries one, and no Go
	// toolchain): it runs instead of a build.
	Binary string
}

// Refs are a test's reference runs and what the later stages need of
// them.
type Refs struct {
	// Test is the test as it runs: a controller given as a Go package is
	// built once, and the test names the binary.
	Test *ir.Test
	// Traces are the reference runs' traces, in run order; Plans
	// generates from the first.
	Traces []*trace.Trace
	// Oracle compares test runs with them (with the masks it learned).
	Oracle *oracle.Oracle
	// Masks are the test's masks for each use.
	Masks MaskSet
	// Timings say where the time of each reference run went; none when
	// the runs were reused.
	Timings []results.Timing
	// Suffixes are the suffix references, by the explored operation their
	// checkpoint is taken after, once the suffix stage has run (Suffixes;
	// nil before or without it): a plan that runs from a checkpoint
	// (planfile.Plan.Checkpoint) is judged against its own.
	Suffixes map[int]*Suffix
}

// referenceRuns is how many reference runs References will have for test
// t: the test's runs (at least one), or those the directory opts.From
// holds.
func referenceRuns(t *ir.Test, opts RefOptions) int {
	if opts.From != "" {
		return max(results.Layout{Root: opts.From}.References(), 1)
	}
	return max(t.Runs, 1)
}

// Start starts a test's results directory out for the stages to write
// into: it removes what an earlier run left there and writes
// summary.json, saying that the run of test t started, with the
// reference runs opts asks for, and which shard of the plans it keeps.
func Start(out results.Layout, env Env, t *ir.Test, opts RefOptions, shard Shard) (*results.TestRun, error) {
	run := &results.TestRun{Test: t.Name, Spec: env.Spec, Shard: shard.String(), Started: time.Now(), References: referenceRuns(t, opts)}
	if err := out.Clear(); err != nil {
		return run, err
	}
	return run, results.WriteRun(out, run)
}

// Finish marks the run finished in out's summary.json.
func Finish(out results.Layout, run *results.TestRun) error {
	now := time.Now()
	run.Finished = &now
	return results.WriteRun(out, run)
}

// References is the first stage: it records the reference runs of test
// t into out (or reuses them, opts), learns the masks that make them
// agree and writes them to out's learned.sieve, and builds the oracle. A
// reference run that fails a workload step or breaks an invariant is a
// SpecErrors: every plan would fail the same way.
func References(ctx context.Context, env Env, t *ir.Test, out results.Layout, opts RefOptions) (*Refs, error) {
	env.shareNotes()
	workload, err := WorkloadHash(t, env.BaseDir) // of the spec's controller, not of the binary built from it
	if err != nil {
		return nil, err
	}
	if t, err = buildOnce(ctx, t, env.BaseDir, env.Workers[0].CacheDir, opts.Binary); err != nil {
		return nil, err
	}
	traces, timings, store, err := references(ctx, env, t, out, opts, workload)
	if err != nil {
		return nil, err
	}
	refs := &Refs{Test: t, Traces: traces, Timings: timings}
	if refs.Masks, err = Masks(t); err != nil {
		return nil, err
	}
	refs.Oracle, err = oracle.New(traces, oracle.Options{Masks: refs.Masks.Oracle, Invariants: t.Invariants, OwnKeys: ownKeys(t)})
	if err != nil {
		return nil, err
	}
	if err := brokenInvariants(refs.Oracle, t.Invariants, traces, out.ReferenceTraces(len(traces))); err != nil {
		return nil, err
	}
	comment := []string{fmt.Sprintf("learned from %d reference runs of test %s", len(traces), t.Name)}
	if err := results.WriteLearned(out, refs.Oracle.Learned(), comment); err != nil {
		return nil, err
	}
	if store != "" {
		storeRefs(env, store, out, t)
	}
	return refs, nil
}

// references records the reference runs, or reuses them from opts.From
// or the cache. store is the cache entry to keep newly recorded runs in
// ("" for none). workload is the test's WorkloadHash, for the headers.
func references(ctx context.Context, env Env, t *ir.Test, out results.Layout, opts RefOptions, workload string) (refs []*trace.Trace, timings []results.Timing, store string, err error) {
	n := referenceRuns(t, opts)
	if opts.From != "" {
		env.progressf("reusing %d reference run(s) from %s", n, opts.From)
		refs, err = reuse(opts.From, out, n)
		return refs, nil, "", err
	}
	key, entry, hit := cached(ctx, env, t, opts.Cache)
	if hit {
		env.progressf("reusing reference runs from %s", entry)
		if refs, err = reuse(entry, out, n); err == nil {
			return refs, nil, "", nil
		}
		env.progressf("reference cache: %v (recording them again)", err)
	}
	if key != "" {
		store = entry
	}
	refs, timings, err = recordRefs(ctx, env, t, out, n, workload)
	return refs, timings, store, err
}

// recordRefs records n reference runs, spread over the workers and run at
// once. Masks are then learned across control planes as well as across
// runs, as plans run on every worker.
func recordRefs(ctx context.Context, env Env, t *ir.Test, out results.Layout, n int, workload string) ([]*trace.Trace, []results.Timing, error) {
	refs := make([]*trace.Trace, n)
	timings := make([]results.Timing, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for w := range min(n, len(env.Workers)) {
		wg.Go(func() {
			for i := w; i < n && ctx.Err() == nil; i += len(env.Workers) {
				if refs[i], timings[i], errs[i] = recordOne(ctx, env, env.Workers[w], t, out, i+1, n, workload); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err // the runs not started yet have no trace
	}
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return refs, timings, nil
}

// recordOne records reference run i of n on worker w, its header naming
// workload.
func recordOne(ctx context.Context, env Env, w *session.Worker, t *ir.Test, out results.Layout, i, n int, workload string) (*trace.Trace, results.Timing, error) {
	env.progressf("reference run %d/%d", i, n)
	start := time.Now()
	r := session.Run{Test: t, BaseDir: env.BaseDir, Dir: out.ReferenceDir(i),
		Header: trace.Header{Test: t.Name, Spec: env.Spec, Run: i, Workload: workload}}
	res, err := executeReference(ctx, env, w, r, i)
	if err != nil {
		return nil, results.Timing{}, withDiskFull(fmt.Errorf("reference run %d: %w", i, err))
	}
	tr, err := trace.Read(res.Trace)
	if err != nil {
		return nil, results.Timing{}, err
	}
	if res.WorkloadErr != nil {
		return nil, results.Timing{}, stepFailure(res.WorkloadErr, tr, res.Trace, i)
	}
	env.progressf("reference run %d: %d trace entries in %.1fs", i, len(tr.Entries), time.Since(start).Seconds())
	return tr, res.Timing(), nil
}

// executeReference performs reference run i; if its infrastructure
// failed (session.UnhealthyError), it runs it once more on a new control plane,
// with the failed attempt's files set aside in its directory's
// unhealthy-N, as a plan run is retried.
func executeReference(ctx context.Context, env Env, w *session.Worker, r session.Run, i int) (*session.Outcome, error) {
	res, err := w.Execute(ctx, r)
	if !isUnhealthy(err) || ctx.Err() != nil {
		return res, err
	}
	aside, aerr := setAside(r.Dir, "")
	if aerr != nil {
		return res, fmt.Errorf("%w (not retried: %v)", err, aerr)
	}
	env.progressf("reference run %d: %s; running it again on a new control plane (the failed attempt is in %s)", i, firstLine(err.Error()), aside)
	res, again := w.Execute(ctx, r)
	if isUnhealthy(again) {
		return res, fmt.Errorf("failed twice: %w (first attempt: %s)", again, firstLine(err.Error()))
	}
	return res, again
}

// ownKeys are the objects of the controller's own process, which the
// oracle leaves out: its emulated pod, recreated at every restart.
func ownKeys(t *ir.Test) []trace.Key {
	if !t.Controller.Kubeconfig.InCluster {
		return nil
	}
	p := controller.PodOf(t.Controller)
	return []trace.Key{{Kind: "pod", Namespace: p.Namespace, Name: p.Name}}
}
