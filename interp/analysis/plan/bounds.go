package plan

import (
	"fmt"
	"time"

	"github.com/sievetool/sieve/lang/ir"
)

// holdMargin bounds the hold of a plan whose policy sets no hold_for. It
// multiplies the longest time the cancelling event of a hidden event took
// in the reference runs, and ir.DefaultHoldFor is added. The plan run may
// be slower than the references (a loaded machine), and a bound is never
// shorter than the fixed one it replaces. The bound is only the last
// resort of a hold: the cancelling event ends it, and so does a run that
// waits for the held state itself (see inject.Options.Stall).
const holdMargin = 2

// learnedHold is a hold bound learned from the reference runs and how.
type learnedHold struct {
	bound ir.Duration
	// gap is the longest time the cancelling event took, runs how many
	// reference runs showed the pair.
	gap  time.Duration
	runs int
}

// holdBound learns the bound of the hold of delivered event n, which
// back cancels in the trace the plans are made from. It takes the longest
// time from n to its cancelling event, in that run and in every other
// reference run that delivered the same change (the same signature, at the
// same occurrence). The bound is that time times holdMargin, plus
// ir.DefaultHoldFor, rounded up to a whole second.
func (g *generator) holdBound(n, back *item) learnedHold {
	l := learnedHold{gap: back.at().Sub(n.at()), runs: 1}
	for _, o := range g.others {
		if gap, ok := o.cancelGap(n); ok {
			l.gap, l.runs = max(l.gap, gap), l.runs+1
		}
	}
	b := holdMargin*max(l.gap, 0) + ir.DefaultHoldFor
	l.bound = ir.Duration(b.Truncate(time.Second))
	if b%time.Second != 0 {
		l.bound += ir.Duration(time.Second)
	}
	return l
}

// cancelGap returns, in ix (another reference run), how long after the
// delivery of n's change (the same signature at the same occurrence) the
// first delivery that cancels it came; false when that run has no such
// pair.
func (ix *index) cancelGap(n *item) (time.Duration, bool) {
	list := ix.delivByKey[n.Key]
	for _, d := range list {
		if d.Signature != n.Signature || d.Occurrence != n.Occurrence {
			continue
		}
		back := after(list, d.seq(), func(it *item) bool { return cancels(d, it) })
		if back == nil {
			return 0, false
		}
		return back.at().Sub(d.at()), true
	}
	return 0, false
}

// String says the bound and how it was learned, for --explain.
func (l learnedHold) String() string {
	runs := "the reference run"
	if l.runs > 1 {
		runs = fmt.Sprintf("the longest over %d reference runs", l.runs)
	}
	return fmt.Sprintf("held at most %s: the cancelling event came %s after it (%s), times %d, plus %s",
		l.bound, l.gap.Round(time.Millisecond), runs, holdMargin, ir.DefaultHoldFor)
}
