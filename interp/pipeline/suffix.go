package pipeline

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// The suffix stage (Options.ReusePrefix, sieve run --reuse-prefix). A
// plan whose fault fires in explored operation K+1 runs from a
// checkpoint after operation K instead of replaying the seed and
// operations 1 to K: each worker replays that prefix once and takes its
// own checkpoint (a checkpoint holds one cluster's UIDs and
// certificates), and every such plan resets to it, starts the controller
// afresh and runs the steps after it. The controller's restart is then in
// the plan's run, so the plan is judged against suffix references
// recorded the same way, and its plans are generated from the first of
// them, their triggers counting from the checkpoint (docs/explore.md).

// suffixRefs is how many suffix references are recorded per checkpoint:
// two, for the masks learned from what differs between them.
const suffixRefs = 2

// MinSuffixPlans is how many plans an explored operation needs for its
// plans to run from a checkpoint: the suffix references are two more
// runs and each worker replays the prefix once, against one replay saved
// per plan.
const MinSuffixPlans = 3

// Suffix is what the plans that run from one checkpoint share: the test
// cut there, its suffix references, and each worker's checkpoint.
type Suffix struct {
	// After is the explored operation the checkpoint is taken after (from
	// 1).
	After int
	// Prefix is the test's steps up to operation After's settle, which a
	// worker replays before it takes its checkpoint.
	Prefix *ir.Test
	// Refs are the suffix references: runs of the steps after the
	// checkpoint (Refs.Test), each from it, and their oracle, which has
	// learned the masks of the test's reference runs and theirs. Nil when
	// Err is set.
	Refs *Refs
	// Err says why the suffix references could not be recorded: the plans
	// of the operation after the checkpoint are then errors.
	Err error

	out     results.Layout
	recheck time.Duration
	timer   plan.Timer

	mu   sync.Mutex
	held map[*session.Worker]cluster.Checkpoint
	// replays counts the prefix's replays; runs the plan runs from a
	// checkpoint, reruns included (not the suffix references).
	replays, runs int
}

// SuffixCounts say what the suffix stage did and saved.
type SuffixCounts struct {
	// After lists the explored operations a checkpoint was taken after.
	After []int
	// References is how many suffix references were recorded.
	References int
	// Plans is how many plans ran from a checkpoint, and Replaced how many
	// plans of the test's reference runs they took the place of.
	Plans, Replaced int
	// Runs is how many plan runs started from a checkpoint (their reruns
	// included), and Replays how many times a prefix was replayed to take
	// one: each run but those saved a replay, at the cost of the suffix
	// references.
	Runs, Replays int
	// Seconds is the time the stage took before the plans ran: the first
	// checkpoint and the suffix references of each.
	Seconds float64
}

// String says it in one line.
func (c *SuffixCounts) String() string {
	if len(c.After) == 0 {
		return fmt.Sprintf("reuse-prefix: no checkpoint (no explored operation after the first has %d plans or more)", MinSuffixPlans)
	}
	return fmt.Sprintf("reuse-prefix: checkpoints after operations %v, %d suffix references recorded (%.1fs); %d plans from a checkpoint in place of %d; %d plan runs from a checkpoint for %d prefix replays: %d replays saved",
		c.After, c.References, c.Seconds, c.Plans, c.Replaced, c.Runs, c.Replays, c.Runs-c.Replays)
}

// Suffixes is the suffix stage. For each explored operation K+1 (K ≥ 1)
// with at least MinSuffixPlans of set's plans (set.OperationOf), it
// replays the prefix on env's first worker, takes a checkpoint, records
// suffix references from it into out.Suffix(K), and generates the plans
// of operation K+1 from the first, as sel selects them (by pattern; a
// shard or a cap on plans is refused). It returns set's plans with those
// of each such operation replaced by the suffix's, which name their
// checkpoint (planfile.Plan.Checkpoint), and sets refs.Suffixes. When an
// operation's suffix references cannot be recorded, its plans are kept,
// naming the checkpoint, and RunPlans reports each as an error saying
// why (Suffix.Err). The other plans (the seed's, those across operations)
// run from the start as before.
func Suffixes(ctx context.Context, env Env, refs *Refs, set *plan.Set, out results.Layout, sel Selection) ([]*planfile.Plan, error) {
	if sel.Shard.Of > 1 || sel.MaxPlans > 0 {
		return nil, fmt.Errorf("reuse-prefix: not with a shard or a cap on plans (the plans from a checkpoint are generated again)")
	}
	if len(refs.Test.Workloads) != 1 {
		env.progressf("reuse-prefix: test %s has %d workloads, not one: its plans run from the start", refs.Test.Name, len(refs.Test.Workloads))
		return set.Plans, nil
	}
	keep, byOp := fromStart(set.Plans, set.OperationOf)
	refs.Suffixes = map[int]*Suffix{}
	if len(byOp) == 0 {
		env.progressf("reuse-prefix: no explored operation after the first has %d plans or more: every plan runs from the start", MinSuffixPlans)
	}
	for _, n := range slices.Sorted(maps.Keys(byOp)) {
		s, plans, err := suffix(ctx, env, refs, n-1, out, sel)
		if err != nil {
			return nil, err
		}
		if s.Err != nil {
			env.progressf("reuse-prefix: operation %d's %d plans are errors: %v", n, len(byOp[n]), s.Err)
			plans = fromCheckpoint(byOp[n], n-1, false)
		} else {
			env.progressf("reuse-prefix: operation %d: %d plans from the checkpoint after operation %d, in place of %d", n, len(plans), n-1, len(byOp[n]))
		}
		refs.Suffixes[n-1] = s
		keep = append(keep, plans...)
	}
	return keep, nil
}

// fromStart splits plans by the explored operation whose stretch of the
// reference trace holds each (opOf, 0 for none): those that run from the
// start, and by operation those of each operation K+1 that would run from
// the checkpoint after K. An operation has its plans run from a
// checkpoint when it is not the first (K ≥ 1: the first's prefix is the
// seed alone) and has at least MinSuffixPlans.
func fromStart(plans []*planfile.Plan, opOf func(*planfile.Plan) int) (start []*planfile.Plan, byOp map[int][]*planfile.Plan) {
	byOp = map[int][]*planfile.Plan{}
	for _, p := range plans {
		n := opOf(p)
		byOp[n] = append(byOp[n], p)
	}
	for _, n := range slices.Sorted(maps.Keys(byOp)) {
		if n < 2 || len(byOp[n]) < MinSuffixPlans {
			start = append(start, byOp[n]...)
			delete(byOp, n)
		}
	}
	return start, byOp
}

// suffix records the suffix references of the checkpoint after operation
// k and generates its plans. It fails only when ctx ends or the test
// cannot be cut there; a failed recording is the Suffix's Err.
func suffix(ctx context.Context, env Env, refs *Refs, k int, out results.Layout, sel Selection) (*Suffix, []*planfile.Plan, error) {
	prefix, rest, err := splitAfter(refs.Test, k)
	if err != nil {
		return nil, nil, err
	}
	s := &Suffix{After: k, Prefix: prefix, out: out.Suffix(k), held: map[*session.Worker]cluster.Checkpoint{}}
	plans, err := s.record(ctx, env, refs, rest, sel)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if d := diskFull(err); d != nil {
		return nil, nil, d
	}
	s.Err = err
	return s, plans, nil
}

// record takes env's first worker's checkpoint, records the suffix
// references of test rest from it and generates their plans.
func (s *Suffix) record(ctx context.Context, env Env, refs *Refs, rest *ir.Test, sel Selection) ([]*planfile.Plan, error) {
	w := env.Workers[0]
	var traces []*trace.Trace
	var timings []results.Timing
	for i := 1; i <= suffixRefs; i++ {
		cp, err := s.checkpoint(ctx, env, w)
		if err != nil {
			return nil, err
		}
		env.progressf("reuse-prefix: suffix reference %d/%d from the checkpoint after operation %d", i, suffixRefs, s.After)
		tr, tm, err := s.recordOne(ctx, env, w, rest, cp, i)
		if err != nil {
			return nil, err
		}
		traces, timings = append(traces, tr), append(timings, tm)
	}
	if err := s.judgeBy(refs, rest, traces, timings); err != nil {
		return nil, err
	}
	set, err := Plans(Env{}, rest, traces, Selection{Pattern: sel.Pattern, MaxCandidates: sel.MaxCandidates})
	if err != nil {
		return nil, err
	}
	if err := results.WritePruned(s.out, set.Candidates); err != nil {
		return nil, err
	}
	var first []*planfile.Plan
	for _, p := range set.Plans {
		if set.OperationOf(p) == 1 {
			first = append(first, p)
		}
	}
	return fromCheckpoint(first, s.After, true), nil
}

// judgeBy makes the suffix references traces (of test rest, from the
// checkpoint) s's Refs: their oracle learns what differs between them on
// top of refs' masks and learned masks, and writes it to s's
// learned.sieve. A suffix reference that breaks an invariant is a
// SpecErrors (Suffixes makes it the Suffix's Err).
func (s *Suffix) judgeBy(refs *Refs, rest *ir.Test, traces []*trace.Trace, timings []results.Timing) error {
	o, err := oracle.New(traces, oracle.Options{Masks: exploreMasks(refs), Invariants: rest.Invariants, OwnKeys: ownKeys(rest)})
	if err != nil {
		return err
	}
	if err := brokenInvariants(o, rest.Invariants, traces, s.out.ReferenceTraces(len(traces))); err != nil {
		return err
	}
	comment := []string{fmt.Sprintf("learned from %d suffix references of test %s after operation %d (the masks of its reference runs aside)", len(traces), rest.Name, s.After)}
	if err := results.WriteLearned(s.out, o.Learned(), comment); err != nil {
		return err
	}
	s.Refs = &Refs{Test: rest, Traces: traces, Oracle: o, Masks: refs.Masks, Timings: timings}
	window, _ := rest.SettleBounds()
	s.recheck, s.timer = session.RecheckBound(traces, refs.Masks.Plan, window)
	return nil
}

// ReuseSuffix sets refs.Suffixes[k] from the suffix references of the
// checkpoint after explored operation k that the results directory from
// holds (a run with --reuse-prefix), copied into out.Suffix(k), as
// RefOptions.From reuses reference runs: sieve reproduce runs a plan from
// that checkpoint with it. The checkpoint is taken again, on the worker
// that runs the plan.
func ReuseSuffix(refs *Refs, from, out results.Layout, k int) error {
	n := from.Suffix(k).References()
	if n == 0 {
		return fmt.Errorf("reuse-prefix: %s holds no suffix references after operation %d (%s)", from.Root, k, from.Suffix(k).ReferenceTrace(1))
	}
	prefix, rest, err := splitAfter(refs.Test, k)
	if err != nil {
		return err
	}
	s := &Suffix{After: k, Prefix: prefix, out: out.Suffix(k), held: map[*session.Worker]cluster.Checkpoint{}}
	traces, err := reuse(from.Suffix(k).Root, s.out, n)
	if err != nil {
		return fmt.Errorf("reuse-prefix: suffix references after operation %d: %w", k, err)
	}
	if err := s.judgeBy(refs, rest, traces, nil); err != nil {
		return err
	}
	if refs.Suffixes == nil {
		refs.Suffixes = map[int]*Suffix{}
	}
	refs.Suffixes[k] = s
	return nil
}

// recordOne records suffix reference i of test rest from checkpoint cp
// on worker w.
func (s *Suffix) recordOne(ctx context.Context, env Env, w *session.Worker, rest *ir.Test, cp cluster.Checkpoint, i int) (*trace.Trace, results.Timing, error) {
	res, err := w.Execute(ctx, session.Run{Test: rest, BaseDir: env.BaseDir, Dir: s.out.ReferenceDir(i), From: cp,
		Header: trace.Header{Test: rest.Name, Spec: env.Spec, Run: i}})
	if isUnhealthy(err) {
		s.forget(w)
	}
	if err != nil {
		return nil, results.Timing{}, fmt.Errorf("suffix reference %d after operation %d: %w", i, s.After, err)
	}
	tr, err := trace.Read(res.Trace)
	if err != nil {
		return nil, results.Timing{}, err
	}
	if res.WorkloadErr != nil {
		return nil, results.Timing{}, fmt.Errorf("suffix reference %d after operation %d: %w", i, s.After, res.WorkloadErr)
	}
	return tr, res.Timing(), nil
}

// fromCheckpoint returns copies of plans that run from the checkpoint
// after operation k. renamed plans (generated from a suffix reference)
// get a name of their own: the same actions counted from the checkpoint
// are another plan than counted from the start.
func fromCheckpoint(plans []*planfile.Plan, k int, renamed bool) []*planfile.Plan {
	out := make([]*planfile.Plan, len(plans))
	for i, p := range plans {
		c := *p
		c.Checkpoint = &planfile.Checkpoint{After: k}
		if renamed {
			c.Name = fmt.Sprintf("%s-after-%d", p.Name, k)
		}
		out[i] = &c
	}
	return out
}

// checkpoint returns worker w's checkpoint after operation s.After. A
// worker that holds none (its first plan from there, or its control
// plane replaced since) replays the prefix first and takes one.
func (s *Suffix) checkpoint(ctx context.Context, env Env, w *session.Worker) (cluster.Checkpoint, error) {
	s.mu.Lock()
	cp := s.held[w]
	s.mu.Unlock()
	if cp != nil {
		return cp, nil
	}
	rw, ok := w.Backend.(cluster.Rewinder)
	if !ok {
		return nil, fmt.Errorf("checkpoint after operation %d: the backend cannot take one (the embedded one can)", s.After)
	}
	n := s.count(1, 0)
	env.progressf("reuse-prefix: replaying the steps up to operation %d's settle to take a checkpoint (%s)", s.After, s.out.PrefixDir(n))
	res, err := w.Execute(ctx, session.Run{Test: s.Prefix, BaseDir: env.BaseDir, Dir: s.out.PrefixDir(n),
		Header: trace.Header{Test: s.Prefix.Name, Spec: env.Spec}})
	if err == nil && res.WorkloadErr != nil {
		err = res.WorkloadErr
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint after operation %d: replaying the prefix: %w", s.After, err)
	}
	if cp, err = rw.Snapshot(ctx); err != nil {
		return nil, fmt.Errorf("checkpoint after operation %d: %w", s.After, err)
	}
	s.mu.Lock()
	s.held[w] = cp
	s.mu.Unlock()
	return cp, nil
}

// count adds to the replays and runs, and returns the replays.
func (s *Suffix) count(replays, runs int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replays += replays
	s.runs += runs
	return s.replays
}

// forget drops worker w's checkpoint: its control plane is replaced
// before its next run.
func (s *Suffix) forget(w *session.Worker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.held, w)
}

// suffixCounts says what the suffix stage of refs did; plans are the
// plans run, replaced how many plans of the reference runs they stand
// for. Nil without a suffix stage.
func suffixCounts(refs *Refs, plans []*planfile.Plan, replaced int, seconds float64) *SuffixCounts {
	if refs.Suffixes == nil {
		return nil
	}
	c := &SuffixCounts{Replaced: replaced, Seconds: seconds}
	for _, k := range slices.Sorted(maps.Keys(refs.Suffixes)) {
		s := refs.Suffixes[k]
		c.After = append(c.After, k)
		s.mu.Lock()
		c.Runs += s.runs
		c.Replays += s.replays
		s.mu.Unlock()
		if s.Refs != nil {
			c.References += len(s.Refs.Traces)
		}
	}
	for _, p := range plans {
		if p.Checkpoint != nil {
			c.Plans++
		}
	}
	return c
}

// splitAfter returns test t with its workload cut after explored
// operation k's settle (the step after its patch), and with the steps
// after that.
func splitAfter(t *ir.Test, k int) (prefix, rest *ir.Test, err error) {
	if len(t.Workloads) != 1 {
		return nil, nil, fmt.Errorf("reuse-prefix: test %s: %d workloads (a checkpoint is taken in the one workload of an explored test)", t.Name, len(t.Workloads))
	}
	steps := t.Workloads[0].Steps
	cut, seen := -1, 0
	for i, s := range steps {
		if s.Explored == nil {
			continue
		}
		if seen++; seen == k+1 {
			cut = i
			break
		}
	}
	if k < 1 || cut < 0 {
		return nil, nil, fmt.Errorf("reuse-prefix: test %s: no explored operation after operation %d", t.Name, k)
	}
	with := func(steps []*ir.Step) *ir.Test {
		c := *t
		w := *t.Workloads[0]
		w.Steps = steps
		c.Workloads = []*ir.Workload{&w}
		return &c
	}
	return with(steps[:cut]), with(steps[cut:]), nil
}
