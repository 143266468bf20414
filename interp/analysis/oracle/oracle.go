package oracle

import (
	"context"
	"fmt"
	"maps"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
)

// Options configure an Oracle. The zero value compares without masks,
// invariants or exclusions.
type Options struct {
	// Masks are the standard-library, spec and previously learned masks.
	Masks []*ir.Mask
	// Invariants are the test's invariants; they are compiled once by New.
	Invariants []*ir.Invariant
	// Own reports whether an object belongs to the controller's own
	// process (its pod, its lease); such objects are never compared.
	Own func(trace.Key) bool
	// OwnKeys lists more such objects.
	OwnKeys []trace.Key
	// NoLearn turns off learning nondeterminism from the reference runs
	// (for when the learned masks are already among Masks).
	NoLearn bool
	// Env compiles the invariants; New builds one when it is nil.
	Env *celenv.Env
	// Context bounds invariant evaluation (default context.Background()).
	Context context.Context
}

// Oracle compares test runs with the reference runs it was built from. It
// is safe for concurrent use by several Check calls.
type Oracle struct {
	opts      Options
	own       func(trace.Key) bool
	ref       *run
	refFailed map[stepID]bool
	live      liveness
	learned   []*ir.MaskRule
	keys      *listKeys
	// writes holds the kinds the controller wrote in a reference run.
	writes     map[string]bool
	end, hist  *mask.Matcher
	invariants []*invariant
}

// New builds an oracle from one or more reference traces (the first is the
// one compared against): it learns masks from what differs between them
// (unless NoLearn), compiles all masks and invariants, and replays the
// reference history once.
func New(refs []*trace.Trace, opts Options) (*Oracle, error) {
	if len(refs) == 0 {
		return nil, fmt.Errorf("oracle: no reference trace")
	}
	o := &Oracle{opts: opts, own: ownPredicate(opts)}
	if o.opts.Context == nil {
		o.opts.Context = context.Background()
	}
	if err := o.prepare(refs); err != nil {
		return nil, err
	}
	return o, nil
}

// prepare replays the references, learns and compiles masks and
// invariants.
func (o *Oracle) prepare(refs []*trace.Trace) error {
	runs := make([]*run, len(refs))
	for i, t := range refs {
		r, err := replay(t, o.own)
		if err != nil {
			return fmt.Errorf("oracle: reference %d: %w", i+1, err)
		}
		runs[i] = r
	}
	o.ref = runs[0]
	o.writes = map[string]bool{}
	for _, t := range refs {
		maps.Copy(o.writes, writtenKinds(t))
	}
	o.keys = newListKeys(o.ref)
	o.refFailed = failedSteps(refs)
	o.live = refLiveness(refs)
	masks := o.opts.Masks
	if !o.opts.NoLearn && len(runs) > 1 {
		learned, err := learnRuns(runs, masks, o.keys)
		if err != nil {
			return err
		}
		o.learned = learned
		masks = append(append([]*ir.Mask(nil), masks...), &ir.Mask{Name: "learned", Rules: learned})
	}
	set, err := mask.Compile(masks)
	if err != nil {
		return fmt.Errorf("oracle: %w", err)
	}
	o.end, o.hist = set.For(ir.OracleEnd), set.For(ir.OracleHistory)
	return o.compileInvariants()
}

// ownPredicate joins Options.Own and Options.OwnKeys.
func ownPredicate(opts Options) func(trace.Key) bool {
	keys := map[trace.Key]bool{}
	for _, k := range opts.OwnKeys {
		keys[k] = true
	}
	return func(k trace.Key) bool {
		return keys[k] || (opts.Own != nil && opts.Own(k))
	}
}

// Learned returns the masks learned from the reference runs (nil with
// fewer than two runs or with NoLearn).
func (o *Oracle) Learned() []*ir.MaskRule { return o.learned }

// Check compares a test trace with the reference and returns its findings,
// sorted. It fails only on a malformed trace or a broken invariant
// environment.
func (o *Oracle) Check(t *trace.Trace) ([]*Finding, error) {
	test, err := replay(t, o.own)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	var fs []*Finding
	fs = append(fs, o.compareEnd(test)...)
	fs = append(fs, o.compareCounts(test)...)
	fs = append(fs, o.compareFolded(test)...)
	inv, err := o.checkInvariants(t, false)
	if err != nil {
		return nil, err
	}
	fs = append(fs, inv...)
	fs = append(fs, o.foldCrashLoop(o.checkEvents(t, o.refFailed))...)
	fs = append(fs, o.checkUnsettled(t)...)
	for _, f := range fs {
		stamp(f, t.Header)
	}
	Sort(fs)
	return fs, nil
}

// CheckReference reports what is wrong with the first reference run on its
// own, without a fault: broken invariants, controller panics and crashes,
// failed steps and an unfinished workload. Such findings are bugs the
// workload alone triggers (or a spec that needs fixing); test runs do not
// repeat them as failed steps, and mark broken invariants as broken in the
// reference too.
func (o *Oracle) CheckReference() ([]*Finding, error) {
	t := o.ref.trace
	fs, err := o.checkInvariants(t, true)
	if err != nil {
		return nil, err
	}
	fs = append(fs, o.checkEvents(t, nil)...)
	for _, f := range fs {
		stamp(f, t.Header)
	}
	Sort(fs)
	return fs, nil
}

// stamp fills in what every finding of a run shares.
func stamp(f *Finding, h trace.Header) {
	f.Test, f.Plan, f.Pattern = h.Test, h.Plan, h.Pattern
	if f.Severity == 0 {
		f.Severity = severityOf(f.Check)
	}
}

// Injected reports whether the run's plan was carried out: every one of
// its actions (the header says how many) fired. For a trace that does not
// say, any fault firing counts.
func Injected(t *trace.Trace) bool { return Unfired(t) < 0 }

// Unfired returns the index of the first action of the run's plan that
// never fired, or -1 when every one fired (Injected). Actions are armed in
// order, so the ones after it were never armed; an action that missed
// (trace.Missed) did not fire. For a trace whose header
// does not say how many actions the plan has, it is 0 when no fault fired.
func Unfired(t *trace.Trace) int {
	fired := map[int]bool{}
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Type != trace.Fault {
			continue
		}
		if t.Header.Actions == 0 {
			return -1
		}
		if e.Action != nil && e.What != trace.Missed {
			fired[*e.Action] = true
		}
	}
	for i := 0; i < max(t.Header.Actions, 1); i++ {
		if !fired[i] {
			return i
		}
	}
	return -1
}
