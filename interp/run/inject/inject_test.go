package inject

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

type fakeController struct {
	mu              sync.Mutex
	kills, restarts int
	pauses, resumes int
}

func (c *fakeController) Kill() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kills++
	return nil
}

func (c *fakeController) Pause() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pauses++
	return nil
}

func (c *fakeController) Resume() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.resumes++
	return nil
}

func (c *fakeController) Restart(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.restarts++
	return nil
}

type fakeProxy struct {
	stale    []string
	resumed  []proxy.Scope
	released int
}

func (p *fakeProxy) StaleView(s proxy.Scope, rv string) error {
	p.stale = append(p.stale, s.Kind+"/"+s.Namespace+"/"+s.Name+"@"+rv)
	return nil
}
func (p *fakeProxy) Resume(s proxy.Scope) int { p.resumed = append(p.resumed, s); return 0 }
func (p *fakeProxy) Release(func(*proxy.Stream, *proxy.Event) bool) int {
	p.released++
	return 0
}
func (p *fakeProxy) WaitReleased(context.Context, trace.Key) error { return nil }
func (p *fakeProxy) Activity() proxy.Activity                      { return proxy.Activity{Last: time.Now()} }

func start(t *testing.T, p *planfile.Plan) (*Injector, *fakeController, *fakeProxy, *[]trace.Entry) {
	t.Helper()
	c, px := &fakeController{}, &fakeProxy{}
	var faults []trace.Entry
	in, err := New(Options{Plan: p, Proxy: px, Controller: c, Sink: func(e trace.Entry) { faults = append(faults, e) },
		Errors: func(err error) { t.Errorf("action failed: %v", err) }})
	if err != nil {
		t.Fatal(err)
	}
	in.Start(context.Background())
	t.Cleanup(in.Stop)
	return in, c, px, &faults
}

var pvc = &ir.Ref{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"}

func obj(name, rv string, extra map[string]any) json.RawMessage {
	m := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name, "namespace": "default", "resourceVersion": rv}}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

func TestCrashAfterWriteDropsTheAnswer(t *testing.T) {
	p := &planfile.Plan{Name: "p", Pattern: ir.Intermediate, Actions: []*planfile.Action{{
		Kind:    ir.ActCrash,
		Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "delete", Target: pvc},
	}}}
	in, c, _, faults := start(t, p)
	hooks := in.Hooks()
	get := &proxy.Request{Verb: "get", Resource: "persistentvolumeclaims", Key: trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"}}
	if err := hooks.After(context.Background(), get, &proxy.Response{Code: 200, Body: obj("data-ds-0", "5", nil)}); err != nil {
		t.Fatalf("a read was aborted: %v", err)
	}
	del := &proxy.Request{Verb: "delete", Resource: "persistentvolumeclaims", Key: get.Key}
	err := hooks.After(context.Background(), del, &proxy.Response{Code: 200, Body: obj("data-ds-0", "6", nil)})
	if !errors.Is(err, proxy.ErrAbort) {
		t.Fatalf("the crashing write was answered: %v", err)
	}
	in.Stop()
	if c.kills != 1 || c.restarts != 1 {
		t.Errorf("kills %d, restarts %d; want 1 and 1", c.kills, c.restarts)
	}
	if !in.Injected() || len(*faults) != 1 || (*faults)[0].What != "crash" {
		t.Errorf("injected %v, faults %+v", in.Injected(), *faults)
	}
}

func TestFailedWriteDoesNotCrash(t *testing.T) {
	p := &planfile.Plan{Name: "p", Actions: []*planfile.Action{{
		Kind:    ir.ActCrash,
		Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "delete", Target: pvc},
	}}}
	in, c, _, _ := start(t, p)
	del := &proxy.Request{Verb: "delete", Resource: "persistentvolumeclaims", Key: trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"}}
	if err := in.Hooks().After(context.Background(), del, &proxy.Response{Code: 404}); err != nil {
		t.Fatalf("a failed write was aborted: %v", err)
	}
	if c.kills != 0 || in.Injected() {
		t.Errorf("a failed write fired the crash (kills %d)", c.kills)
	}
}

// holdPodPlan hides the updates of pod ds-1 until it is deleted.
func holdPodPlan() *planfile.Plan {
	pod := &ir.Ref{Kind: "pod", Namespace: "default", Name: "ds-1"}
	return &planfile.Plan{Name: "p", Pattern: ir.Unobserved, Actions: []*planfile.Action{
		{Kind: ir.ActHold, Scope: pod, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: pod}},
		{Kind: ir.ActRelease, Scope: pod, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "delete", Target: pod}},
	}}
}

// holdUpdate shows the injector of holdPodPlan an update of pod ds-1,
// which it must hold, and returns the pod's key.
func holdUpdate(t *testing.T, in *Injector) trace.Key {
	t.Helper()
	k := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-1"}
	ev := proxy.Event{Type: "MODIFIED", Key: k, ResourceVersion: "2", Object: obj("ds-1", "2", nil)}
	if v := in.Hooks().Filter(nil, &ev); v != proxy.Hold || !in.Holding() {
		t.Fatalf("verdict %d, holding %v: want hold", v, in.Holding())
	}
	return k
}

// lifted reports whether the hold on k ends within d, calling meanwhile
// every 20ms.
func lifted(in *Injector, k trace.Key, d time.Duration, meanwhile func()) bool {
	for end := time.Now().Add(d); in.held(k); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
		meanwhile()
	}
	return true
}

func TestHoldAndCoalesce(t *testing.T) {
	p := holdPodPlan()
	in, _, _, _ := start(t, p)
	f := in.Hooks().Filter
	k := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-1"}
	other := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-0"}
	steps := []struct {
		ev   proxy.Event
		want proxy.Verdict
	}{
		{proxy.Event{Type: "ADDED", Key: k, ResourceVersion: "1", Object: obj("ds-1", "1", nil)}, proxy.Deliver},
		{proxy.Event{Type: "MODIFIED", Key: k, ResourceVersion: "2", Object: obj("ds-1", "2", map[string]any{"spec": map[string]any{"x": 1}})}, proxy.Hold},
		{proxy.Event{Type: "MODIFIED", Key: other, ResourceVersion: "3", Object: obj("ds-0", "3", nil)}, proxy.Deliver},
		{proxy.Event{Type: "MODIFIED", Key: k, ResourceVersion: "4", Object: obj("ds-1", "4", map[string]any{"spec": map[string]any{"x": 2}})}, proxy.Hold},
		{proxy.Event{Type: "DELETED", Key: k, ResourceVersion: "5", Object: obj("ds-1", "5", nil)}, proxy.Supersede},
	}
	for i, s := range steps {
		ev := s.ev
		if got := f(nil, &ev); got != s.want {
			t.Errorf("event %d (%s %s): verdict %d, want %d", i, ev.Type, ev.Key, got, s.want)
		}
		// A second stream watching the same object gets the same verdict.
		if got := f(nil, &ev); got != s.want {
			t.Errorf("event %d again: verdict %d, want %d", i, got, s.want)
		}
	}
	if !in.Injected() {
		t.Error("plan not injected")
	}
}

func TestStaleViewUsesThisRunsRevision(t *testing.T) {
	ds := &ir.Ref{Kind: "datastore.example.com", Namespace: "default", Name: "ds"}
	deleting := map[string]any{"metadata": map[string]any{"deletionTimestamp": "2026-01-01T00:00:00Z"}}
	p := &planfile.Plan{Name: "p", Pattern: ir.Stale,
		Actions: []*planfile.Action{
			{Kind: ir.ActStaleOn, Scope: ds, Revision: "999", Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "create", Target: pvc, Seen: planfile.SeenCluster}},
			{Kind: ir.ActRestart},
		},
		Why: []planfile.Why{{Role: "event", Key: "datastore.example.com/default/ds", Verb: "update", Occurrence: 1}},
	}
	in, c, px, _ := start(t, p)
	k := trace.Key{Kind: "datastore.example.com", Namespace: "default", Name: "ds"}
	mk := func(rv string, extra map[string]any) json.RawMessage {
		m := map[string]any{"apiVersion": "example.com/v1", "kind": "DataStore", "metadata": map[string]any{"name": "ds", "namespace": "default", "resourceVersion": rv}}
		if extra != nil {
			m["metadata"].(map[string]any)["deletionTimestamp"] = "2026-01-01T00:00:00Z"
		}
		b, _ := json.Marshal(m)
		return b
	}
	f := in.Hooks().Filter
	for _, ev := range []proxy.Event{
		{Type: "ADDED", Key: k, ResourceVersion: "10", Object: mk("10", nil)},
		{Type: "MODIFIED", Key: k, ResourceVersion: "17", Object: mk("17", deleting)},
		{Type: "DELETED", Key: k, ResourceVersion: "18", Object: mk("18", deleting)},
		{Type: "ADDED", Key: k, ResourceVersion: "30", Object: mk("30", nil)},
	} {
		f(nil, &ev)
	}
	// The plan's diff is what the tracker computes for the deletion update.
	in.mu.Lock()
	for _, r := range in.revs {
		if r.rev == "17" {
			p.Why[0].Diff = r.obs.Diff
		}
	}
	in.mu.Unlock()
	in.Observe(trace.Entry{Type: trace.History, Key: &trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"}, Event: "ADDED", ResourceVersion: "31", Object: obj("data-ds-0", "31", nil)})
	in.Stop()
	if len(px.stale) != 1 || px.stale[0] != "datastore.example.com/default/ds@17" {
		t.Errorf("stale views %v, want the deleting state at revision 17", px.stale)
	}
	if c.kills != 1 || c.restarts != 1 {
		t.Errorf("kills %d restarts %d, want 1 and 1", c.kills, c.restarts)
	}
}

func TestHoldExpires(t *testing.T) {
	p := holdPodPlan()
	c, px := &fakeController{}, &fakeProxy{}
	var mu sync.Mutex
	var faults []trace.Entry
	in, err := New(Options{Plan: p, Proxy: px, Controller: c, MaxHold: 50 * time.Millisecond,
		Sink: func(e trace.Entry) { mu.Lock(); faults = append(faults, e); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	in.Start(context.Background())
	k := holdUpdate(t, in)
	if !lifted(in, k, 5*time.Second, func() {}) {
		t.Error("still holding 5s after a MaxHold of 50ms")
	}
	in.Stop()
	mu.Lock()
	defer mu.Unlock()
	if px.released != 1 || len(faults) != 2 || faults[1].What != "release" {
		t.Errorf("released %d times, faults %+v", px.released, faults)
	}
}

// stillProxy is a proxy through which nothing has passed for an hour.
type stillProxy struct{ fakeProxy }

func (p *stillProxy) Activity() proxy.Activity {
	return proxy.Activity{Last: time.Now().Add(-time.Hour)}
}

// TestStalledHoldIsLifted lifts a hold once, while the workload waits,
// neither the controller nor the cluster has moved for Stall, long before
// MaxHold. A workload step other than a wait, and changes in the cluster,
// keep it in place; lease renewals do not.
func TestStalledHoldIsLifted(t *testing.T) {
	px := &stillProxy{}
	var mu sync.Mutex
	var faults []trace.Entry
	in, err := New(Options{Plan: holdPodPlan(), Proxy: px, Controller: &fakeController{}, MaxHold: time.Hour, Stall: time.Second,
		Sink: func(e trace.Entry) { mu.Lock(); faults = append(faults, e); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	in.Start(context.Background())
	defer in.Stop()
	k := holdUpdate(t, in)
	step := func(what, phase string) { in.Observe(trace.Entry{Type: trace.Step, What: what, Phase: phase}) }
	step("settle", "start") // the workload takes its time: nothing waits for the held state yet
	time.Sleep(2 * time.Second)
	if !in.held(k) {
		t.Fatal("hold lifted while the workload was not waiting")
	}
	step("settle", "end")
	step("wait", "start")
	change := func(kind string) {
		in.Observe(trace.Entry{Type: trace.History, Key: &trace.Key{Kind: kind, Namespace: "default", Name: "x"}, Event: "MODIFIED"})
	}
	for range 100 { // 2s of changes in the cluster, each 20ms after the last: well within Stall on a busy machine
		change("configmap")
		time.Sleep(20 * time.Millisecond)
	}
	if !in.held(k) {
		t.Fatal("hold lifted while the cluster was changing")
	}
	renewals := 0
	renew := func() {
		renewals++
		renewed := time.Date(2026, 12, 6, 10, 0, renewals, 0, time.UTC).Format(time.RFC3339Nano)
		lease := fmt.Sprintf(`{"metadata":{"name":"op-lock","namespace":"default","resourceVersion":"%d"},"spec":{"holderIdentity":"op-a","leaseDurationSeconds":15,"renewTime":%q}}`, renewals, renewed)
		in.Observe(trace.Entry{Type: trace.History, Key: &trace.Key{Kind: "lease", Namespace: "default", Name: "op-lock"}, Event: "MODIFIED", Object: []byte(lease)})
	}
	if !lifted(in, k, 5*time.Second, renew) {
		t.Fatal("still holding after 5s of lease renewals only, with a Stall of 1s")
	}
	in.Stop()
	mu.Lock()
	defer mu.Unlock()
	last := faults[len(faults)-1]
	if px.released != 1 || last.What != "release" || !strings.Contains(last.Message, "nothing moved") {
		t.Errorf("released %d times, last fault %+v", px.released, last)
	}
}

// lockedProxy is a proxy through which nothing has passed for an hour,
// whose controller waits for a leader-election lock until until.
type lockedProxy struct {
	fakeProxy
	until time.Time
}

func (p *lockedProxy) Activity() proxy.Activity {
	return proxy.Activity{Last: time.Now().Add(-time.Hour), LockWait: p.until}
}

// TestHoldWhileWaitingForLock keeps a hold in place while the workload
// waits and everything is still, as long as the controller waits for a
// leader-election lock. (It is not running yet: nothing of what it would
// do has been seen.) It lifts the hold once the wait is over.
func TestHoldWhileWaitingForLock(t *testing.T) {
	px := &lockedProxy{until: time.Now().Add(3 * time.Second)}
	in, err := New(Options{Plan: holdPodPlan(), Proxy: px, Controller: &fakeController{}, MaxHold: time.Hour, Stall: 100 * time.Millisecond, Quiet: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	in.Start(context.Background())
	defer in.Stop()
	k := holdUpdate(t, in)
	in.Observe(trace.Entry{Type: trace.Step, What: "wait", Phase: "start"})
	if lifted(in, k, 700*time.Millisecond, func() {}) {
		t.Fatal("hold lifted while the controller waited for its lock")
	}
	if !lifted(in, k, 7*time.Second, func() {}) {
		t.Fatal("hold still in place 4s after the controller's lock wait ended")
	}
}

// TestHoldWhileClusterPending keeps a stalled hold in place while the
// cluster has work of its own scheduled (Options.Pending: a pod in its
// termination grace), and lifts it once the cluster is done.
func TestHoldWhileClusterPending(t *testing.T) {
	var busy atomic.Bool
	busy.Store(true)
	in, err := New(Options{Plan: holdPodPlan(), Proxy: &stillProxy{}, Controller: &fakeController{}, MaxHold: time.Hour,
		Stall: 100 * time.Millisecond, Quiet: 50 * time.Millisecond, Pending: busy.Load})
	if err != nil {
		t.Fatal(err)
	}
	in.Start(context.Background())
	defer in.Stop()
	k := holdUpdate(t, in)
	in.Observe(trace.Entry{Type: trace.Step, What: "wait", Phase: "start"})
	if lifted(in, k, 500*time.Millisecond, func() {}) {
		t.Fatal("hold lifted while the cluster had work scheduled")
	}
	busy.Store(false)
	if !lifted(in, k, 5*time.Second, func() {}) {
		t.Fatal("hold still in place 5s after the cluster's work was done")
	}
}

// TestHiddenDeletionRefusesWrites holds a StatefulSet's deletion from the
// controller. While it is hidden, the controller's writes about the
// StatefulSet (to it, or creating objects it owns) are refused with a
// conflict and traced. Other writes pass, and so does everything once the
// re-creation releases the hold.
func TestHiddenDeletionRefusesWrites(t *testing.T) {
	sts := &ir.Ref{Kind: "statefulset", Namespace: "default", Name: "web"}
	p := &planfile.Plan{Name: "p", Pattern: ir.Unobserved, Actions: []*planfile.Action{
		{Kind: ir.ActHold, Scope: sts, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "delete", Target: sts}},
		{Kind: ir.ActRelease, Scope: sts, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "create", Target: sts}},
	}}
	in, _, _, entries := start(t, p)
	h := in.Hooks()
	k := trace.Key{Kind: "statefulset", Namespace: "default", Name: "web"}
	owned := json.RawMessage(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"1","controller":true}]}}`)
	writes := []*proxy.Request{
		{Verb: "create", Resource: "pods", Key: trace.Key{Kind: "pod", Namespace: "default", Name: "web-0"}, Body: owned},
		{Verb: "update", Resource: "statefulsets", Subresource: "status", Key: k},
		{Verb: "create", Resource: "configmaps", Key: trace.Key{Kind: "configmap", Namespace: "default", Name: "other"}, Body: json.RawMessage(`{"metadata":{"name":"other"}}`)},
	}
	refused := func() []bool {
		var out []bool
		for _, w := range writes {
			err := h.Before(context.Background(), w)
			var se *proxy.StatusError
			if err != nil && (!errors.As(err, &se) || se.Code != http.StatusConflict) {
				t.Fatalf("%s %s: %v, want a conflict or nothing", w.Verb, w.Key, err)
			}
			out = append(out, err != nil)
		}
		return out
	}
	if got := refused(); !slices.Equal(got, []bool{false, false, false}) {
		t.Errorf("before the hold: refused %v, want none", got)
	}
	del := proxy.Event{Type: "DELETED", Key: k, ResourceVersion: "5", Object: obj("web", "5", nil)}
	if v := h.Filter(nil, &del); v != proxy.Hold {
		t.Fatalf("deletion: verdict %d, want hold", v)
	}
	if got := refused(); !slices.Equal(got, []bool{true, true, false}) {
		t.Errorf("while the deletion is hidden: refused %v, want the owned pod and the status update", got)
	}
	n := 0
	for _, e := range *entries {
		if e.Type == trace.Fault && e.What == "refuse" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d refuse entries in the trace, want 2", n)
	}
	add := proxy.Event{Type: "ADDED", Key: k, ResourceVersion: "7", Object: obj("web", "7", nil)}
	if v := h.Filter(nil, &add); v != proxy.Supersede {
		t.Fatalf("re-creation: verdict %d, want supersede", v)
	}
	if got := refused(); !slices.Equal(got, []bool{false, false, false}) {
		t.Errorf("after the release: refused %v, want none", got)
	}
}

// TestEndHolds lifts a hold whose cancelling event never came when the
// workload is over, and says so in the trace.
func TestEndHolds(t *testing.T) {
	p := holdPodPlan()
	in, _, px, faults := start(t, p)
	in.endHolds() // nothing held: nothing to do
	holdUpdate(t, in)
	in.endHolds()
	if in.Holding() || px.released != 1 {
		t.Errorf("after endHolds: holding %v, released %d times", in.Holding(), px.released)
	}
	last := (*faults)[len(*faults)-1]
	if last.What != "release" || !strings.Contains(last.Message, "workload is over") {
		t.Errorf("last fault entry %+v, want the release", last)
	}
}

// blockingProxy holds WaitReleased until release is closed.
type blockingProxy struct {
	fakeProxy
	release chan struct{}
}

func (p *blockingProxy) WaitReleased(ctx context.Context, _ trace.Key) error {
	select {
	case <-p.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestWaitingCountsHeldReads counts a get of a held object among the
// requests Waiting for as long as it is held.
func TestWaitingCountsHeldReads(t *testing.T) {
	p := holdPodPlan()
	px := &blockingProxy{release: make(chan struct{})}
	in, err := New(Options{Plan: p, Proxy: px, Controller: &fakeController{}})
	if err != nil {
		t.Fatal(err)
	}
	in.Start(context.Background())
	defer in.Stop()
	k := holdUpdate(t, in)
	done := make(chan error)
	go func() {
		done <- in.Hooks().Before(context.Background(), &proxy.Request{Verb: "get", Resource: "pods", Key: k})
	}()
	deadline := time.Now().Add(5 * time.Second)
	for in.Waiting() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("Waiting() = %d, want 1 while the get is held", in.Waiting())
		}
		time.Sleep(time.Millisecond)
	}
	close(px.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := in.Waiting(); n != 0 {
		t.Errorf("Waiting() = %d after the release, want 0", n)
	}
}

// TestStaleViewFindsTheSameState freezes the view at the delivery whose
// whole masked state is the plan's. It does not freeze at the first one
// that made the same change from another state (a status change seen
// before the spec change in this run, after it in the reference).
func TestStaleViewFindsTheSameState(t *testing.T) {
	sts := &ir.Ref{Kind: "statefulset", Namespace: "default", Name: "web"}
	p := &planfile.Plan{Name: "p", Pattern: ir.Stale,
		Actions: []*planfile.Action{
			{Kind: ir.ActStaleOn, Scope: sts, Revision: "999", Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "create", Target: pvc, Seen: planfile.SeenCluster}},
			{Kind: ir.ActRestart},
		},
	}
	in, _, px, _ := start(t, p)
	k := trace.Key{Kind: "statefulset", Namespace: "default", Name: "web"}
	mk := func(rv string, spec, ready int) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet",
			"metadata": map[string]any{"name": "web", "namespace": "default", "resourceVersion": rv},
			"spec":     map[string]any{"replicas": spec}, "status": map[string]any{"readyReplicas": ready}})
		return b
	}
	f := in.Hooks().Filter
	for _, ev := range []proxy.Event{
		{Type: "ADDED", Key: k, ResourceVersion: "10", Object: mk("10", 5, 4)},
		{Type: "MODIFIED", Key: k, ResourceVersion: "11", Object: mk("11", 5, 5)}, // ready 4→5 with 5 wanted
		{Type: "MODIFIED", Key: k, ResourceVersion: "12", Object: mk("12", 1, 4)},
		{Type: "MODIFIED", Key: k, ResourceVersion: "13", Object: mk("13", 1, 5)}, // ready 4→5 with 1 wanted
	} {
		f(nil, &ev)
	}
	// The plan was made from the second ready 4→5: same diff, other state.
	in.mu.Lock()
	for _, r := range in.revs {
		if r.rev == "13" {
			p.Why = []planfile.Why{{Role: "event", Key: "statefulset/default/web", Verb: "update", Diff: r.obs.Diff, Occurrence: 1,
				State: observe.StateHash(r.obs.Object)}}
		}
	}
	in.mu.Unlock()
	in.Observe(trace.Entry{Type: trace.History, Key: &trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"}, Event: "ADDED", ResourceVersion: "31", Object: obj("data-ds-0", "31", nil)})
	in.Stop()
	if len(px.stale) != 1 || px.stale[0] != "statefulset/default/web@13" {
		t.Errorf("stale views %v, want the state with one replica wanted, at revision 13", px.stale)
	}
}

// TestFinish ends a plan whose last action a timer fires when the workload
// is over, and leaves alone one that waits for an event.
func TestFinish(t *testing.T) {
	scope := &ir.Ref{Kind: "configmap", Namespace: "default", Name: "c"}
	p := &planfile.Plan{Name: "p", Pattern: ir.Stale, Actions: []*planfile.Action{
		{Kind: ir.ActStaleOn, Scope: scope, Revision: "5"},
		{Kind: ir.ActStaleOff, Scope: scope, Trigger: &planfile.Trigger{Op: ir.TrigTimeout, Duration: ir.Duration(200 * time.Millisecond)}},
	}}
	in, _, px, _ := start(t, p)
	begin := time.Now()
	if !in.Finish(context.Background()) || !in.Injected() {
		t.Fatalf("Finish: plan injected %v", in.Injected())
	}
	if d := time.Since(begin); d < 150*time.Millisecond {
		t.Errorf("Finish returned after %s, before the stale view's timeout", d)
	}
	if len(px.resumed) != 1 {
		t.Errorf("resumed %v, want the stale view", px.resumed)
	}
	waiting, _, _, _ := start(t, holdPodPlan())
	if waiting.Finish(context.Background()) || waiting.Injected() {
		t.Error("Finish acted on a plan that waits for an event")
	}
}

// TestFinishEndsSettledStaleView ends, once the workload is over, a stale
// view whose bound is an hour away, as soon as the controller has settled
// with it. It does not end it while a retry of the controller is
// expected, nor while the restarted controller has sent nothing yet.
func TestFinishEndsSettledStaleView(t *testing.T) {
	scope := &ir.Ref{Kind: "configmap", Namespace: "default", Name: "c"}
	for _, c := range []struct {
		name      string
		retries   int
		restarted bool
		ends      bool
	}{
		{"settled", 0, false, true},
		{"retry expected", 1, false, false},
		{"restarted, silent", 0, true, false},
	} {
		actions := []*planfile.Action{{Kind: ir.ActStaleOn, Scope: scope, Revision: "5"}}
		if c.restarted {
			actions = append(actions, &planfile.Action{Kind: ir.ActRestart})
		}
		actions = append(actions, &planfile.Action{Kind: ir.ActStaleOff, Scope: scope,
			Trigger: &planfile.Trigger{Op: ir.TrigTimeout, Duration: ir.Duration(time.Hour)}})
		px := &quietProxy{since: time.Now().Add(-time.Second), retries: c.retries}
		in, err := New(Options{Plan: &planfile.Plan{Name: "p", Pattern: ir.Stale, Actions: actions}, Proxy: px,
			Controller: &fakeController{}, Quiet: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		in.Start(context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		in.Finish(ctx)
		cancel()
		in.Stop()
		if ended := len(px.resumed) == 1; ended != c.ends {
			t.Errorf("%s: stale view ended %v, want %v", c.name, ended, c.ends)
		}
	}
}

// quietProxy is a proxy through which nothing has passed since a moment,
// and that may expect retries of the controller.
type quietProxy struct {
	fakeProxy
	since   time.Time
	retries int
}

func (p *quietProxy) Activity() proxy.Activity {
	return proxy.Activity{Last: p.since, Retries: p.retries}
}

// TestQuietHoldIsLiftedBeforeStall lifts a hold, while the workload waits,
// once it has lasted the Quiet bound with the controller and the cluster
// quiet as long and nothing due, long before its Stall. A retry the
// controller is expected to make keeps it in place.
func TestQuietHoldIsLiftedBeforeStall(t *testing.T) {
	for _, retries := range []int{0, 1} {
		px := &quietProxy{since: time.Now(), retries: retries}
		in, err := New(Options{Plan: holdPodPlan(), Proxy: px, Controller: &fakeController{}, MaxHold: time.Hour, Stall: time.Hour,
			Quiet: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		in.Start(context.Background())
		k := holdUpdate(t, in)
		begun := time.Now()
		in.Observe(trace.Entry{Type: trace.Step, What: "wait", Phase: "start"})
		got := lifted(in, k, time.Second, func() {})
		in.Stop()
		switch {
		case retries == 0 && !got:
			t.Error("still holding 1s into a wait with everything quiet, with a Quiet of 200ms")
		case retries == 0 && time.Since(begun) < 150*time.Millisecond:
			t.Errorf("lifted after %s, before the Quiet bound of 200ms", time.Since(begun))
		case retries > 0 && got:
			t.Error("lifted while a retry of the controller was expected")
		}
	}
}
