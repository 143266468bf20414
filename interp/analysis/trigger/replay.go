package trigger

import (
	"slices"
	"time"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// Replay runs the triggers of plan p over trace tr as if a run had gone
// as tr did, with the clock following the entries' times, and returns
// the actions that fired, in order. Each entry is shown to the engine
// as the injector shows it during a run: a call of the controller to its
// application when it arrived (Call) and, right after, with its answer
// (Answered; the Seq of the action either completes is the call's
// entry), a request as it is sent (Send, the first after a restart
// action as the restarted controller's: Restarted) and once
// answered (Observe), a delivery or a history entry (Observe). Masks are
// as in Options. An action does nothing to the replay: what the run
// would do after a fault is not in tr.
func Replay(p *planfile.Plan, tr *trace.Trace, masks *mask.Matcher) ([]Fired, error) {
	clock := &replayClock{now: tr.Header.Started}
	e, err := New(p, Options{Clock: clock, Masks: masks})
	if err != nil {
		return nil, err
	}
	out := e.Start()
	for _, ent := range arrivals(tr) {
		if ent.Time.After(clock.now) {
			clock.now = ent.Time
		}
		if c, ok := observe.CallOf(ent); ok {
			out = append(out, e.Tick()...)
			out = append(out, callSeq(e.Call(c), ent.Seq)...)
			out = append(out, callSeq(e.Answered(c, observe.AnswerOf(ent)), ent.Seq)...)
		}
		if ent.Type == trace.Request {
			e.Restarted(ent.Time)
			out = append(out, e.Send(ent)...)
		}
		out = append(out, e.Observe(ent)...)
	}
	return out, nil
}

// callSeq gives the first of the actions a call fired the Seq of the
// call's entry, and returns them.
func callSeq(fired []Fired, seq int64) []Fired {
	if len(fired) > 0 {
		fired[0].Seq = seq
	}
	return fired
}

// arrivals returns the entries of tr in the order they arrived: an http
// entry is written when its response was read, and its time is the
// request's.
func arrivals(tr *trace.Trace) []*trace.Entry {
	out := make([]*trace.Entry, len(tr.Entries))
	for i := range tr.Entries {
		out[i] = &tr.Entries[i]
	}
	slices.SortStableFunc(out, func(a, b *trace.Entry) int { return a.Time.Compare(b.Time) })
	return out
}

// replayClock is the time of the entry being replayed.
type replayClock struct{ now time.Time }

func (c *replayClock) Now() time.Time { return c.now }
