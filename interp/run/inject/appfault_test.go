package inject

import (
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// callPlan answers the second exec of "sh -c leave" into db-0 with kind.
func callPlan(kind ir.AppFaultKind) *planfile.Plan {
	leaf := observe.ExecCall("default", "db-0", []string{"sh", "-c", "leave"}).Leaf(2)
	return &planfile.Plan{Name: "p", Pattern: ir.AppFault, Actions: []*planfile.Action{{Kind: ir.ActAppFault, AppFault: kind, Trigger: leaf}}}
}

var leave = observe.ExecCall("default", "db-0", []string{"sh", "-c", "leave"})

// TestAppFaultAnswersTheCall answers the matching call, the second of its
// kind, with an exec error, once, and writes a fault entry that says
// which call was answered and how; another call, the first of its kind
// and the calls after go to the application.
func TestAppFaultAnswersTheCall(t *testing.T) {
	in, c, _, faults := start(t, callPlan(ir.FaultExecError))
	if !in.Calls() {
		t.Fatal("Calls: false for a plan with a call leaf")
	}
	other := observe.ExecCall("default", "db-1", []string{"sh", "-c", "leave"})
	for i, call := range []observe.Call{other, leave} {
		if k, ok := in.Call(call); ok {
			t.Fatalf("call %d answered with %s", i, k)
		}
	}
	if k, ok := in.Call(leave); !ok || k != ir.FaultExecError {
		t.Fatalf("the second exec: got %q %v, want exec_error", k, ok)
	}
	if k, ok := in.Call(leave); ok {
		t.Errorf("the third exec answered with %s too", k)
	}
	if !in.Injected() || c.kills != 0 || len(*faults) != 1 {
		t.Fatalf("injected %v, kills %d, faults %+v", in.Injected(), c.kills, *faults)
	}
	f := (*faults)[0]
	want := `exec ["sh","-c","leave"] in pod/default/db-0 answered in the application's place: exit code 1 and a line on stderr (exec_error)`
	if f.What != string(ir.ActAppFault) || f.Message != want || f.Key == nil || *f.Key != (trace.Key{Kind: "pod", Namespace: "default", Name: "db-0"}) {
		t.Errorf("fault entry %+v, want %s on pod/default/db-0", f, want)
	}
}

// TestAppFaultHangOnExec: hang answers a call of either channel; on the
// second exec it fires once, its fault entry says the call is held until
// the controller gives up or the bound, and the third exec is normal.
func TestAppFaultHangOnExec(t *testing.T) {
	in, _, _, faults := start(t, callPlan(ir.FaultHang))
	in.Call(leave)
	if k, ok := in.Call(leave); !ok || k != ir.FaultHang {
		t.Fatalf("the second exec: got %q %v, want hang", k, ok)
	}
	if k, ok := in.Call(leave); ok {
		t.Errorf("the third exec answered with %s too", k)
	}
	if len(*faults) != 1 || !strings.Contains((*faults)[0].Message, "no answer until the controller gives up or 30s pass") {
		t.Errorf("faults %+v, want one entry naming the hang and its bound", *faults)
	}
}

// TestAppFaultOtherChannelMisses does not answer an exec with an HTTP
// fault (a hand-written plan whose leaf matches any call): the action
// misses (a missed fault entry, which the run's judgement reads as not
// injected).
func TestAppFaultOtherChannelMisses(t *testing.T) {
	p := callPlan(ir.FaultUnavailable)
	p.Actions[0].Trigger = &planfile.Trigger{Op: ir.TrigCall}
	in, _, _, faults := start(t, p)
	if k, ok := in.Call(leave); ok {
		t.Fatalf("an exec answered with %s", k)
	}
	if len(*faults) != 1 || (*faults)[0].What != trace.Missed || !strings.Contains((*faults)[0].Message, "unavailable answers no call of channel exec") {
		t.Errorf("faults %+v; want a missed action", *faults)
	}
}

// TestAppFaultNotInjected: a plan whose call never came is not injected,
// and a plan without call leaves answers no call.
func TestAppFaultNotInjected(t *testing.T) {
	in, _, _, _ := start(t, callPlan(ir.FaultExecError))
	in.Call(leave)
	if in.Injected() {
		t.Error("injected after the first exec of two")
	}
	plain, _, _, _ := start(t, errorPlan(ir.ErrConflict))
	if _, ok := plain.Call(leave); ok || plain.Calls() {
		t.Error("a plan without call leaves answered a call")
	}
}

// TestAppFaultUnknownFault refuses a plan whose app-fault action names no
// fault sieve knows, when the injector is made.
func TestAppFaultUnknownFault(t *testing.T) {
	_, err := New(Options{Plan: callPlan("stale"), Proxy: &fakeProxy{}, Controller: &fakeController{}})
	want := `inject: plan p: action 1 (app-fault): unknown app fault "stale" (want one of exec_error, unavailable, reset, hang, truncated)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
