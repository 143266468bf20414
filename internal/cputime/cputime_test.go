package cputime

import "testing"

// TestUsedGrows holds that work shows in Used: a process that computes
// for a while has used more CPU time than before.
func TestUsedGrows(t *testing.T) {
	start := Used()
	x := 0
	for i := 0; Used() == start && i < 1e9; i++ {
		x += i
	}
	if Used() <= start {
		t.Errorf("CPU time did not grow after a loop (%d)", x)
	}
}
