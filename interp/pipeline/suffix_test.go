package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/ir"
)

// TestFromStart holds which plans the suffix stage runs from a
// checkpoint: those of an explored operation after the first with at
// least MinSuffixPlans; the seed's (operation 0), the first operation's
// and those of an operation with fewer run from the start, in their
// order.
func TestFromStart(t *testing.T) {
	ops := map[string]int{}
	var plans []*planfile.Plan
	add := func(op, n int) {
		for i := range n {
			p := &planfile.Plan{Name: fmt.Sprintf("op%d-%d", op, i)}
			ops[p.Name] = op
			plans = append(plans, p)
		}
	}
	add(0, 2)
	add(1, MinSuffixPlans)
	add(2, MinSuffixPlans)
	add(3, MinSuffixPlans-1)
	add(4, MinSuffixPlans+1)
	start, byOp := fromStart(plans, func(p *planfile.Plan) int { return ops[p.Name] })
	names := func(ps []*planfile.Plan) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return strings.Join(out, " ")
	}
	if got, want := names(start), "op0-0 op0-1 op1-0 op1-1 op1-2 op3-0 op3-1"; got != want {
		t.Errorf("plans from the start: %s, want %s", got, want)
	}
	if got := slices.Sorted(maps.Keys(byOp)); !slices.Equal(got, []int{2, 4}) {
		t.Errorf("operations whose plans run from a checkpoint: %v, want [2 4]", got)
	}
	if got, want := names(byOp[4]), "op4-0 op4-1 op4-2 op4-3"; got != want {
		t.Errorf("operation 4's plans: %s, want %s", got, want)
	}
}

// TestFromCheckpoint holds the plans from a checkpoint: each names it,
// and one generated from a suffix reference has a name of its own.
func TestFromCheckpoint(t *testing.T) {
	p := &planfile.Plan{Name: "intermediate-x-1a2b", Pattern: ir.Intermediate}
	renamed := fromCheckpoint([]*planfile.Plan{p}, 2, true)[0]
	kept := fromCheckpoint([]*planfile.Plan{p}, 2, false)[0]
	if renamed.Name != "intermediate-x-1a2b-after-2" || renamed.Checkpoint == nil || renamed.Checkpoint.After != 2 {
		t.Errorf("renamed: %s from %+v, want intermediate-x-1a2b-after-2 from the checkpoint after operation 2", renamed.Name, renamed.Checkpoint)
	}
	if kept.Name != p.Name || kept.Checkpoint == nil || p.Checkpoint != nil {
		t.Errorf("kept: %s from %+v (the original from %+v), want its name, from the checkpoint, the original left as it was", kept.Name, kept.Checkpoint, p.Checkpoint)
	}
}

// TestSplitAfter holds where a test is cut for the checkpoint after
// explored operation k: after its settle, before the next operation's
// patch; there is no cut after the last operation, before the first,
// or in a test of several workloads.
func TestSplitAfter(t *testing.T) {
	steps := []*ir.Step{{Kind: ir.StepApply}, {Kind: ir.StepSettle}}
	for range 3 {
		steps = append(steps, &ir.Step{Kind: ir.StepPatch, Explored: &ir.Operation{}}, &ir.Step{Kind: ir.StepSettle})
	}
	test := &ir.Test{Name: "t", Workloads: []*ir.Workload{{Name: "w", Steps: steps}}}
	prefix, rest, err := splitAfter(test, 2)
	if err != nil {
		t.Fatal(err)
	}
	if p, r := prefix.Workloads[0].Steps, rest.Workloads[0].Steps; len(p) != 6 || len(r) != 2 || r[0] != steps[6] {
		t.Errorf("after operation 2: %d steps and %d, want 6 (seed, settle, two operations and their settles) and 2 (the third)", len(p), len(r))
	}
	if len(test.Workloads[0].Steps) != 8 {
		t.Errorf("the test's workload changed: %d steps", len(test.Workloads[0].Steps))
	}
	for k, want := range map[int]string{3: "no explored operation after operation 3", 0: "no explored operation after operation 0"} {
		if _, _, err := splitAfter(test, k); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("after operation %d: %v, want %q", k, err, want)
		}
	}
	two := &ir.Test{Name: "t", Workloads: []*ir.Workload{test.Workloads[0], test.Workloads[0]}}
	if _, _, err := splitAfter(two, 1); err == nil || !strings.Contains(err.Error(), "2 workloads") {
		t.Errorf("two workloads: %v, want refused", err)
	}
}
