package results

import "math"

// Phase is a stretch of one run's time spent on one thing: a phase of the
// run (Phases: one after another, together the whole run) or a fault
// window (Windows: while a fault lasted, overlapping the phases).
type Phase struct {
	// Phase names it: one of the Phase* constants, or a workload step's
	// kind (apply, patch, delete, scale, wait, settle).
	Phase string `json:"phase"`
	// What says which: a workload step's spec position, a fault window's
	// object or scope, why the run settled.
	What string `json:"what,omitempty"`
	// At is when it began, in seconds from the start of the run.
	At float64 `json:"at"`
	// Seconds is how long it lasted.
	Seconds float64 `json:"seconds"`
}

// The phases of a run other than its workload steps, in run order, and
// the kinds of fault window.
const (
	PhaseReset    = "reset"    // the control plane reset to its checkpoint (or replaced)
	PhaseSetup    = "setup"    // history watch, CRDs, namespaces, the proxy
	PhaseStart    = "start"    // the controller started, until it was ready
	PhaseSettle   = "settle"   // a settle step, or the settle after the workload
	PhaseFinish   = "finish"   // the fault ended after the workload (timed actions, holds lifted)
	PhaseConverge = "converge" // rechecking differing objects while the controller may repair them
	PhaseStop     = "stop"     // the controller, proxy and history watch stopped
	PhaseJudge    = "judge"    // the trace read back and compared with the reference
	WindowStale   = "stale"    // a stale view held
	WindowHold    = "hold"     // watch events held
	WindowRestart = "restart"  // the controller killed by the plan, until it was ready again
	WindowPause   = "pause"    // the controller paused by the plan
)

// Timing is where one run's time went.
type Timing struct {
	Phases  []Phase `json:"phases,omitempty"`
	Windows []Phase `json:"windows,omitempty"`
}

// Seconds is the total of the phases.
func (t Timing) Seconds() float64 {
	s := 0.0
	for _, p := range t.Phases {
		s += p.Seconds
	}
	return s
}

// SumPhases adds up the phases of runs by name; nil when they have none.
func SumPhases(runs []Timing) map[string]float64 {
	return sum(runs, func(t Timing) []Phase { return t.Phases })
}

// SumWindows adds up the fault windows of runs by kind; nil when they
// have none.
func SumWindows(runs []Timing) map[string]float64 {
	return sum(runs, func(t Timing) []Phase { return t.Windows })
}

func sum(runs []Timing, of func(Timing) []Phase) map[string]float64 {
	var out map[string]float64
	for _, r := range runs {
		for _, p := range of(r) {
			if out == nil {
				out = map[string]float64{}
			}
			out[p.Phase] = round3(out[p.Phase] + p.Seconds)
		}
	}
	return out
}

// round3 rounds to milliseconds, which is all the JSON files keep.
func round3(s float64) float64 { return math.Round(s*1000) / 1000 }

// Timings are the timings of results' first runs.
func Timings(rs []*Result) []Timing {
	out := make([]Timing, 0, len(rs))
	for _, r := range rs {
		if len(r.Phases) > 0 {
			out = append(out, r.Timing)
		}
	}
	return out
}
