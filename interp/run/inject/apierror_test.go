package inject

import (
	"context"
	"errors"
	"testing"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// errorPlan answers the update of pvc that sets spec.x to 1, as sent,
// with kind.
func errorPlan(kind ir.APIErrorKind) *planfile.Plan {
	return &planfile.Plan{Name: "p", Pattern: ir.APIError, Actions: []*planfile.Action{{
		Kind: ir.ActError, Error: kind,
		Trigger: &planfile.Trigger{Op: ir.TrigWrite, Sent: true, On: "update", Target: pvc,
			Diff: &planfile.Diff{Prev: map[string]any{}, Cur: map[string]any{"spec": map[string]any{"x": 1.0}}}, Count: 1},
	}}}
}

// pvcUpdate is an update of pvc whose body sets spec.x to x.
func pvcUpdate(x int) *proxy.Request {
	return &proxy.Request{ID: int64(10 + x), Verb: "update", Resource: "persistentvolumeclaims",
		Key:  trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"},
		Body: obj("data-ds-0", "5", map[string]any{"spec": map[string]any{"x": x}})}
}

// learnPVC has the controller read pvc, with no spec, so that the
// update's diff is against it.
func learnPVC(t *testing.T, in *Injector) {
	t.Helper()
	get := &proxy.Request{Verb: "get", Resource: "persistentvolumeclaims", Key: pvcUpdate(0).Key}
	if err := in.Hooks().After(context.Background(), get, &proxy.Response{Code: 200, Body: obj("data-ds-0", "5", nil)}); err != nil {
		t.Fatal(err)
	}
}

// TestErrorActionAnswersTheWrite answers the matching write, as it is
// about to be sent, with a conflict, once: a write with another change
// goes through, and so does the same write sent again.
func TestErrorActionAnswersTheWrite(t *testing.T) {
	in, c, _, faults := start(t, errorPlan(ir.ErrConflict))
	learnPVC(t, in)
	ctx := context.Background()
	if err := in.Hooks().Before(ctx, pvcUpdate(2)); err != nil {
		t.Fatalf("a write with another change was refused: %v", err)
	}
	err := in.Hooks().Before(ctx, pvcUpdate(1))
	var se *proxy.StatusError
	if !errors.As(err, &se) || se.Code != 409 || se.Reason != "Conflict" {
		t.Fatalf("the matching write: got %v, want a 409 Conflict", err)
	}
	if err := in.Hooks().Before(ctx, pvcUpdate(1)); err != nil {
		t.Errorf("the write sent again was refused again: %v", err)
	}
	if !in.Injected() || c.kills != 0 || len(*faults) != 1 || (*faults)[0].What != "error" {
		t.Errorf("injected %v, kills %d, faults %+v", in.Injected(), c.kills, *faults)
	}
}

// TestErrorActionWaitsForTheSentWrite does not fire on the answered
// write: a sent leaf matches a write before the API server has seen it.
func TestErrorActionWaitsForTheSentWrite(t *testing.T) {
	in, _, _, _ := start(t, errorPlan(ir.ErrInternal))
	learnPVC(t, in)
	if err := in.Hooks().After(context.Background(), pvcUpdate(1), &proxy.Response{Code: 200, Body: pvcUpdate(1).Body}); err != nil {
		t.Fatalf("the answered write was refused: %v", err)
	}
	if in.Injected() {
		t.Error("the answered write fired the error action")
	}
}

// TestTimeoutAppliedAnswersAfterTheServer lets the matching write go to
// the API server, then replaces the server's answer with a timeout.
func TestTimeoutAppliedAnswersAfterTheServer(t *testing.T) {
	in, _, _, _ := start(t, errorPlan(ir.ErrTimeoutApplied))
	learnPVC(t, in)
	ctx := context.Background()
	r := pvcUpdate(1)
	if err := in.Hooks().Before(ctx, r); err != nil {
		t.Fatalf("the write was not sent: %v", err)
	}
	err := in.Hooks().After(ctx, r, &proxy.Response{Code: 200, Body: r.Body})
	var se *proxy.StatusError
	if !errors.As(err, &se) || se.Code != 504 || se.Reason != "Timeout" {
		t.Fatalf("the answer: got %v, want a 504 Timeout", err)
	}
	if err := in.Hooks().After(ctx, pvcUpdate(2), &proxy.Response{Code: 200, Body: pvcUpdate(2).Body}); err != nil {
		t.Errorf("another write's answer was replaced: %v", err)
	}
}

// readPlan answers the second list of PVCs in default, as it is sent,
// with kind.
func readPlan(kind ir.APIErrorKind) *planfile.Plan {
	return &planfile.Plan{Name: "p", Pattern: ir.APIError, Actions: []*planfile.Action{{
		Kind: ir.ActError, Error: kind,
		Trigger: &planfile.Trigger{Op: ir.TrigRead, On: "list", Target: &ir.Ref{Kind: "persistentvolumeclaim", Namespace: "default", Name: "*"}, Count: 2},
	}}}
}

// pvcRead is a read of PVCs in default: a get of data-ds-0, or a list.
func pvcRead(verb string) *proxy.Request {
	k := trace.Key{Kind: "persistentvolumeclaim", Namespace: "default"}
	if verb == "get" {
		k.Name = "data-ds-0"
	}
	return &proxy.Request{Verb: verb, Resource: "persistentvolumeclaims", Key: k}
}

// TestErrorActionAnswersTheRead answers the second list of PVCs, as it is
// about to be sent, with a 500, once: a get and the first list go
// through, and so does the list after it; the fault entry names the list
// and the answer.
func TestErrorActionAnswersTheRead(t *testing.T) {
	in, c, _, faults := start(t, readPlan(ir.ErrInternal))
	ctx := context.Background()
	for _, verb := range []string{"get", "list"} {
		if err := in.Hooks().Before(ctx, pvcRead(verb)); err != nil {
			t.Fatalf("%s: refused: %v", verb, err)
		}
	}
	if in.Injected() {
		t.Fatal("the first list fired the error action")
	}
	err := in.Hooks().Before(ctx, pvcRead("list"))
	var se *proxy.StatusError
	if !errors.As(err, &se) || se.Code != 500 || se.Reason != "InternalError" {
		t.Fatalf("the second list: got %v, want a 500 InternalError", err)
	}
	if err := in.Hooks().Before(ctx, pvcRead("list")); err != nil {
		t.Errorf("the third list was refused: %v", err)
	}
	want := "list persistentvolumeclaim/default/* answered 500 InternalError (internal_error) without sending it"
	if !in.Injected() || c.kills != 0 || len(*faults) != 1 || (*faults)[0].Message != want {
		t.Errorf("injected %v, kills %d, faults %+v, want one saying %q", in.Injected(), c.kills, *faults, want)
	}
}

// TestErrorActionReadNeverSent leaves a plan whose read never came not
// injected.
func TestErrorActionReadNeverSent(t *testing.T) {
	in, _, _, _ := start(t, readPlan(ir.ErrTimeout))
	if err := in.Hooks().Before(context.Background(), pvcRead("list")); err != nil {
		t.Fatalf("the first list was refused: %v", err)
	}
	if in.Injected() {
		t.Error("a plan whose second list never came is injected")
	}
}

// TestErrorActionUnknownError refuses a plan whose error action names no
// API error sieve knows, when the injector is made.
func TestErrorActionUnknownError(t *testing.T) {
	p := errorPlan("teapot")
	_, err := New(Options{Plan: p, Proxy: &fakeProxy{}, Controller: &fakeController{}})
	want := `inject: plan p: action 1 (error): unknown API error "teapot" (want one of conflict, too_many_requests, internal_error, timeout, timeout_applied, gone)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// gonePlan ends the watch that delivers the update of pod ds-1 right
// after it.
func gonePlan() *planfile.Plan {
	pod := &ir.Ref{Kind: "pod", Namespace: "default", Name: "ds-1"}
	return &planfile.Plan{Name: "p", Pattern: ir.APIError, Actions: []*planfile.Action{{
		Kind: ir.ActError, Error: ir.ErrGone,
		Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: pod, Count: 1},
	}}}
}

// TestGoneEndsTheWatchAfterTheEvent gives the matching delivery the Gone
// verdict (delivered, then its watch ends with 410), once: events before
// and after it are delivered as usual, and so is the same event offered
// again by the watch that follows (a relist of an object that has not
// changed), which would otherwise end every watch after it.
func TestGoneEndsTheWatchAfterTheEvent(t *testing.T) {
	in, c, _, faults := start(t, gonePlan())
	k := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-1"}
	offer := func(typ, rv string) proxy.Verdict {
		return in.Hooks().Filter(nil, &proxy.Event{Type: typ, Key: k, ResourceVersion: rv, Object: obj("ds-1", rv, nil)})
	}
	if v := offer("ADDED", "1"); v != proxy.Deliver {
		t.Fatalf("the creation: verdict %d, want deliver", v)
	}
	if v := offer("MODIFIED", "2"); v != proxy.Gone {
		t.Fatalf("the update: verdict %d, want gone", v)
	}
	if v := offer("MODIFIED", "2"); v != proxy.Deliver {
		t.Errorf("the update offered again by the watch that follows: verdict %d, want deliver", v)
	}
	if v := offer("MODIFIED", "3"); v != proxy.Deliver {
		t.Errorf("the next update: verdict %d, want deliver", v)
	}
	if !in.Injected() || c.kills != 0 || len(*faults) != 1 || (*faults)[0].What != "error" {
		t.Errorf("injected %v, kills %d, faults %+v", in.Injected(), c.kills, *faults)
	}
}

// TestGoneNotInjectedWithoutTheEvent leaves a plan whose event never came
// not injected: another object's update, and a write, do not end a watch.
func TestGoneNotInjectedWithoutTheEvent(t *testing.T) {
	in, _, _, faults := start(t, gonePlan())
	other := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-2"}
	if v := in.Hooks().Filter(nil, &proxy.Event{Type: "MODIFIED", Key: other, ResourceVersion: "2", Object: obj("ds-2", "2", nil)}); v != proxy.Deliver {
		t.Errorf("another pod's update: verdict %d, want deliver", v)
	}
	learnPVC(t, in)
	if err := in.Hooks().Before(context.Background(), pvcUpdate(1)); err != nil {
		t.Errorf("a write was refused: %v", err)
	}
	if in.Injected() || len(*faults) != 0 {
		t.Errorf("injected %v, faults %+v; want neither", in.Injected(), *faults)
	}
}

// TestGoneHidesDeletionsUntilTheNextWatch refuses, with a conflict, a
// write about a pod deleted while the controller's pod watch is ended
// (between the Gone and the controller's next watch of pods): it has not
// been shown the deletion. Once it watches pods again, the write goes.
func TestGoneHidesDeletionsUntilTheNextWatch(t *testing.T) {
	in, _, _, _ := start(t, gonePlan())
	ctx := context.Background()
	k := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-1"}
	if v := in.Hooks().Filter(nil, &proxy.Event{Type: "MODIFIED", Key: k, ResourceVersion: "2", Object: obj("ds-1", "2", nil)}); v != proxy.Gone {
		t.Fatalf("the update: verdict %d, want gone", v)
	}
	gone := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-2"}
	in.Observe(trace.Entry{Type: trace.History, Key: &gone, Event: "DELETED", ResourceVersion: "3", Object: obj("ds-2", "3", nil)})
	update := func() error {
		return in.Hooks().Before(ctx, &proxy.Request{ID: 40, Verb: "update", Resource: "pods", Key: gone, Body: obj("ds-2", "3", nil)})
	}
	var se *proxy.StatusError
	if err := update(); !errors.As(err, &se) || se.Code != 409 {
		t.Fatalf("a write about the pod deleted in the gap: got %v, want a 409 Conflict", err)
	}
	watch := &proxy.Request{Verb: "watch", Resource: "pods", Key: trace.Key{Kind: "pod", Namespace: "default"}}
	if err := in.Hooks().After(ctx, watch, &proxy.Response{Code: 200}); err != nil {
		t.Fatal(err)
	}
	if err := update(); err != nil {
		t.Errorf("after the controller watched pods again: %v", err)
	}
}
