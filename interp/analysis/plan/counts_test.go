package plan

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/ir"
)

// TestCountsWidth holds the counts table to a golden and to CountsWidth
// columns: three policies of the standard library side by side, then a
// test with more columns than fit, which continue in a second block.
func TestCountsWidth(t *testing.T) {
	passes := func(left ...int) []PassCount {
		var out []PassCount
		for i, p := range passOrder(nil) {
			switch {
			case i >= len(left) || left[i] < -1:
				continue // does not apply
			case left[i] == -1:
				out = append(out, PassCount{Pass: p, On: false})
			default:
				out = append(out, PassCount{Pass: p, On: true, Left: left[i]})
			}
		}
		return out
	}
	std := []Count{
		{Policy: "faults.intermediate", Pattern: "intermediate", Baseline: 34, Passes: passes(-2, -1, 32, 25, 20, 19, -2, 19, -1), Final: 19},
		{Policy: "faults.stale", Pattern: "stale", Baseline: 1075, Passes: passes(-2, -1, 1075, 1075, 1075, 211, 211, 211, -1), Final: 150},
		{Policy: "faults.unobserved", Pattern: "unobserved", Baseline: 43, Passes: passes(35, -1, -2, 35, 35, 27, -2, 27, 10), Final: 10},
	}
	wide := append(std, Count{Policy: "faults.stale_deletes_of_the_datastore_pvcs", Pattern: "stale", Baseline: 7, Passes: passes(-2, 7, 7, 7, 7, 3, 3, 3, -1), Final: 3},
		Count{Policy: "user", Pattern: "user", Baseline: 1, Final: 1})
	var got bytes.Buffer
	for _, c := range [][]Count{std, wide} {
		var b bytes.Buffer
		if err := WriteCounts(&b, c); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if len(line) > CountsWidth {
				t.Errorf("line of %d columns, more than %d:\n%s", len(line), CountsWidth, line)
			}
		}
		got.Write(b.Bytes())
		got.WriteString("----\n")
	}
	if n := strings.Count(got.String(), "\nbaseline"); n != 3 {
		t.Errorf("%d blocks, want 3 (one for the standard policies, two for the wide test)", n)
	}
	golden.File(t, filepath.Join("testdata", "counts.txt"), got.Bytes())
}

// TestNoPlansPass holds that when pruning drops every candidate of a
// pattern, the reason names the pass that dropped the last ones, and that
// a pattern with plans gets no line.
func TestNoPlansPass(t *testing.T) {
	c := Count{Policy: "p", Pattern: "intermediate", Baseline: 7, Passes: []PassCount{
		{Pass: PassFilter, On: false, Left: 7},
		{Pass: PassFailed, On: true, Left: 3},
		{Pass: PassNoOp, On: true, Left: 0},
		{Pass: PassCausality, On: true, Left: 0},
	}}
	c.NoPlans = (&generator{}).noPlans(ir.Intermediate, c)
	want := "intermediate: no plans: pruning dropped all 7 candidates: the noop pass dropped the last 3 " +
		"(it drops changes that are empty after masking; sieve plan --explain says why each was dropped) (policy p)"
	if got := NoPlans([]Count{c, {Policy: "q", Pattern: "stale", Baseline: 2, Final: 1}}); len(got) != 1 || got[0] != want {
		t.Errorf("NoPlans = %q, want [%q]", got, want)
	}
}
