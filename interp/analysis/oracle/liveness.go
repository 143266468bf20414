package oracle

import (
	"fmt"
	"strings"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// crashLoopMin is how many exits on its own in one run make the
// controller crash-loop rather than crash.
const crashLoopMin = 2

// liveness is what the reference runs showed of the controller staying up
// and settling: the settles that reached their bound, and the most exits
// on its own in one run.
type liveness struct {
	unsettled map[stepID]bool
	exits     int
}

// lastSettle names the run's own last settle (a trace.Settle entry)
// among the workload's settle steps.
var lastSettle = stepID{index: -1}

// refLiveness gathers the liveness of the reference runs ts.
func refLiveness(ts []*trace.Trace) liveness {
	l := liveness{unsettled: map[stepID]bool{}}
	for _, t := range ts {
		for _, e := range unsettledSettles(t) {
			l.unsettled[settleID(e)] = true
		}
		l.exits = max(l.exits, len(crashes(t)))
	}
	return l
}

// crashes returns the controller-crash findings of t: its exits on its
// own.
func crashes(t *trace.Trace) []*Finding {
	var fs []*Finding
	killed := false
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Type != trace.Controller {
			continue
		}
		var f *Finding
		if f, killed = controllerFinding(e, killed); f != nil && f.Check == CheckCrash {
			fs = append(fs, f)
		}
	}
	return fs
}

// foldCrashLoop replaces the controller-crash findings among fs by one
// crashloop finding, with their count, when there are at least
// crashLoopMin of them and more than any reference run had.
func (o *Oracle) foldCrashLoop(fs []*Finding) []*Finding {
	var loop, rest []*Finding
	for _, f := range fs {
		if f.Check == CheckCrash {
			loop = append(loop, f)
		} else {
			rest = append(rest, f)
		}
	}
	if len(loop) < crashLoopMin || len(loop) <= o.live.exits {
		return fs
	}
	first := loop[0]
	return append(rest, &Finding{Check: CheckCrashLoop, Seq: first.Seq, Count: len(loop),
		Message: fmt.Sprintf("the controller crash-looped: it exited on its own %d times, the first%s",
			len(loop), strings.TrimPrefix(first.Message, "the controller exited"))})
}

// checkUnsettled reports each settle of t that reached its bound where no
// reference run's did: a workload settle step, or the run's own last
// settle.
func (o *Oracle) checkUnsettled(t *trace.Trace) []*Finding {
	var fs []*Finding
	for _, e := range unsettledSettles(t) {
		id := settleID(e)
		if o.live.unsettled[id] {
			continue
		}
		what := "after the workload"
		if id != lastSettle {
			what = fmt.Sprintf("in workload %s step %d", id.workload, id.index+1)
		}
		fs = append(fs, &Finding{Check: CheckUnsettled, Seq: e.Seq, Src: e.Src,
			Message: fmt.Sprintf("the controller never settled %s: %s", what, strings.TrimSuffix(e.Message, ", went on"))})
	}
	return fs
}

// unsettledSettles returns the entries of t that say a settle reached its
// bound: a settle step's end, a trace.Settle entry.
func unsettledSettles(t *trace.Trace) []*trace.Entry {
	var out []*trace.Entry
	for i := range t.Entries {
		e := &t.Entries[i]
		step := e.Type == trace.Step && e.What == "settle" && e.Phase == "end"
		if (step || e.Type == trace.Settle) && trace.IsNotQuiet(e.Message) {
			out = append(out, e)
		}
	}
	return out
}

// settleID names the settle of entry e (unsettledSettles).
func settleID(e *trace.Entry) stepID {
	if e.Type == trace.Settle {
		return lastSettle
	}
	return stepID{e.Workload, e.Index}
}
