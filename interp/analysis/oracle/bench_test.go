package oracle

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// syntheticTrace builds a run with n objects spread over the given kinds,
// each added and modified three times: 4n history entries.
func syntheticTrace(n int, plan string, kinds ...string) *trace.Trace {
	if len(kinds) == 0 {
		kinds = []string{"statefulset"}
	}
	t := &trace.Trace{Header: trace.Header{Trace: trace.Version, Test: "bench", Plan: plan}}
	seq := int64(0)
	add := func(event string, i, gen int) {
		seq++
		obj := map[string]any{
			"metadata": map[string]any{"name": fmt.Sprintf("obj-%d", i), "namespace": "default",
				"uid": fmt.Sprintf("%s-%d", plan, i), "resourceVersion": fmt.Sprint(seq),
				"creationTimestamp": "2026-12-02T10:00:00Z", "labels": map[string]any{"app": "x"}},
			"spec":   map[string]any{"replicas": 3, "template": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "i:1"}}}},
			"status": map[string]any{"ready": gen, "podIP": "10.0.0.1"},
		}
		b, _ := json.Marshal(obj)
		t.Entries = append(t.Entries, trace.Entry{Seq: seq, Time: time.Unix(seq, 0), Type: trace.History,
			Key: &trace.Key{Kind: kinds[i%len(kinds)], Namespace: "default", Name: fmt.Sprintf("obj-%d", i)}, Event: event, Object: b})
	}
	for i := 0; i < n; i++ {
		add("ADDED", i, 0)
	}
	for g := 1; g <= 3; g++ {
		for i := 0; i < n; i++ {
			add("MODIFIED", i, g)
		}
	}
	return t
}

var benchMasks = []*ir.Mask{{Name: "std", Rules: []*ir.MaskRule{
	{Key: "uid"}, {Key: "resourceVersion"}, {Value: "timestamp"}, {Value: "ip"},
}}}

// BenchmarkCheck compares a 2,000-entry test run with two references.
func BenchmarkCheck(b *testing.B) {
	refs := []*trace.Trace{syntheticTrace(500, ""), syntheticTrace(500, "")}
	o, err := New(refs, Options{Masks: benchMasks})
	if err != nil {
		b.Fatal(err)
	}
	test := syntheticTrace(500, "p")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := o.Check(test); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckInvariant adds one "always" invariant over statefulsets to
// a 2,000-entry run of four kinds: it is evaluated again only when a
// statefulset changes (500 states, 125 statefulsets each).
func BenchmarkCheckInvariant(b *testing.B) {
	benchInvariant(b, 500, "statefulset", "pod", "configmap", "service")
}

// BenchmarkCheckInvariantWorst is the worst case: every one of 400 states
// changes the kind the invariant reads (100 statefulsets).
func BenchmarkCheckInvariantWorst(b *testing.B) {
	benchInvariant(b, 100, "statefulset")
}

func benchInvariant(b *testing.B, n int, kinds ...string) {
	refs := []*trace.Trace{syntheticTrace(n, "", kinds...)}
	inv := []*ir.Invariant{{Name: "replicas", When: ir.Always,
		Expr: `objects("statefulset", "default").all(s, s.spec.replicas <= 3)`}}
	o, err := New(refs, Options{Masks: benchMasks, Invariants: inv})
	if err != nil {
		b.Fatal(err)
	}
	test := syntheticTrace(n, "p", kinds...)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := o.Check(test); err != nil {
			b.Fatal(err)
		}
	}
}
