package pipeline

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// exploredTest is a test whose workload an explore step expanded into
// (apply the seed, settle, two marked patches each with a settle), then a
// wait of its own.
func exploredTest() *ir.Test {
	return exploredTestOf(exploredOp{"spec.replicas", 1.0}, exploredOp{"spec.size", 5.0})
}

// exploredOp is the property and new value of an operation of
// exploredTestOf.
type exploredOp struct {
	path  string
	value any
}

// exploredTestOf is exploredTest with the operations ops.
func exploredTestOf(ops ...exploredOp) *ir.Test {
	src := diag.Range{Start: diag.Position{Filename: "x.sieve", Line: 3, Column: 3}}
	res := ir.Ref{Kind: "thing.demo.sieve.dev", Namespace: "default", Name: "t"}
	target := &ir.Ref{Kind: "thing", Namespace: "default", Name: "t"}
	settle := func() *ir.Step { return &ir.Step{Kind: ir.StepSettle, Src: src} }
	steps := []*ir.Step{{Kind: ir.StepApply, Src: src, File: "cr.yaml"}, settle()}
	for _, op := range ops {
		steps = append(steps, &ir.Step{Kind: ir.StepPatch, Src: src, Target: target, PatchType: ir.PatchMerge, Patch: "{}",
			Explored: &ir.Operation{Resource: res, Path: op.path, Change: "bound", Value: op.value}}, settle())
	}
	own := &ir.Step{Kind: ir.StepWait, Src: diag.Range{Start: diag.Position{Filename: "x.sieve", Line: 4, Column: 3}}, Target: target}
	return &ir.Test{Name: "t", Controller: &ir.Controller{}, Workloads: []*ir.Workload{{Name: "w", Steps: append(steps, own)}}}
}

// exploredRun is the trace of a run of test (exploredTestOf): each step's
// start and end, the seed's object (spec replicas 3, size 3) added by the
// apply and changed by each patch but those of the steps refused, whose
// end entries say they were refused.
func exploredRun(test *ir.Test, refused ...int) *trace.Trace {
	key := trace.Key{Kind: "thing.demo.sieve.dev", Namespace: "default", Name: "t"}
	spec := map[string]any{"replicas": 3.0, "size": 3.0}
	tr := &trace.Trace{}
	add := func(e trace.Entry) {
		e.Seq = int64(len(tr.Entries) + 1)
		tr.Entries = append(tr.Entries, e)
	}
	object := func(event string) {
		b, _ := json.Marshal(map[string]any{"apiVersion": "demo.sieve.dev/v1", "kind": "Thing",
			"metadata": map[string]any{"name": "t", "namespace": "default"}, "spec": maps.Clone(spec)})
		add(trace.Entry{Type: trace.History, Key: &key, Event: event, Object: b})
	}
	for i, s := range test.Workloads[0].Steps {
		add(trace.Entry{Type: trace.Step, Workload: "w", Index: i, Phase: "start", What: string(s.Kind)})
		end := trace.Entry{Type: trace.Step, Workload: "w", Index: i, Phase: "end", What: string(s.Kind)}
		switch {
		case s.Kind == ir.StepApply:
			object("ADDED")
		case slices.Contains(refused, i):
			end.Message = trace.Refused + "invalid"
		case s.Explored != nil:
			spec[strings.TrimPrefix(s.Explored.Path, "spec.")] = s.Explored.Value
			object("MODIFIED")
		}
		add(end)
	}
	return tr
}

// exploredRefs are the Refs of test with the reference run tr.
func exploredRefs(t *testing.T, test *ir.Test, tr *trace.Trace) *Refs {
	t.Helper()
	refs := &Refs{Test: test, Traces: []*trace.Trace{tr}}
	var err error
	if refs.Masks, err = Masks(test); err != nil {
		t.Fatal(err)
	}
	if refs.Oracle, err = oracle.New(refs.Traces, oracle.Options{Masks: refs.Masks.Oracle}); err != nil {
		t.Fatal(err)
	}
	return refs
}

// TestExploredCounts holds the operations counted in a run, the refused
// ones among them, and the summary's counts with the merged ones; none for
// a test that explores nothing.
func TestExploredCounts(t *testing.T) {
	tr := &trace.Trace{Entries: []trace.Entry{
		{Type: trace.Step, Workload: "w", Index: 2, Phase: "end", What: "patch"},
		{Type: trace.Step, Workload: "w", Index: 4, Phase: "end", What: "patch", Message: trace.Refused + "invalid"},
	}}
	if gen, ref := ExploredCounts(exploredTest(), tr); gen != 2 || ref != 1 {
		t.Errorf("counts: %d generated, %d refused; want 2 and 1", gen, ref)
	}
	c := exploredCounts(exploredTest(), tr, []plan.Operation{{Number: 1}, {Number: 2, Refused: true}})
	if c == nil || c.String() != "2 operations generated, 1 refused, 1 run, 0 merged" {
		t.Errorf("summary counts %v", c)
	}
	if c := exploredCounts(&ir.Test{Name: "t"}, tr, nil); c != nil {
		t.Errorf("summary counts of a test that explores nothing: %v, want none", c)
	}
}

// TestDirectStates holds the differential oracle's states: the final one,
// and the state after an operation that set a property to a value the
// final state no longer has (spec.replicas 1, set to 2 later), its
// reference the run up to it; never the state after a refused operation,
// nor one whose value stays.
func TestDirectStates(t *testing.T) {
	test := exploredTestOf(exploredOp{"spec.replicas", 1.0}, exploredOp{"spec.size", 5.0}, exploredOp{"spec.replicas", 2.0})
	gs, err := exploredGroups(test)
	if err != nil {
		t.Fatal(err)
	}
	states, err := directStates(exploredRefs(t, test, exploredRun(test)), gs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(states) != 2 || states[0].name != DirectPlan || states[0].upto != nil || states[1].name != DirectPlan+"-1" {
		t.Fatalf("states %+v: want explored-direct and explored-direct-1", states)
	}
	st := states[1]
	if *st.upto != (oracle.StepID{Workload: "w", Index: 2}) || st.what != "the state after operation 1 (spec.replicas bound 1)" {
		t.Errorf("state %+v: want the one after the patch step 2, operation 1", st)
	}
	key := trace.Key{Kind: "thing.demo.sieve.dev", Namespace: "default", Name: "t"}
	if obj, _ := st.ref.End(key); obj == nil || fmt.Sprint(obj["spec"]) != "map[replicas:1 size:3]" {
		t.Errorf("the reference of state 1 ends with %v, want spec replicas 1, size 3", obj)
	}
	d, props := directTest(test, gs, st.ref, st.upto)
	steps := d.Workloads[0].Steps
	if len(steps) != 2 || steps[0].Kind != ir.StepApply || steps[1].Kind != ir.StepSettle {
		t.Fatalf("direct steps of state 1 %+v: want apply, settle (the steps after operation 1 left out)", steps)
	}
	if set := steps[0].Set; len(set) != 1 || fmt.Sprint(set[0].Value) != "map[replicas:1 size:3]" {
		t.Errorf("seed sets %+v: want the spec after operation 1", set)
	}
	if len(props) != 1 || props[0] != "spec.replicas" {
		t.Errorf("properties of state 1: %v, want spec.replicas", props)
	}
	desc := directDescription(gs, st, exploredOperations(test, exploredRun(test)), "rerun")
	if desc.After != 1 || len(desc.Operations) != 1 || len(desc.Applied) != 1 || fmt.Sprint(desc.Applied[0].Fields) != "map[spec:map[replicas:1 size:3]]" {
		t.Errorf("explored.json of state 1: %+v; want operation 1 and the spec after it applied", desc)
	}

	states, err = directStates(exploredRefs(t, test, exploredRun(test, 2)), gs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(states) != 1 {
		t.Errorf("operation 1 refused: states %+v, want the final one only", states)
	}
}

// TestDirectStatesClause holds the states an explore step's states clause
// picks (carried by its seed's apply step): none, the final state alone;
// all, the state after each operation but a refused one; a number, the
// first so many of those; the default rule, those whose value the final
// state no longer has.
func TestDirectStatesClause(t *testing.T) {
	for _, c := range []struct {
		states  *ir.States
		refused []int
		want    []string
	}{
		{nil, nil, []string{DirectPlan, DirectPlan + "-1"}},
		{&ir.States{Rule: ir.StatesNone}, nil, []string{DirectPlan}},
		{&ir.States{Rule: ir.StatesEvery}, nil, []string{DirectPlan, DirectPlan + "-1", DirectPlan + "-2", DirectPlan + "-3"}},
		{&ir.States{Rule: ir.StatesEvery}, []int{4}, []string{DirectPlan, DirectPlan + "-1", DirectPlan + "-3"}},
		{&ir.States{Rule: ir.StatesEvery, Max: 2}, nil, []string{DirectPlan, DirectPlan + "-1", DirectPlan + "-2"}},
	} {
		test := exploredTestOf(exploredOp{"spec.replicas", 1.0}, exploredOp{"spec.size", 5.0}, exploredOp{"spec.replicas", 2.0})
		test.Workloads[0].Steps[0].States = c.states
		gs, err := exploredGroups(test)
		if err != nil {
			t.Fatal(err)
		}
		states, err := directStates(exploredRefs(t, test, exploredRun(test, c.refused...)), gs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, st := range states {
			got = append(got, st.name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("states %+v, refused %v: %v, want %v", c.states, c.refused, got, c.want)
		}
	}
}

// TestExploreShard holds that the results of the Explore stage are units
// of the shard split: each runs in one shard of several, and a shard
// without them runs none. The explored run's result has what a
// plan's has: its trace (reference run 1's), explored.json (the
// operations, the refused one with its answer) and a command that runs
// it again, in its findings too.
func TestExploreShard(t *testing.T) {
	test := exploredTest()
	tr := exploredRun(test, 4)
	refs := exploredRefs(t, test, tr)
	var judged, none Shard // of three: explored alone, and none of the two results
	for i := 1; i <= 3; i++ {
		switch s := (Shard{i, 3}); {
		case s.hasExplored("t", 0) && !s.hasExplored("t", 1):
			judged = s
		case !s.hasExplored("t", 0) && !s.hasExplored("t", 1):
			none = s
		}
	}
	if judged.Of == 0 || none.Of == 0 {
		t.Fatalf("of 3 shards, explored and explored-direct are not in two of them: %v %v", judged, none)
	}
	out := results.Layout{Root: t.TempDir()}
	writeTrace(t, out.ReferenceTrace(1), tr)
	env := Env{Spec: "/specs/x.sieve"} // no workers: a differential run would fail
	rs, err := Explore(t.Context(), env, refs, out, judged)
	if err != nil || len(rs) != 1 || rs[0].Plan != ExploredPlan {
		t.Fatalf("shard %s: results %v, %v; want explored alone", judged, rs, err)
	}
	desc, err := results.ReadExplored(out, ExploredPlan)
	if err != nil {
		t.Fatal(err)
	}
	if want := "sieve run /specs/x.sieve --test t --pattern explore"; desc.Rerun != want || len(desc.Operations) != 2 {
		t.Errorf("explored.json %+v: want two operations and the command %q", desc, want)
	} else if op := desc.Operations[1]; op.Operation != 2 || op.Path != "spec.size" || op.Refused != "invalid" || desc.Operations[0].Refused != "" {
		t.Errorf("operations %+v: want the second, spec.size, refused", desc.Operations)
	}
	if len(rs[0].Findings) == 0 {
		t.Errorf("no findings: want operation 1's consistency finding (no object changed)")
	}
	for _, f := range rs[0].Findings {
		if f.Reproduce != desc.Rerun {
			t.Errorf("finding %s: reproduce %q, want %q", f.Message, f.Reproduce, desc.Rerun)
		}
	}
	if got, err := trace.Read(filepath.Join(out.PlanDir(ExploredPlan), results.TraceFile)); err != nil || len(got.Entries) != len(tr.Entries) {
		t.Errorf("the explored run's trace beside its result: %v", err)
	}
	if rs, err := Explore(t.Context(), env, refs, out, none); err != nil || len(rs) != 0 {
		t.Errorf("shard %s: results %v, %v; want none", none, rs, err)
	}
}

// writeTrace writes tr to path, creating its directory.
func writeTrace(t *testing.T, path string, tr *trace.Trace) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	w, err := trace.Create(path, tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tr.Entries {
		if _, err := w.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestExploreUnitsSplit holds the units the Explore stage makes for the
// shard split, as a campaign counts them: the explored run (0), the final
// state (1) and the state after operation 1 (2), or no state on the way
// with states none, none for a test that explores nothing; and Split,
// which counts them in the shards that run them beside the plans: three
// units over three shards, one each, with no plan at all (a campaign
// counted plans alone, so none).
func TestExploreUnitsSplit(t *testing.T) {
	test := exploredTestOf(exploredOp{"spec.replicas", 1.0}, exploredOp{"spec.size", 5.0}, exploredOp{"spec.replicas", 2.0})
	units, err := ExploreUnits(exploredRefs(t, test, exploredRun(test)))
	if err != nil || !slices.Equal(units, []int{0, 1, 2}) {
		t.Fatalf("units %v (%v), want [0 1 2]", units, err)
	}
	test.Workloads[0].Steps[0].States = &ir.States{Rule: ir.StatesNone}
	if units, err := ExploreUnits(exploredRefs(t, test, exploredRun(test))); err != nil || !slices.Equal(units, []int{0, 1}) {
		t.Errorf("states none: units %v (%v), want [0 1]", units, err)
	}
	plain := &ir.Test{Name: "t", Workloads: []*ir.Workload{{Name: "w"}}}
	if units, err := ExploreUnits(exploredRefs(t, plain, &trace.Trace{})); err != nil || units != nil {
		t.Errorf("a test that explores nothing: units %v (%v), want none", units, err)
	}
	if got := Split("t", nil, []int{0, 1, 2}, 3, 0); !slices.Equal(got, []int{1, 1, 1}) {
		t.Errorf("three units over three shards: %v, want one each", got)
	}
}
