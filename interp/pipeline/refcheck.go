package pipeline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/workload"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// SpecError is a mistake in the spec (or the controller) that a fault-free
// reference run shows: a workload step that fails, or an invariant that
// the run breaks. Every plan would fail the same way, so no plan runs.
type SpecError struct {
	// Src is the step's or the invariant's range in the spec.
	Src diag.Range
	// Run is the reference run (1-based) and Trace its trace file.
	Run   int
	Trace string
	// Seq is the trace entry where it broke: the failed step's end, or the
	// history entry after which the state broke the invariant.
	Seq int64
	// What says what broke, in one line.
	What string
}

// Hint is what to do about any SpecError.
const Hint = "the fault-free run fails, so every plan would: fix the spec or the controller first"

// Summary says what broke where: "reference run N: what, in TRACE".
func (e *SpecError) Summary() string {
	return fmt.Sprintf("reference run %d: %s, in %s", e.Run, e.What, e.Trace)
}

// Error formats the error as "file:line:col: summary (hint)".
func (e *SpecError) Error() string { return fmt.Sprintf("%s: %s (%s)", e.Src, e.Summary(), Hint) }

// SpecErrors are the spec mistakes the reference runs show, one per
// failed step or broken invariant.
type SpecErrors []*SpecError

// Error puts each error on a line of its own.
func (es SpecErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// stepFailure turns the failed workload step of reference run i, whose
// trace t is in file, into SpecErrors naming the step and the trace entry
// of its end. An error that is no step's is returned wrapped.
func stepFailure(err error, t *trace.Trace, file string, i int) error {
	var se *workload.StepError
	if !errors.As(err, &se) {
		return fmt.Errorf("reference run %d: the workload fails without any fault: %w", i, err)
	}
	e := &SpecError{Src: se.Src, Run: i, Trace: file, What: fmt.Sprintf("%s: %v", se.Kind, se.Err)}
	for j := len(t.Entries) - 1; j >= 0; j-- {
		if x := &t.Entries[j]; x.Type == trace.Step && x.Phase == "end" && x.Error != "" {
			e.Seq = x.Seq
			e.What += fmt.Sprintf(" (trace entry %d)", e.Seq)
			break
		}
	}
	return SpecErrors{e}
}

// brokenInvariants returns SpecErrors for the invariants that the
// reference runs refs break or cannot evaluate, each with the first run
// that does, or nil. files are the runs' trace files.
func brokenInvariants(o *oracle.Oracle, invs []*ir.Invariant, refs []*trace.Trace, files []string) error {
	var out SpecErrors
	seen := map[string]bool{}
	for i, t := range refs {
		for _, f := range o.BrokenInvariants(t) {
			if seen[f.Invariant] {
				continue
			}
			seen[f.Invariant] = true
			out = append(out, &SpecError{Src: invariantSrc(invs, f.Invariant), Run: i + 1, Trace: files[i], Seq: f.Seq, What: f.Message})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func invariantSrc(invs []*ir.Invariant, name string) diag.Range {
	for _, inv := range invs {
		if inv.Label() == name {
			return inv.Src
		}
	}
	return diag.Range{}
}
