package inject

import (
	"fmt"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/analysis/trigger"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Calls reports whether the plan looks at the controller's calls to its
// application: the run must then ask Call about each one before it is
// answered.
func (in *Injector) Calls() bool { return in.calls }

// Call shows the engine a call of the controller to its application that
// is about to be answered (an exec into a pod, an HTTP request to a
// stand-in), and returns the app-fault action it fires that answers the
// call wrongly instead of the application, if any: its AppFault, and a
// stale fault's Answer. The caller gives the answer (podexec, relay).
func (in *Injector) Call(c observe.Call) (*planfile.Action, bool) {
	if !in.calls {
		return nil, false
	}
	cur := &event{call: &c}
	in.advance(func() []trigger.Fired { return in.eng.Call(c) }, cur)
	return cur.fault, cur.fault != nil
}

// Changes reports whether the plan looks at the controller's calls to its
// application once answered (a call leaf with Changed): the run must
// then forward each call to the application, read its whole answer and
// ask Answered before the controller has it.
func (in *Injector) Changes() bool { return in.changes }

// Answered shows the engine a call of the controller to its application
// once the application has answered it with real (nil: not whole,
// observe.HTTPAnswer and observe.ExecAnswer), before the controller has
// the answer, and returns the stale app-fault action it fires, if any:
// the caller gives the action's Answer in place of real (podexec,
// relay).
func (in *Injector) Answered(c observe.Call, real *planfile.Answer) (*planfile.Action, bool) {
	if !in.changes {
		return nil, false
	}
	cur := &event{call: &c, real: real, answered: true}
	in.advance(func() []trigger.Fired { return in.eng.Answered(c, real) }, cur)
	return cur.fault, cur.fault != nil
}

// answerCall carries out an app-fault action: the call about to be
// answered gets the action's fault, when the fault is one of the call's
// channel (ir.AppFaultKind.Answers).
func (in *Injector) answerCall(a *planfile.Action, cur *event, note func(string, *trace.Key)) error {
	if cur == nil || cur.call == nil {
		return missedError("no call of the controller to its application was about to be answered when the trigger completed (an app-fault action's trigger ends on a call leaf)")
	}
	c := cur.call
	if a.AppFault == ir.FaultStale && a.Answer == nil {
		return missedError(fmt.Sprintf("%s has no stale answer to give: %s", c, a.NoAnswer))
	}
	if !a.AppFault.Answers(c.Channel) {
		return missedError(fmt.Sprintf("%s answers no call of channel %s, and the call was %s", a.AppFault, c.Channel, c))
	}
	if a.Answer != nil && (a.Answer.Status != 0) != (c.Channel == ir.CallHTTP) {
		return missedError(fmt.Sprintf("%s's answer is not one to a call of channel %s, and the call was %s", a.AppFault, c.Channel, c))
	}
	if cur.answered && a.AppFault != ir.FaultStale {
		return missedError(fmt.Sprintf("%s was answered by the application already (its trigger ends on a call leaf with changed), and only stale replaces an answer", c))
	}
	var key *trace.Key
	if c.Pod.Name != "" {
		k := c.Pod
		key = &k
	}
	note(fmt.Sprintf("%s answered in the application's place: %s%s (%s)", c, faultAnswer(a), dropped(cur), a.AppFault), key)
	cur.fault = a
	return nil
}

// dropped says what the application answered the call, for an answer
// the fault replaces (Answered): "; the application's answer, 200 with
// 45 body bytes, dropped".
func dropped(cur *event) string {
	switch {
	case !cur.answered:
		return ""
	case cur.real == nil:
		return "; the application's answer, not held whole, dropped"
	}
	return "; the application's answer, " + cur.real.String() + ", dropped"
}

// faultAnswer says what a call answered by app-fault action a gets.
func faultAnswer(a *planfile.Action) string {
	switch a.AppFault {
	case ir.FaultStale:
		return "its answer to an earlier occurrence in the reference, " + a.Answer.String()
	case ir.FaultExecError:
		return "exit code 1 and a line on stderr"
	case ir.FaultUnavailable:
		return "503 Service Unavailable, and the connection closed"
	case ir.FaultHang:
		return fmt.Sprintf("no answer until the controller gives up or %s pass (the connection's close or the exec's end says which)", ir.HangBound)
	case ir.FaultTruncated:
		return "the stand-in's response with half its body, and the connection closed"
	}
	return "the connection reset before any response"
}
