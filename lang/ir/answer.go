package ir

import (
	"fmt"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
)

// AnswerProblem is an error or app-fault action whose trigger does not end
// on what it answers: Src is the leaf (or the action, with no trigger),
// Msg what is wrong (see AnswerProblems).
type AnswerProblem struct {
	Src diag.Range
	Msg string
}

// AnswerProblems checks that the trigger of an error or app-fault action
// ends on what the action answers: a write as it is sent, an event
// (ErrGone), or a call of the fault's channel; and that no action but a
// stale app-fault ends on a call leaf with Changed (it matches a call
// the application has answered already). Both front ends report them;
// an action whose error or fault is unknown is left to the caller.
func AnswerProblems(a *Action) []AnswerProblem {
	known := a.Kind == ActError && a.Error != "" || a.Kind == ActAppFault && a.AppFault != ""
	if !known || a.Trigger == nil {
		return append(answerNeeds(a, known), changedProblems(a)...)
	}
	var out []AnswerProblem
	for _, l := range lastLeaves(a.Trigger) {
		if msg := answerMismatch(a, l); msg != "" {
			out = append(out, AnswerProblem{l.Src, fmt.Sprintf("%s: %s (%s)", answerText(a), msg, answerWant(a))})
		}
	}
	return append(out, changedProblems(a)...)
}

// answerNeeds is the problem of a known error or app-fault action with
// no trigger.
func answerNeeds(a *Action, known bool) []AnswerProblem {
	if !known || a.Trigger != nil {
		return nil
	}
	return []AnswerProblem{{a.Src, fmt.Sprintf("%s: the action needs a trigger that ends on what it answers (%s)", answerText(a), answerWant(a))}}
}

// changedProblems are the call leaves with Changed that action a, other
// than a stale app-fault, ends on.
func changedProblems(a *Action) []AnswerProblem {
	if a.Kind == ActAppFault && a.AppFault == FaultStale {
		return nil
	}
	var out []AnswerProblem
	for _, l := range lastLeaves(a.Trigger) {
		if l.Op == TrigCall && l.Changed {
			out = append(out, AnswerProblem{l.Src, fmt.Sprintf("%s: a call leaf with changed matches a call its application has answered already, and only appfault stale replaces that answer (drop changed, or answer with appfault stale)", actionText(a))})
		}
	}
	return out
}

// StaleProblems checks what can be told of a plan's stale answers
// before any run. A stale answer is the reference's answer to an earlier
// occurrence of the call the action's trigger completes on, taken when
// the plan is compiled for running (or the plan is not-injected, saying
// why). Only one case is known to have none: the plan's first action,
// armed when the run starts, on the first call its lone call leaf
// matches, which is the first of its kind. Both front ends report it.
func StaleProblems(actions []*Action) []AnswerProblem {
	if len(actions) == 0 {
		return nil
	}
	a := actions[0]
	if a == nil || a.Kind != ActAppFault || a.AppFault != FaultStale || a.Trigger == nil {
		return nil
	}
	if t := a.Trigger; t.Op == TrigCall && !t.Changed && t.Count <= 1 {
		return []AnswerProblem{{t.Src, "appfault stale: the first call this leaf matches is the first of its kind, with no earlier answer to give (count a later one, #2 or more, or arm the action after another)"}}
	}
	return nil
}

// answerMismatch says why leaf l cannot be what action a answers, or "".
func answerMismatch(a *Action, l *Trigger) string {
	switch {
	case a.Kind == ActAppFault && l.Op != TrigCall:
		return fmt.Sprintf("its trigger ends on %s leaf, not a call", article(l.Op))
	case a.Kind == ActAppFault && l.On != "" && !a.AppFault.Answers(l.On):
		return fmt.Sprintf("it answers %s calls, and this leaf matches %s calls", otherChannel(l.On), l.On)
	case a.Error == ErrGone && l.Op != TrigEvent:
		return fmt.Sprintf("it ends a watch after an event, and its trigger ends on %s leaf", article(l.Op))
	case a.Kind == ActError && l.Op == TrigRead && !a.Error.AnswersRead():
		return fmt.Sprintf("a read is answered only with %s, and its trigger ends on a read leaf", readErrorList())
	case a.Kind == ActError && a.Error != ErrGone && l.Op != TrigRead && (l.Op != TrigWrite || !l.Sent):
		return "it answers a write as it is sent, and its trigger ends on another leaf"
	}
	return ""
}

// readErrorList names the errors that answer a read: "too_many_requests,
// internal_error or timeout".
func readErrorList() string {
	var names []string
	for _, k := range ReadErrors() {
		names = append(names, string(k))
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// article writes op with its indefinite article: "an event".
func article(op TriggerOp) string {
	if op != "" && strings.ContainsRune("aeiou", rune(op[0])) {
		return "an " + string(op)
	}
	return "a " + string(op)
}

// otherChannel is the call channel that is not channel: the one a fault
// answers when it does not answer channel (only hang answers both).
func otherChannel(channel string) string {
	if channel == CallExec {
		return CallHTTP
	}
	return CallExec
}

// answerText is the action as .sieve writes it: "error conflict".
func answerText(a *Action) string {
	if a.Kind == ActError {
		return "error " + string(a.Error)
	}
	return "appfault " + string(a.AppFault)
}

// actionText is the action as .sieve writes it: "appfault reset",
// "crash".
func actionText(a *Action) string {
	if a.Kind == ActError || a.Kind == ActAppFault {
		return answerText(a)
	}
	return string(a.Kind)
}

// answerWant is the leaf the action's trigger should end on, as .sieve
// writes it.
func answerWant(a *Action) string {
	switch {
	case a.Kind == ActAppFault && !a.AppFault.Answers(CallHTTP):
		return "on call exec ..."
	case a.Kind == ActAppFault && !a.AppFault.Answers(CallExec):
		return `on call METHOD "PATH" to "STANDIN" ...`
	case a.Kind == ActAppFault:
		return "on call ..."
	case a.Error == ErrGone:
		return "on create|update|delete ..."
	case a.Error.AnswersRead():
		return "after sending write VERB KEY ..., or on read get|list KEY ..."
	}
	return "after sending write VERB KEY ..."
}

// lastLeaves returns the leaves a trigger can complete on: the last part
// of a sequence, any part of A | B or A & B.
func lastLeaves(t *Trigger) []*Trigger {
	switch {
	case t == nil:
		return nil
	case t.Op == TrigSeq && len(t.Args) > 0:
		return lastLeaves(t.Args[len(t.Args)-1])
	case t.Op == TrigAll || t.Op == TrigAny:
		var out []*Trigger
		for _, a := range t.Args {
			out = append(out, lastLeaves(a)...)
		}
		return out
	}
	return []*Trigger{t}
}
