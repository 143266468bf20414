package pipeline

import (
	"encoding/json"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// exploredTest is a test whose workload an explore step expanded into
// (apply the seed, settle, two marked patches each with a settle), then a
// wait of its own.
func exploredTest() *ir.Test {
	src := diag.Range{Start: diag.Position{Filename: "x.sieve", Line: 3, Column: 3}}
	res := ir.Ref{Kind: "thing.demo.sieve.dev", Namespace: "default", Name: "t"}
	target := &ir.Ref{Kind: "thing", Namespace: "default", Name: "t"}
	settle := func() *ir.Step { return &ir.Step{Kind: ir.StepSettle, Src: src} }
	patch := func(path string, v any) *ir.Step {
		return &ir.Step{Kind: ir.StepPatch, Src: src, Target: target, PatchType: ir.PatchMerge, Patch: "{}",
			Explored: &ir.Operation{Resource: res, Path: path, Change: "bound", Value: v}}
	}
	own := &ir.Step{Kind: ir.StepWait, Src: diag.Range{Start: diag.Position{Filename: "x.sieve", Line: 4, Column: 3}}, Target: target}
	return &ir.Test{Name: "t", Workloads: []*ir.Workload{{Name: "w", Steps: []*ir.Step{
		{Kind: ir.StepApply, Src: src, File: "cr.yaml"}, settle(),
		patch("spec.replicas", 1.0), settle(), patch("spec.size", 5.0), settle(), own,
	}}}}
}

// TestExploredGroups holds that the operations of a test's explored
// patch steps are gathered per resource with the steps that made them,
// and counted with the refused ones of a run.
func TestExploredGroups(t *testing.T) {
	gs, err := exploredGroups(exploredTest())
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 || len(gs[0].ex.Operations) != 2 || gs[0].seed == nil || gs[0].seed.File != "cr.yaml" {
		t.Fatalf("groups %+v: want one resource, two operations, the seed's apply", gs)
	}
	g := gs[0]
	if g.ex.Resource.String() != "thing.demo.sieve.dev/default/t" || g.ex.Operations[1].Path.String() != "spec.size" ||
		g.ex.Steps[0] != (oracle.StepID{Workload: "w", Index: 2}) || g.ex.Steps[1] != (oracle.StepID{Workload: "w", Index: 4}) {
		t.Errorf("group %+v", g.ex)
	}
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

// TestDirectTest holds the differential run's workload: the explored
// patches and their settles left out, the seed applied with the fields
// of the resource's final state (not its metadata or status), and the
// workload's own steps kept.
func TestDirectTest(t *testing.T) {
	test := exploredTest()
	gs, err := exploredGroups(test)
	if err != nil {
		t.Fatal(err)
	}
	final := map[string]any{"apiVersion": "demo.sieve.dev/v1", "kind": "Thing",
		"metadata": map[string]any{"name": "t", "namespace": "default"},
		"spec":     map[string]any{"replicas": 1.0, "size": 3.0}, "status": map[string]any{"ready": true}}
	obj, _ := json.Marshal(final)
	key := trace.Key{Kind: "thing.demo.sieve.dev", Namespace: "default", Name: "t"}
	o, err := oracle.New([]*trace.Trace{{Entries: []trace.Entry{{Seq: 1, Type: trace.History, Key: &key, Event: "ADDED", Object: obj}}}}, oracle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, props := directTest(test, gs, o)
	steps := d.Workloads[0].Steps
	if len(steps) != 3 || steps[0].Kind != ir.StepApply || steps[1].Kind != ir.StepSettle || steps[2].Kind != ir.StepWait {
		t.Fatalf("direct steps %+v: want apply, settle, wait", steps)
	}
	if set := steps[0].Set; len(set) != 1 || set[0].Path != "spec" {
		t.Errorf("seed sets %+v: want spec only", set)
	} else if only := set[0].Only; only == nil || *only != (ir.Ref{Kind: key.Kind, Namespace: "default", Name: "t"}) {
		t.Errorf("seed set of spec applies to %v, want the explored resource alone", only)
	}
	if len(test.Workloads[0].Steps) != 7 || test.Workloads[0].Steps[0].Set != nil {
		t.Errorf("the test itself changed: %+v", test.Workloads[0].Steps)
	}
	if len(props) != 2 || props[0] != "spec.replicas" || props[1] != "spec.size" {
		t.Errorf("properties %v", props)
	}
}
