package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// mergeRun is an explored run of four operations on webapp/default/web,
// each a patch step and a settle. The controller answers the first two
// (two log levels) alike, an update of the data of its config map (whose
// watch event the second's trace holds before the write), and the third
// (replicas) with an update of its deployment's spec; the fourth,
// refused, has no reaction at all.
func mergeRun(t *testing.T) (*trace.Trace, *ir.Test) {
	t.Helper()
	cr := trace.Key{Kind: "webapp.demo.sieve.dev", Namespace: "default", Name: "web"}
	cm := trace.Key{Kind: "configmap", Namespace: "default", Name: "web-config"}
	dep := trace.Key{Kind: "deployment", Namespace: "default", Name: "web"}
	tr := &trace.Trace{Header: trace.Header{Test: "t", Run: 1}}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	add := func(e trace.Entry) {
		at = at.Add(10 * time.Millisecond)
		if e.Time.IsZero() {
			e.Time = at
		}
		e.Seq = int64(len(tr.Entries) + 1)
		tr.Entries = append(tr.Entries, e)
	}
	rv := 0
	obj := func(k trace.Key, fields map[string]any) json.RawMessage {
		rv++
		o := map[string]any{"metadata": map[string]any{"name": k.Name, "namespace": k.Namespace, "resourceVersion": rv}}
		for f, v := range fields {
			o[f] = v
		}
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	deliver := func(k trace.Key, event string, fields map[string]any) {
		add(trace.Entry{Type: trace.Delivery, Key: &k, Event: event, Object: obj(k, fields)})
	}
	// write records a request sent ago before it is recorded.
	write := func(k trace.Key, verb string, fields map[string]any, ago time.Duration) {
		b := obj(k, fields)
		add(trace.Entry{Type: trace.Request, Time: at.Add(10*time.Millisecond - ago), Key: &k, Verb: verb, Code: 200, Body: b, Response: b})
	}
	step := func(i int, what, phase, msg string) {
		add(trace.Entry{Type: trace.Step, Workload: "explored", Index: i, What: what, Phase: phase, Message: msg})
	}
	spec := func(level string, replicas int) map[string]any {
		return map[string]any{"spec": map[string]any{"logLevel": level, "replicas": replicas}}
	}
	step(0, "apply", "start", "")
	deliver(cr, "ADDED", spec("info", 1))
	write(cm, "create", map[string]any{"data": map[string]any{"conf": "log-level info"}}, 0)
	deliver(cm, "ADDED", map[string]any{"data": map[string]any{"conf": "log-level info"}})
	write(dep, "create", map[string]any{"spec": map[string]any{"replicas": 1}}, 0)
	deliver(dep, "ADDED", map[string]any{"spec": map[string]any{"replicas": 1}})
	step(0, "apply", "end", "")
	step(1, "settle", "start", "")
	step(1, "settle", "end", "")
	for i, op := range []struct {
		spec     map[string]any
		react    trace.Key
		fields   map[string]any
		refused  bool
		explored ir.Operation
	}{
		{spec("debug", 1), cm, map[string]any{"data": map[string]any{"conf": "log-level debug"}}, false, ir.Operation{Path: "spec.logLevel", Change: "enum", Value: "debug"}},
		{spec("warn", 1), cm, map[string]any{"data": map[string]any{"conf": "log-level warn"}}, false, ir.Operation{Path: "spec.logLevel", Change: "enum", Value: "warn"}},
		{spec("warn", 2), dep, map[string]any{"spec": map[string]any{"replicas": 2}}, false, ir.Operation{Path: "spec.replicas", Change: "beside", Value: 2.0}},
		{nil, cm, nil, true, ir.Operation{Path: "spec.replicas", Change: "bound", Value: 0.0}},
	} {
		patch := 2 + 2*i
		step(patch, "patch", "start", "")
		msg := ""
		if op.refused {
			msg = trace.Refused + "422 spec.replicas: must be at least 1"
		} else {
			deliver(cr, "MODIFIED", op.spec)
			if i == 1 { // the proxy may record the write's own event before the write, sent before it
				deliver(op.react, "MODIFIED", op.fields)
				write(op.react, "update", op.fields, 15*time.Millisecond)
			} else {
				write(op.react, "update", op.fields, 0)
				deliver(op.react, "MODIFIED", op.fields)
			}
		}
		step(patch, "patch", "end", msg)
		step(patch+1, "settle", "start", "")
		step(patch+1, "settle", "end", "")
	}
	return tr, mergeTest(cr)
}

// mergeTest is the test of mergeRun: its workload the steps an explore
// step expands into, and the intermediate pattern with no pruning.
func mergeTest(cr trace.Key) *ir.Test {
	res := ir.Ref{Kind: cr.Kind, Namespace: cr.Namespace, Name: cr.Name}
	steps := []*ir.Step{{Kind: ir.StepApply}, {Kind: ir.StepSettle}}
	for _, op := range []ir.Operation{
		{Path: "spec.logLevel", Change: "enum", Value: "debug"},
		{Path: "spec.logLevel", Change: "enum", Value: "warn"},
		{Path: "spec.replicas", Change: "beside", Value: 2.0},
		{Path: "spec.replicas", Change: "bound", Value: 0.0},
	} {
		op.Resource = res
		steps = append(steps, &ir.Step{Kind: ir.StepPatch, Explored: &op}, &ir.Step{Kind: ir.StepSettle})
	}
	pol := &ir.Policy{Name: "p", Patterns: []ir.Pattern{ir.Intermediate}}
	return &ir.Test{Name: "t", Workloads: []*ir.Workload{{Name: "explored", Steps: steps}}, Policies: []*ir.Policy{pol}}
}

// TestMergeOperations holds that two operations whose controller
// reactions have the same shape (the same write to the same object,
// changing the same paths, with other values) merge, that one whose
// reaction differs does not, and that a refused one merges with none.
// The intermediate pattern then crashes after the first operation's
// write and the third's, not the second's, which the merged pass drops.
func TestMergeOperations(t *testing.T) {
	tr, test := mergeRun(t)
	set, err := Generate(tr, test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, op := range set.Operations {
		got = append(got, op.What+" into "+itoa(op.MergedInto)+" refused "+map[bool]string{true: "yes", false: "no"}[op.Refused])
	}
	want := []string{
		`spec.logLevel enum "debug" into 0 refused no`,
		`spec.logLevel enum "warn" into 1 refused no`,
		`spec.replicas beside 2 into 0 refused no`,
		`spec.replicas bound 0 into 0 refused yes`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("operations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := Merged(set.Operations); n != 1 {
		t.Errorf("%d merged, want 1", n)
	}
	notes := MergeNotes(set.Operations)
	if len(notes) != 1 || !strings.HasPrefix(notes[0], `explored operation 2 (spec.logLevel enum "warn") merged into operation 1 (spec.logLevel enum "debug")`) {
		t.Errorf("merge notes %q, want one of operation 2 into 1", notes)
	}
	kept, merged := 0, 0
	for _, c := range set.Candidates {
		switch {
		case c.Pass == PassMerged && strings.Contains(c.Evidence, "merged into operation 1"):
			merged++
		case c.Plan != "":
			kept++
		}
	}
	if kept != 4 || merged != 1 {
		t.Errorf("%d candidates made plans and %d were dropped as merged, want 4 (two creates, two updates) and 1:\n%+v", kept, merged, set.Candidates)
	}
}

// itoa formats n for a test's message.
func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestOperationOf holds where each plan of mergeRun fires, as the suffix
// stage asks (sieve run --reuse-prefix): the crashes after the seed's two
// creates in no operation (0), the one after the first operation's config
// map update in operation 1, the one after the third's deployment update
// in operation 3; a plan made from no trace entry, or from entries of two
// operations, in none; and a set read back from a file knows no
// stretches.
func TestOperationOf(t *testing.T) {
	tr, test := mergeRun(t)
	set, err := Generate(tr, test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range set.Plans {
		got = append(got, fmt.Sprintf("%s %d", p.Why[0].Key, set.OperationOf(p)))
	}
	want := []string{
		"configmap/default/web-config 0",
		"deployment/default/web 0",
		"configmap/default/web-config 1",
		"deployment/default/web 3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("plans and their operations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	first, third := set.Plans[2], set.Plans[3]
	across := *third
	across.Why = append(slices.Clone(first.Why), third.Why...)
	if n := set.OperationOf(&across); n != 0 {
		t.Errorf("a plan made from entries of operations 1 and 3: in operation %d, want 0", n)
	}
	if n := set.OperationOf(&planfile.Plan{Name: "user"}); n != 0 {
		t.Errorf("a plan made from no entry: in operation %d, want 0", n)
	}
	if n := (&Set{Plans: set.Plans, Operations: set.Operations}).OperationOf(third); n != 0 {
		t.Errorf("a set read back: operation %d, want 0 (no stretches)", n)
	}
}
