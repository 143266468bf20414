package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// roundTripSpec wraps a plan declaration in a spec that runs it.
const roundTripSpec = `controller c {
  command "true"
}

workload w {
  settle
}

%PLAN%
test t {
  controller c
  workloads  [w]
  plans      [p]
}
`

// TestGeneratedPlansRoundTrip holds every plan the generator makes for the
// cases in testdata/cases expressible as a user plan. Written as .sieve
// (planfile's Sieve), compiled, and translated back (FromIR), it has the
// same actions. It has the same plan file but for its name, pattern and
// origin (and a hold's learned bound, which the .sieve form gives as its
// `for`). A stale plan's .sieve form says "appfault stale": compiled for
// running on the same reference trace (Generate), it gets the answer the
// generated plan carries, from the same calls (its why).
func TestGeneratedPlansRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/cases/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	dir := t.TempDir()
	n, stale := 0, 0
	patterns := map[ir.Pattern]int{}
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, test, opts := caseInputs(t, ar)
		set, err := Generate(tr, test, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range set.Plans {
			if p.Pattern == planfile.User {
				continue // written by hand in the case's IR
			}
			if p.Actions[0].AppFault == ir.FaultStale {
				stale++
			}
			n++
			patterns[p.Pattern]++
			roundTrip(t, filepath.Join(dir, p.Name+".sieve"), p, tr)
		}
	}
	if n == 0 {
		t.Fatal("the cases made no plans")
	}
	for _, want := range []ir.Pattern{ir.APIError, ir.AppFault} {
		if patterns[want] == 0 {
			t.Errorf("the cases made no %s plan to write as .sieve", want)
		}
	}
	if stale == 0 {
		t.Error("the cases made no stale appfault plan to write as .sieve")
	}
	t.Logf("%d generated plans written as .sieve and compiled back, %d of them stale", n, stale)
}

// roundTrip writes p as a .sieve spec at path, compiles it, and compares
// the user plan it makes with p's actions; a plan with a stale answer is
// compiled for running on reference trace tr, which gives it its answer.
func roundTrip(t *testing.T, path string, p *planfile.Plan, tr *trace.Trace) {
	t.Helper()
	text, err := p.Sieve("p")
	if err != nil {
		t.Errorf("%s: %v", p.Name, err)
		return
	}
	if err := os.WriteFile(path, []byte(strings.Replace(roundTripSpec, "%PLAN%", text, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, ds := load.Load(path, load.Options{})
	if ds.HasErrors() {
		t.Errorf("%s: the .sieve form does not compile:\n%s\n%v", p.Name, text, ds)
		return
	}
	back, err := FromIR("t", spec.Tests[0].Plans[0])
	if p.Actions[0].AppFault == ir.FaultStale {
		back, err = compiled(tr, spec.Tests[0])
		if err == nil && planfile.Canonical(back.Why) != planfile.Canonical(p.Why) {
			t.Errorf("%s: compiled for running from other calls\ngot:  %s\nwant: %s", p.Name, planfile.Canonical(back.Why), planfile.Canonical(p.Why))
		}
	}
	if err != nil {
		t.Errorf("%s: %v", p.Name, err)
		return
	}
	for _, a := range back.Actions {
		a.Src = ""
	}
	if got, want := planfile.Canonical(back.Actions), planfile.Canonical(asWritten(p.Actions)); got != want {
		t.Errorf("%s: compiled back to other actions\n.sieve:\n%s\ngot:  %s\nwant: %s", p.Name, text, got, want)
	}
}

// compiled is test's one user plan as Generate makes it from tr.
func compiled(tr *trace.Trace, test *ir.Test) (*planfile.Plan, error) {
	set, err := Generate(tr, test, Options{})
	if err != nil {
		return nil, err
	}
	return set.Plans[0], nil
}

// asWritten returns actions as their .sieve form gives them: a hold's
// learned bound becomes its duration.
func asWritten(acts []*planfile.Action) []*planfile.Action {
	out := make([]*planfile.Action, len(acts))
	for i, a := range acts {
		c := *a
		if c.Duration == 0 {
			c.Duration, c.Bound = c.Bound, 0
		}
		out[i] = &c
	}
	return out
}
