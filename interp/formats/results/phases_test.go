package results

import (
	"math"
	"testing"
)

// TestPhasesAddUp checks the timing of the fixture's plans: phases one
// after another, none negative, adding up to about the run's seconds.
func TestPhasesAddUp(t *testing.T) {
	s, err := Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	timed := 0
	for _, r := range s.Results {
		if len(r.Phases) == 0 {
			continue
		}
		timed++
		end := 0.0
		for _, p := range r.Phases {
			if p.Seconds < 0 || p.At < end-0.001 {
				t.Errorf("%s: phase %s at %gs for %gs: negative, or before the one before ended (%gs)", r.Plan, p.Phase, p.At, p.Seconds, end)
			}
			end = p.At + p.Seconds
		}
		if got := r.Timing.Seconds(); math.Abs(got-r.Seconds) > 0.05*r.Seconds {
			t.Errorf("%s: phases add up to %.3fs, the run took %.3fs", r.Plan, got, r.Seconds)
		}
	}
	if timed == 0 {
		t.Fatal("no plan of the fixture has phases")
	}
}
