package inject

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// TestHoldBoundOfTheAction holds that a hold action's Duration, or else
// the Bound its plan learned from the references, not MaxHold, bounds it:
// with a MaxHold of an hour, a hold for 100ms is lifted and the trace
// names its bound.
func TestHoldBoundOfTheAction(t *testing.T) {
	for _, learned := range []bool{false, true} {
		p := holdPodPlan()
		if learned {
			p.Actions[0].Bound = ir.Duration(100 * time.Millisecond)
		} else {
			p.Actions[0].Duration = ir.Duration(100 * time.Millisecond)
		}
		px := &fakeProxy{}
		var mu sync.Mutex
		var faults []trace.Entry
		in, err := New(Options{Plan: p, Proxy: px, Controller: &fakeController{}, MaxHold: time.Hour, Stall: time.Hour,
			Sink: func(e trace.Entry) { mu.Lock(); faults = append(faults, e); mu.Unlock() }})
		if err != nil {
			t.Fatal(err)
		}
		in.Start(context.Background())
		k := holdUpdate(t, in)
		if !lifted(in, k, 5*time.Second, func() {}) {
			t.Fatalf("learned %v: still holding 5s after a bound of 100ms", learned)
		}
		in.Stop()
		mu.Lock()
		last := faults[len(faults)-1]
		mu.Unlock()
		if last.What != "release" || !strings.Contains(last.Message, "within 100ms") {
			t.Errorf("learned %v: last fault %+v, want a release naming the 100ms bound", learned, last)
		}
	}
}

// TestHoldNotLiftedDuringElseContinueWait holds that a wait which goes on
// when it times out does not let a still cluster lift a hold early: only
// a wait that would fail does.
func TestHoldNotLiftedDuringElseContinueWait(t *testing.T) {
	in, err := New(Options{Plan: holdPodPlan(), Proxy: &stillProxy{}, Controller: &fakeController{}, MaxHold: time.Hour, Stall: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	in.Start(context.Background())
	defer in.Stop()
	k := holdUpdate(t, in)
	in.Observe(trace.Entry{Type: trace.Step, What: "wait", Phase: "start", Message: trace.ElseContinue})
	time.Sleep(500 * time.Millisecond)
	if !in.held(k) {
		t.Fatal("hold lifted during a wait that goes on when it times out")
	}
	in.Observe(trace.Entry{Type: trace.Step, What: "wait", Phase: "end"})
	in.Observe(trace.Entry{Type: trace.Step, What: "wait", Phase: "start"})
	if !lifted(in, k, 5*time.Second, func() {}) {
		t.Fatal("hold not lifted during a wait that fails when it times out")
	}
}

// TestStaleAtEarlierEvent freezes the view at the revision the controller
// had been shown when the at event came (the second update of the
// object), not at the latest one, in a user plan (no Why).
func TestStaleAtEarlierEvent(t *testing.T) {
	ds := &ir.Ref{Kind: "configmap", Namespace: "default", Name: "ds"}
	p := &planfile.Plan{Name: "p", Pattern: planfile.User, Actions: []*planfile.Action{
		{Kind: ir.ActStaleOn, Scope: ds, At: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: ds, Count: 2},
			Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "delete", Target: ds}},
	}}
	in, _, px, faults := start(t, p)
	k := trace.Key{Kind: "configmap", Namespace: "default", Name: "ds"}
	for _, ev := range []proxy.Event{
		{Type: "ADDED", Key: k, ResourceVersion: "10", Object: configMap("10", "a")},
		{Type: "MODIFIED", Key: k, ResourceVersion: "11", Object: configMap("11", "b")},
		{Type: "MODIFIED", Key: k, ResourceVersion: "12", Object: configMap("12", "c")},
		{Type: "MODIFIED", Key: k, ResourceVersion: "13", Object: configMap("13", "d")},
		{Type: "DELETED", Key: k, ResourceVersion: "14", Object: configMap("14", "d")},
	} {
		in.Hooks().Filter(nil, &ev)
	}
	in.Stop()
	if len(px.stale) != 1 || px.stale[0] != "configmap/default/ds@12" {
		t.Errorf("stale views %v, want configmap/default/ds@12 (the second update)", px.stale)
	}
	if len(*faults) == 0 || !strings.Contains((*faults)[0].Message, "when on update configmap/default/ds #2 came") {
		t.Errorf("faults %+v, want the stale-on to say which event it was frozen at", *faults)
	}
}

// TestRestartingUntilFirstRequest holds that a controller the plan killed
// counts as restarting, not quiet, until a request of the restarted
// process arrives; requests of the old process (sent before the kill) do
// not count.
func TestRestartingUntilFirstRequest(t *testing.T) {
	p := &planfile.Plan{Name: "p", Pattern: ir.Intermediate, Actions: []*planfile.Action{{
		Kind: ir.ActCrash, Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "delete", Target: pvc},
	}}}
	in, _, _, _ := start(t, p)
	hooks := in.Hooks()
	key := trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"}
	old := &proxy.Request{Verb: "get", Resource: "persistentvolumeclaims", Key: key, Start: time.Now()}
	if err := hooks.Before(context.Background(), old); err != nil || in.Restarting() {
		t.Fatalf("before any kill: err %v, restarting %v", err, in.Restarting())
	}
	del := &proxy.Request{Verb: "delete", Resource: "persistentvolumeclaims", Key: key, Start: time.Now()}
	_ = hooks.After(context.Background(), del, &proxy.Response{Code: 200, Body: obj("data-ds-0", "6", nil)})
	if !in.Restarting() {
		t.Fatal("not restarting right after the crash")
	}
	if err := hooks.Before(context.Background(), old); err != nil || !in.Restarting() {
		t.Errorf("a request sent before the kill ended the restart: err %v", err)
	}
	fresh := &proxy.Request{Verb: "list", Resource: "persistentvolumeclaims", Key: trace.Key{Kind: "persistentvolumeclaim", Namespace: "default"}, Start: time.Now()}
	if err := hooks.Before(context.Background(), fresh); err != nil || in.Restarting() {
		t.Errorf("the restarted controller's first request: err %v, restarting %v", err, in.Restarting())
	}
}

// TestStaleAtNeverCame holds that a stale-on action whose at event never
// came freezes nothing (not the latest state) and says so in a Fault
// entry that does not count as fired: the plan was not injected.
func TestStaleAtNeverCame(t *testing.T) {
	ds := &ir.Ref{Kind: "configmap", Namespace: "default", Name: "ds"}
	at := &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: ds, Count: 5}
	p := &planfile.Plan{Name: "p", Pattern: planfile.User, Actions: []*planfile.Action{
		{Kind: ir.ActStaleOn, Scope: ds, At: at, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "delete", Target: ds}},
	}}
	in, _, px, faults := start(t, p)
	k := trace.Key{Kind: "configmap", Namespace: "default", Name: "ds"}
	for _, ev := range []proxy.Event{
		{Type: "ADDED", Key: k, ResourceVersion: "10", Object: configMap("10", "a")},
		{Type: "MODIFIED", Key: k, ResourceVersion: "11", Object: configMap("11", "b")},
		{Type: "DELETED", Key: k, ResourceVersion: "12", Object: configMap("12", "b")},
	} {
		in.Hooks().Filter(nil, &ev)
	}
	in.Stop()
	if len(px.stale) != 0 {
		t.Errorf("stale views %v, want none: the freeze point never came", px.stale)
	}
	want := "the test run never came to its freeze point: on update configmap/default/ds #5"
	if len(*faults) != 1 || (*faults)[0].What != trace.Missed || (*faults)[0].Message != want {
		t.Fatalf("faults %+v, want one %s entry saying %q", *faults, trace.Missed, want)
	}
	tr := &trace.Trace{Header: trace.Header{Actions: 1}, Entries: *faults}
	if i := oracle.Unfired(tr); i != 0 {
		t.Errorf("unfired %d, want 0: the stale-on missed", i)
	}
}

// configMap is configmap/default/ds at revision rv with data v.
func configMap(rv, v string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "ds", "namespace": "default", "resourceVersion": rv}, "data": map[string]any{"v": v}})
	return b
}

// TestStaleAtBeforeAnyState holds that a stale-on action whose at event
// came before the controller had been shown any state of its scope
// freezes nothing either, and says so.
func TestStaleAtBeforeAnyState(t *testing.T) {
	ds := &ir.Ref{Kind: "configmap", Namespace: "default", Name: "ds"}
	other := &ir.Ref{Kind: "pod", Namespace: "default", Name: "x"}
	p := &planfile.Plan{Name: "p", Pattern: planfile.User, Actions: []*planfile.Action{
		{Kind: ir.ActStaleOn, Scope: ds, At: &planfile.Trigger{Op: ir.TrigEvent, On: "create", Target: other},
			Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "delete", Target: ds}},
	}}
	in, _, px, faults := start(t, p)
	k := trace.Key{Kind: "configmap", Namespace: "default", Name: "ds"}
	for _, ev := range []proxy.Event{
		{Type: "ADDED", Key: trace.Key{Kind: "pod", Namespace: "default", Name: "x"}, ResourceVersion: "9", Object: obj("x", "9", nil)},
		{Type: "ADDED", Key: k, ResourceVersion: "10", Object: configMap("10", "a")},
		{Type: "DELETED", Key: k, ResourceVersion: "11", Object: configMap("11", "a")},
	} {
		in.Hooks().Filter(nil, &ev)
	}
	in.Stop()
	want := "the controller had been shown no state of configmap/default/ds when its freeze point came: on create pod/default/x"
	if len(px.stale) != 0 || len(*faults) != 1 || (*faults)[0].What != trace.Missed || (*faults)[0].Message != want {
		t.Errorf("stale views %v, faults %+v; want none and one %s entry saying %q", px.stale, *faults, trace.Missed, want)
	}
}
