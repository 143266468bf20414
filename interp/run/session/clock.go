package session

import (
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// clock measures a run's phases and fault windows as they happen
// (results.Timing). It is safe for concurrent use.
type clock struct {
	mu    sync.Mutex
	now   func() time.Time
	start time.Time
	// cur is the phase under way (nil after stop); its Seconds is set
	// when it ends.
	cur     *results.Phase
	phases  []results.Phase
	open    []results.Phase
	windows []results.Phase
}

// newClock starts a clock in phase first.
func newClock(first string, now func() time.Time) *clock {
	c := &clock{now: now, start: now()}
	c.cur = &results.Phase{Phase: first}
	return c
}

// since is the time from the start to t in seconds, never negative.
func (c *clock) since(t time.Time) float64 { return max(t.Sub(c.start).Seconds(), 0) }

// enter ends the phase under way and begins phase name (what: which one).
func (c *clock) enter(name, what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	c.endLocked(now)
	c.cur = &results.Phase{Phase: name, What: what, At: c.since(now)}
}

func (c *clock) endLocked(now time.Time) {
	if c.cur == nil {
		return
	}
	c.cur.Seconds = max(c.since(now)-c.cur.At, 0)
	c.phases = append(c.phases, *c.cur)
	c.cur = nil
}

// openWindow begins a fault window of kind on what, unless one is open.
func (c *clock) openWindow(kind, what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.open {
		if w.Phase == kind && w.What == what {
			return
		}
	}
	c.open = append(c.open, results.Phase{Phase: kind, What: what, At: c.since(c.now())})
}

// closeWindow ends the fault window of kind on what, or, when there is
// none, the oldest open window of that kind.
func (c *clock) closeWindow(kind, what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.IndexFunc(c.open, func(w results.Phase) bool { return w.Phase == kind && w.What == what })
	if i < 0 {
		i = slices.IndexFunc(c.open, func(w results.Phase) bool { return w.Phase == kind })
	}
	if i < 0 {
		return
	}
	w := c.open[i]
	w.Seconds = max(c.since(c.now())-w.At, 0)
	c.windows = append(c.windows, w)
	c.open = slices.Delete(c.open, i, i+1)
}

// stop ends the phase under way and the open fault windows, and returns
// the timing so far, in milliseconds. A later enter begins a new phase.
func (c *clock) stop() results.Timing {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	c.endLocked(now)
	for _, w := range c.open {
		w.Seconds = max(c.since(now)-w.At, 0)
		c.windows = append(c.windows, w)
	}
	c.open = nil
	t := results.Timing{Phases: rounded(c.phases), Windows: rounded(c.windows)}
	sort.SliceStable(t.Windows, func(i, j int) bool { return t.Windows[i].At < t.Windows[j].At })
	return t
}

// rounded is a copy of ps in milliseconds, as the results keep them.
func rounded(ps []results.Phase) []results.Phase {
	out := slices.Clone(ps)
	for i := range out {
		out[i].At, out[i].Seconds = ms(out[i].At), ms(out[i].Seconds)
	}
	return out
}

func ms(s float64) float64 { return float64(time.Duration(s*1e9).Round(time.Millisecond)) / 1e9 }

// observe moves the clock on a trace entry of the run: a workload step
// begins its phase, a fault opens or closes its window.
func (c *clock) observe(e *trace.Entry) {
	switch e.Type {
	case trace.Step:
		if e.Phase == "start" {
			c.enter(e.What, e.Src)
		}
	case trace.Fault:
		c.fault(e)
	}
}

// fault opens or closes the window of an injected action: a stale view
// from stale-on to stale-off, a hold until its release, a pause until the
// controller goes on, a kill until the controller is ready again
// (restarted, which closes it).
func (c *clock) fault(e *trace.Entry) {
	what := ""
	if e.Key != nil {
		what = e.Key.String()
	}
	switch ir.ActionKind(e.What) {
	case ir.ActStaleOn:
		c.openWindow(results.WindowStale, what)
	case ir.ActStaleOff:
		c.closeWindow(results.WindowStale, what)
	case ir.ActHold:
		c.openWindow(results.WindowHold, what)
	case ir.ActRelease:
		c.closeWindow(results.WindowHold, what)
	case ir.ActCrash, ir.ActRestart:
		c.closeWindow(results.WindowPause, "") // the new process runs
		c.openWindow(results.WindowRestart, "")
	case ir.ActPause:
		c.openWindow(results.WindowPause, "")
	case ir.ActResume:
		c.closeWindow(results.WindowPause, "")
	}
}
