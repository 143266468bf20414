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
		if a, ok := in.Call(call); ok {
			t.Fatalf("call %d answered with %s", i, a.AppFault)
		}
	}
	if a, ok := in.Call(leave); !ok || a.AppFault != ir.FaultExecError {
		t.Fatalf("the second exec: got %v %v, want exec_error", a, ok)
	}
	if a, ok := in.Call(leave); ok {
		t.Errorf("the third exec answered with %s too", a.AppFault)
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
	if a, ok := in.Call(leave); !ok || a.AppFault != ir.FaultHang {
		t.Fatalf("the second exec: got %v %v, want hang", a, ok)
	}
	if a, ok := in.Call(leave); ok {
		t.Errorf("the third exec answered with %s too", a.AppFault)
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
	if a, ok := in.Call(leave); ok {
		t.Fatalf("an exec answered with %s", a.AppFault)
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
	_, err := New(Options{Plan: callPlan("stael"), Proxy: &fakeProxy{}, Controller: &fakeController{}})
	want := `inject: plan p: action 1 (app-fault): unknown app fault "stael" (want one of exec_error, unavailable, reset, hang, truncated, stale)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestAppFaultStale: a stale action gives the second exec the answer its
// plan carries, and its fault entry says what that answer is and where in
// the reference it came from; a stale action without an answer, or an
// answer on another fault, is refused when the injector is made.
func TestAppFaultStale(t *testing.T) {
	p := callPlan(ir.FaultStale)
	p.Actions[0].Answer = &planfile.Answer{Stdout: "members: 2\n"}
	in, _, _, faults := start(t, p)
	in.Call(leave)
	if a, ok := in.Call(leave); !ok || a.AppFault != ir.FaultStale || a.Answer == nil || a.Answer.Stdout != "members: 2\n" {
		t.Fatalf("the second exec: got %+v %v, want stale with the plan's answer", a, ok)
	}
	want := `exec ["sh","-c","leave"] in pod/default/db-0 answered in the application's place: its answer to an earlier occurrence in the reference, exit 0 with 11 bytes on stdout and 0 on stderr (stale)`
	if len(*faults) != 1 || (*faults)[0].Message != want {
		t.Errorf("faults %+v, want one entry: %s", *faults, want)
	}
	for _, c := range []struct {
		plan *planfile.Plan
		want string
	}{
		{callPlan(ir.FaultStale), "stale needs the answer it gives (answer), or why it has none (noAnswer)"},
		{both(p), "stale has an answer and says it has none (answer or noAnswer, not both)"},
		{p, ""},
	} {
		_, err := New(Options{Plan: c.plan, Proxy: &fakeProxy{}, Controller: &fakeController{}})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasSuffix(err.Error(), c.want)) {
			t.Errorf("New: %v, want %q", err, c.want)
		}
	}
	other := callPlan(ir.FaultExecError)
	other.Actions[0].Answer = p.Actions[0].Answer
	if _, err := New(Options{Plan: other, Proxy: &fakeProxy{}, Controller: &fakeController{}}); err == nil || !strings.Contains(err.Error(), "exec_error gives no answer of its own") {
		t.Errorf("New with an answer on exec_error: %v, want refused", err)
	}
}

// both is plan p with its first action given a reason for no answer on
// top of its answer.
func both(p *planfile.Plan) *planfile.Plan {
	a := *p.Actions[0]
	a.NoAnswer = "none"
	return &planfile.Plan{Name: p.Name, Actions: []*planfile.Action{&a}}
}

// TestAppFaultStaleNoAnswer: a stale action of a spec's plan whose call had
// no earlier answer in the reference (NoAnswer) answers nothing when its
// trigger fires: the call gets the application's answer, and the action
// misses, saying why (a missed fault entry, which the run's judgement
// reads as not injected).
func TestAppFaultStaleNoAnswer(t *testing.T) {
	p := callPlan(ir.FaultStale)
	p.Actions[0].NoAnswer = "in the reference run, #7 exec is the first of its kind"
	in, _, _, faults := start(t, p)
	in.Call(leave)
	if a, ok := in.Call(leave); ok {
		t.Fatalf("the second exec answered with %+v", a)
	}
	want := `exec ["sh","-c","leave"] in pod/default/db-0 has no stale answer to give: in the reference run, #7 exec is the first of its kind`
	if len(*faults) != 1 || (*faults)[0].What != trace.Missed || (*faults)[0].Message != want {
		t.Errorf("faults %+v, want one missed entry: %s", *faults, want)
	}
}

// TestAppFaultStaleOnChange: a stale action on a call leaf with changed
// looks at calls once answered only. The calls before it fires, however
// many, go by while their answer stays the same; the one whose answer
// changed (the second change here) gets the plan's answer. Its fault entry
// says which answer was dropped. A fault other than stale on such a leaf
// misses: the call was answered already.
func TestAppFaultStaleOnChange(t *testing.T) {
	p := callPlan(ir.FaultStale)
	p.Actions[0].Trigger = leave.ChangedLeaf(2)
	p.Actions[0].Answer = &planfile.Answer{Stdout: "members: 2\n"}
	in, _, _, faults := start(t, p)
	if !in.Changes() {
		t.Fatal("Changes: false for a plan with a changed call leaf")
	}
	answers := []string{"2", "2", "2", "3", "3", "3", "3"}
	for i, out := range answers {
		if a, ok := in.Call(leave); ok {
			t.Fatalf("call %d answered with %s before the application answered it", i+1, a.AppFault)
		}
		if a, ok := in.Answered(leave, &planfile.Answer{Stdout: "members: " + out + "\n"}); ok {
			t.Fatalf("call %d (members %s) answered with %s", i+1, out, a.AppFault)
		}
	}
	a, ok := in.Answered(leave, &planfile.Answer{Stdout: "members: 4\n"})
	if !ok || a.Answer.Stdout != "members: 2\n" {
		t.Fatalf("the second change: got %+v %v, want the plan's stale answer", a, ok)
	}
	want := `exec ["sh","-c","leave"] in pod/default/db-0 answered in the application's place: its answer to an earlier occurrence in the reference, exit 0 with 11 bytes on stdout and 0 on stderr; the application's answer, exit 0 with 11 bytes on stdout and 0 on stderr, dropped (stale)`
	if len(*faults) != 1 || (*faults)[0].Message != want {
		t.Errorf("faults %+v, want one entry: %s", *faults, want)
	}
	other := callPlan(ir.FaultExecError)
	other.Actions[0].Trigger = leave.ChangedLeaf(1)
	in, _, _, faults = start(t, other)
	in.Answered(leave, &planfile.Answer{Stdout: "a"})
	if a, ok := in.Answered(leave, &planfile.Answer{Stdout: "b"}); ok {
		t.Errorf("exec_error on an answered call: %+v", a)
	}
	if len(*faults) != 1 || (*faults)[0].What != trace.Missed || !strings.Contains((*faults)[0].Message, "only stale replaces an answer") {
		t.Errorf("faults %+v; want a missed action", *faults)
	}
}
