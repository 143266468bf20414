package report

import (
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/formats/results"
)

// TestWriteTimeWent checks the terminal's "time went to" lines: shares
// of the total, most first, medians per run, fault windows apart.
func TestWriteTimeWent(t *testing.T) {
	runs := []results.Timing{
		{Phases: []results.Phase{{Phase: "start", Seconds: 1}, {Phase: "wait", Seconds: 3}, {Phase: "judge", Seconds: 0.001}}},
		{Phases: []results.Phase{{Phase: "start", Seconds: 2}, {Phase: "wait", Seconds: 4}}, Windows: []results.Phase{{Phase: results.WindowStale, Seconds: 2.5}}},
	}
	var b strings.Builder
	WriteTimeWent(&b, "plan", runs)
	want := "time went to (2 plans, 10.0s in all): wait 70%, start 30%\n" +
		"  median per plan: wait 3.50s, start 1.50s\n" +
		"  fault windows, during those: stale view held 2.5s\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
	b.Reset()
	WriteTimeWent(&b, "plan", nil)
	if b.Len() != 0 {
		t.Errorf("runs without phases: got %q, want nothing", b.String())
	}
	if got := results.SumPhases(runs); got["wait"] != 7 || got["judge"] != 0.001 {
		t.Errorf("SumPhases = %v", got)
	}
}
