package plan

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// cancelTrace is a reference run in which the controller sees a pod
// created, then marked for deletion, and the deletion itself gap later
// (a workload whose pod takes its termination grace).
func cancelTrace(t *testing.T, run int, gap time.Duration) *trace.Trace {
	t.Helper()
	k := trace.Key{Kind: "pod", Namespace: "default", Name: "web-0"}
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	pod := func(rv string, deleting bool) json.RawMessage {
		md := map[string]any{"name": "web-0", "namespace": "default", "resourceVersion": rv}
		if deleting {
			md["deletionTimestamp"] = "2026-12-01T09:00:01Z"
		}
		b, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": md})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ev := func(seq int64, at time.Duration, typ, rv string, deleting bool) trace.Entry {
		return trace.Entry{Seq: seq, Time: t0.Add(at), Type: trace.Delivery, Key: &k, Event: typ, ResourceVersion: rv, Object: pod(rv, deleting)}
	}
	return &trace.Trace{Header: trace.Header{Run: run}, Entries: []trace.Entry{
		ev(1, 0, "ADDED", "1", false),
		ev(2, time.Second, "MODIFIED", "2", true),
		ev(3, time.Second+gap, "DELETED", "3", true),
	}}
}

// TestHoldBound holds the bound of a generated hold to the references. It
// holds the pod's deletionTimestamp, whose deletion came 40 s later in one
// reference run and 25 s later in another. The hold lasts at most twice
// the longer plus ir.DefaultHoldFor (1m30s, not the fixed 10 s that lifted
// it before the cancelling event came). A policy's hold_for still wins.
func TestHoldBound(t *testing.T) {
	m, err := observe.Masks(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		gaps   []time.Duration // the first is the run the plans are made from
		policy ir.Duration
		want   ir.Duration // the hold's Duration or Bound
	}{
		{"one run", []time.Duration{40 * time.Second}, 0, ir.Duration(90 * time.Second)},
		{"longest over runs", []time.Duration{25 * time.Second, 40 * time.Second}, 0, ir.Duration(90 * time.Second)},
		{"the run's own is longest", []time.Duration{40 * time.Second, 25 * time.Second}, 0, ir.Duration(90 * time.Second)},
		{"rounded up", []time.Duration{1200 * time.Millisecond}, 0, ir.Duration(13 * time.Second)},
		{"policy hold_for", []time.Duration{40 * time.Second}, ir.Duration(5 * time.Second), ir.Duration(5 * time.Second)},
	} {
		g := &generator{ix: newIndex(cancelTrace(t, 1, c.gaps[0]), m)}
		for i, gap := range c.gaps[1:] {
			g.others = append(g.others, newIndex(cancelTrace(t, i+2, gap), m))
		}
		cand := &candidate{event: g.ix.delivByKey[trace.Key{Kind: "pod", Namespace: "default", Name: "web-0"}][1]}
		if !g.cancelled(&ir.Policy{HoldFor: c.policy}, cand) {
			t.Fatalf("%s: the deletionTimestamp is not cancelled", c.name)
		}
		hold := cand.build().Actions[0]
		got, learned := hold.Duration, hold.Bound
		if c.policy == 0 {
			got, learned = hold.Bound, hold.Duration
		}
		if got != c.want || learned != 0 {
			t.Errorf("%s: hold duration %s, bound %s; want %s", c.name, hold.Duration, hold.Bound, c.want)
		}
		if (cand.bound == "") != (c.policy > 0) {
			t.Errorf("%s: explain says %q", c.name, cand.bound)
		}
	}
}
