package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/workload"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// at is a spec range on line line of spec.sieve.
func at(line, col int) diag.Range {
	p := diag.Position{Filename: "spec.sieve", Line: line, Column: col}
	return diag.Range{Start: p, End: p}
}

// TestStepFailureNamesStepAndEntry holds that a workload step that fails
// in a reference run is a SpecError naming the step's position and the
// trace entry where the step ended, and that an error that is no step's
// stays an ordinary error.
func TestStepFailureNamesStepAndEntry(t *testing.T) {
	tr := &trace.Trace{Entries: []trace.Entry{
		{Seq: 1, Type: trace.Step, Phase: "start", What: "wait"},
		{Seq: 2, Type: trace.History, Key: &trace.Key{Kind: "configmap", Namespace: "default", Name: "a"}},
		{Seq: 3, Type: trace.Step, Phase: "end", What: "wait", Error: "timed out"},
	}}
	err := stepFailure(&workload.StepError{Src: at(7, 3), Kind: ir.StepWait, Err: errors.New("configmap/default/x exists: timed out after 1s")}, tr, "ref/trace.jsonl", 2)
	var es SpecErrors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("stepFailure = %v, want one SpecError", err)
	}
	e := es[0]
	if e.Seq != 3 || e.Run != 2 || e.Src != at(7, 3) {
		t.Errorf("SpecError = %+v; want seq 3, run 2, at spec.sieve:7:3", e)
	}
	want := "spec.sieve:7:3: reference run 2: wait: configmap/default/x exists: timed out after 1s (trace entry 3), in ref/trace.jsonl ("
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error:\n%s\nwant it to start with\n%s", err, want)
	}
	if err := stepFailure(errors.New("workload: no config"), tr, "x", 1); errors.As(err, &es) {
		t.Errorf("an error of no step is a SpecError: %v", err)
	}
}

// TestBrokenInvariants holds that an invariant the reference run breaks,
// or cannot evaluate, is a SpecError naming the invariant's position and
// the history entry after which it broke; one that holds is not.
func TestBrokenInvariants(t *testing.T) {
	invs := []*ir.Invariant{
		{Name: "holds", Src: at(10, 11), Expr: `objects("configmap", "default").size() <= 2`, When: ir.Always},
		{Name: "none", Src: at(11, 11), Expr: `objects("configmap", "default").size() == 0`, When: ir.Always},
		{Name: "missing", Src: at(12, 11), Expr: `objects("configmap", "default").all(c, c.data.v == "1")`, When: ir.AtEnd},
	}
	cm := func(seq int64, name string) trace.Entry {
		return trace.Entry{Seq: seq, Type: trace.History, Event: "ADDED", Key: &trace.Key{Kind: "configmap", Namespace: "default", Name: name},
			Object: []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "` + name + `", "namespace": "default"}}`)}
	}
	tr := &trace.Trace{Entries: []trace.Entry{{Seq: 1, Type: trace.Step, Phase: "start"}, cm(2, "a"), cm(3, "b")}}
	o, err := oracle.New([]*trace.Trace{tr}, oracle.Options{Invariants: invs, Context: context.Background()})
	if err != nil {
		t.Fatal(err)
	}
	err = brokenInvariants(o, invs, []*trace.Trace{tr}, []string{"ref/trace.jsonl"})
	var es SpecErrors
	if !errors.As(err, &es) {
		t.Fatalf("brokenInvariants = %v, want SpecErrors", err)
	}
	if len(es) != 2 {
		t.Fatalf("got %d errors, want 2 (none, missing):\n%v", len(es), err)
	}
	if es[0].Src != at(11, 11) || es[0].Seq != 2 || !strings.Contains(es[0].What, `invariant "none" is false at trace entry 2`) {
		t.Errorf("first: %+v", es[0])
	}
	if es[1].Src != at(12, 11) || !strings.Contains(es[1].What, `invariant "missing" could not be evaluated`) {
		t.Errorf("second: %+v", es[1])
	}
	// two uses of one invariant with parameters: the one that breaks is
	// named with its arguments and placed at its own source
	nArg := func(n int64) []ir.Arg { return []ir.Arg{{Name: "n", Value: n}} }
	uses := []*ir.Invariant{
		{Name: "at_most", Src: at(20, 3), Expr: `objects("configmap", "default").size() <= n`, When: ir.Always, Args: nArg(5)},
		{Name: "at_most", Src: at(21, 3), Expr: `objects("configmap", "default").size() <= n`, When: ir.Always, Args: nArg(1)},
	}
	o, err = oracle.New([]*trace.Trace{tr}, oracle.Options{Invariants: uses})
	if err != nil {
		t.Fatal(err)
	}
	err = brokenInvariants(o, uses, []*trace.Trace{tr}, []string{"x"})
	if !errors.As(err, &es) || len(es) != 1 || es[0].Src != at(21, 3) || !strings.Contains(es[0].What, "invariant at_most(n = 1) is false at trace entry 3") {
		t.Errorf("invariant with arguments: %v", err)
	}
	o, err = oracle.New([]*trace.Trace{tr}, oracle.Options{Invariants: invs[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if err := brokenInvariants(o, invs[:1], []*trace.Trace{tr}, []string{"x"}); err != nil {
		t.Errorf("an invariant that holds: %v", err)
	}
}
