package oracle

import (
	"encoding/json"
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestCheckDifferentialState holds the differential finding's message:
// it names the state applied at once, the final one or the one after an
// operation, and the properties the sequence changed.
func TestCheckDifferentialState(t *testing.T) {
	key := trace.Key{Kind: "statefulset", Namespace: "default", Name: "ds"}
	run := func(replicas float64) *trace.Trace {
		b, _ := json.Marshal(map[string]any{"metadata": map[string]any{"name": "ds", "namespace": "default"}, "spec": map[string]any{"replicas": replicas}})
		return &trace.Trace{Entries: []trace.Entry{{Seq: 1, Type: trace.History, Key: &key, Event: "ADDED", Object: b}}}
	}
	o, err := New([]*trace.Trace{run(3)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for state, want := range map[string]string{
		"": "statefulset/default/ds: spec.replicas is 4 with the final state applied at once, 3 after the explored sequence",
		"the state after operation 1 (spec.replicas bound 1)": "statefulset/default/ds: spec.replicas is 4 with the state after operation 1 (spec.replicas bound 1) applied at once, 3 after the explored sequence up to it",
	} {
		fs, err := o.CheckDifferential(run(4), []string{"spec.replicas"}, state)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) != 1 || fs[0].Check != CheckDifferential || fs[0].Message != want || fs[0].Property != "spec.replicas" {
			t.Errorf("state %q: findings %+v; want one differential finding %q", state, fs, want)
		}
	}
}
