package pipeline

import (
	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Judge checks the trace of a run of plan p with the oracle and returns
// its result, its findings naming the command that reproduces them from
// the results directory out; dir is the run's directory relative to out's
// root, and
// p may be nil when the plan is not known (the result then names the
// action that did not fire by number only). The caller sets Started and
// Seconds.
//
// Differences from the reference's end state that the controller
// repaired while the run waited for convergence are Transient, not
// findings (oracle.Transient).
//
// A run in which an action never fired tested nothing: it is not-injected
// whatever the oracle says, and the oracle's findings are kept in Untested,
// not counted. Otherwise a run with findings failed and one without passed.
// A release that never came is no such action: its hold fired, and was
// lifted when the workload was over (or at its bound), so the fault was
// injected; the run is judged as usual and Unreleased says which release
// never came.
func Judge(o *oracle.Oracle, p *planfile.Plan, t *trace.Trace, out results.Layout, dir string) (*results.Result, error) {
	fs, err := o.Check(t)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if f.Plan != "" {
			f.Reproduce = out.Reproduce(f.Plan)
		}
	}
	transient, err := o.Transient(t)
	if err != nil {
		return nil, err
	}
	r := &results.Result{
		Version: results.Version, Test: t.Header.Test, Plan: t.Header.Plan, Pattern: t.Header.Pattern,
		Dir: dir, Findings: []*oracle.Finding{}, Status: results.Passed,
		Transient: transient, Converge: convergeEnd(t),
	}
	i := oracle.Unfired(t)
	switch {
	case i >= 0 && !releasesFrom(p, i):
		r.Status, r.NotFired, r.Untested = results.NotInjected, notFired(p, t), fs
		return r, nil
	case i >= 0:
		r.Unreleased = notFired(p, t)
	}
	if len(fs) > 0 {
		r.Status, r.Findings = results.Failed, fs
	}
	return r, nil
}

// releasesFrom reports whether the actions of plan p from the i-th on
// (the ones that never fired: actions are armed in order) are all
// releases or resumes (a pause its bound or the workload's end ended), so
// that every fault the plan begins fired. False when the plan
// is not known.
func releasesFrom(p *planfile.Plan, i int) bool {
	if p == nil || i >= len(p.Actions) {
		return false
	}
	for _, a := range p.Actions[i:] {
		if a.Kind != ir.ActRelease && a.Kind != ir.ActResume {
			return false
		}
	}
	return true
}

// convergeEnd is how the run's wait for convergence ended ("" when it
// did not wait).
func convergeEnd(t *trace.Trace) string {
	for _, e := range t.Entries {
		if e.Type == trace.Converge && e.What == "end" {
			return e.Message
		}
	}
	return ""
}

// notFired describes the first action of the run's plan that never fired.
func notFired(p *planfile.Plan, t *trace.Trace) *results.NotFired {
	i := oracle.Unfired(t)
	n := &results.NotFired{Action: i + 1, Of: max(t.Header.Actions, 1)}
	for _, e := range t.Entries {
		switch {
		case e.Type != trace.Fault || e.Action == nil:
		case *e.Action == i-1:
			n.After = e.Seq
		case *e.Action == i && e.What == trace.Missed:
			n.Missed = e.Message
		}
	}
	if p != nil && i < len(p.Actions) {
		a := p.Actions[i]
		n.What, n.Of = a.String(), len(p.Actions)
		if a.Trigger != nil {
			n.Trigger = a.Trigger.String()
		}
	}
	return n
}
