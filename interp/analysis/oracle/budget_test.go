package oracle

import (
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
)

// TestInvariantRunBudget evaluates a nested invariant, each evaluation
// well within its own budget, over the 600 states of a run. Past the
// run's budget (SIEVE_CEL_RUN_TIME) the invariant is evaluated no more.
// Its finding says which budget ran out and how to raise it, where the
// run took as long as its states made it.
func TestInvariantRunBudget(t *testing.T) {
	t.Setenv(celenv.RunTimeEnv, "200ms")
	inv := []*ir.Invariant{{Name: "same", When: ir.Always,
		Expr: `objects("statefulset", "default").all(a, objects("statefulset", "default").all(b, a.spec.replicas == b.spec.replicas))`}}
	o, err := New([]*trace.Trace{syntheticTrace(150, "")}, Options{Masks: benchMasks, Invariants: inv})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	fs, err := o.Check(syntheticTrace(150, "p"))
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	want := "evaluations over the run's states exceeded their time budget of 200ms together (simplify it, or raise the budget with SIEVE_CEL_RUN_TIME=DURATION)"
	var found bool
	for _, f := range fs {
		found = found || f.Check == CheckInvariant && strings.Contains(f.Message, want)
	}
	if !found {
		t.Fatalf("no finding with %q among %d (took %s)", want, len(fs), took)
	}
	t.Logf("stopped after %s", took)
}
