package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// answerName checks the name of an error or appfault action against the
// IR's list (what is "api error" or "app fault") and returns it.
func (c *checker) answerName(n *syntax.Ident, what string, names []string) string {
	if n == nil {
		return ""
	}
	if !slices.Contains(names, n.Name) {
		d := c.errorf(n.Range(), "unknown", "unknown %s %q (want one of %s)", what, n.Name, strings.Join(names, ", "))
		hint(d, spell.Hint(n.Name, names))
		return ""
	}
	return n.Name
}

// callLeaf lowers "on call ...": an exec's command, or an HTTP request's
// method, path and stand-in, the pod and the occurrence.
func (c *checker) callLeaf(a *syntax.CallLeaf, sc *scope) *ir.Trigger {
	t := &ir.Trigger{Op: ir.TrigCall, Src: a.Range(), Count: 1, Method: a.Method}
	if a.Exec {
		t.On = ir.CallExec
	}
	if a.Command != nil {
		t.Command = c.strList(c.eval(syntax.NewExpr(a.Command), sc), "call exec command")
	}
	if a.Path != nil {
		t.Path, _ = c.stringLit(a.Path)
	}
	if a.Standin != nil {
		t.Standin, _ = c.stringLit(a.Standin)
	}
	if a.Method != "" || a.Path != nil || a.Standin != nil {
		t.On = ir.CallHTTP
	}
	if a.Pod != nil {
		t.Target = c.toRef(c.eval(a.Pod, sc), keyGlob, "call trigger")
	}
	if a.Count != nil {
		t.Count = c.occurrence(a.Count, sc)
	}
	return t
}

// answerTrigger checks that the trigger of an error or appfault action
// ends on what the action answers: a write as it is sent, an event (gone),
// or a call of the fault's channel.
func (c *checker) answerTrigger(a *ir.Action) {
	if a.Kind != ir.ActError && a.Kind != ir.ActAppFault || a.Error == "" && a.AppFault == "" {
		return
	}
	if a.Trigger == nil {
		c.errorf(a.Src, "plan", "%s: the action needs a trigger that ends on what it answers (%s)", answerText(a), answerWant(a))
		return
	}
	for _, l := range lastLeaves(a.Trigger) {
		if msg := answerMismatch(a, l); msg != "" {
			c.errorf(l.Src, "plan", "%s: %s (%s)", answerText(a), msg, answerWant(a))
		}
	}
}

// answerMismatch says why leaf l cannot be what action a answers, or "".
func answerMismatch(a *ir.Action, l *ir.Trigger) string {
	switch {
	case a.Kind == ir.ActAppFault && l.Op != ir.TrigCall:
		return fmt.Sprintf("its trigger ends on %s leaf, not a call", article(l.Op))
	case a.Kind == ir.ActAppFault && l.On != "" && l.On != a.AppFault.Channel():
		return fmt.Sprintf("it answers %s calls, and this leaf matches %s calls", a.AppFault.Channel(), l.On)
	case a.Error == ir.ErrGone && l.Op != ir.TrigEvent:
		return fmt.Sprintf("it ends a watch after an event, and its trigger ends on %s leaf", article(l.Op))
	case a.Kind == ir.ActError && a.Error != ir.ErrGone && (l.Op != ir.TrigWrite || !l.Sent):
		return "it answers a write as it is sent, and its trigger ends on another leaf"
	}
	return ""
}

// article writes op with its indefinite article: "an event".
func article(op ir.TriggerOp) string {
	if strings.ContainsRune("aeiou", rune(op[0])) {
		return "an " + string(op)
	}
	return "a " + string(op)
}

// answerText is the action as written: "error conflict".
func answerText(a *ir.Action) string {
	if a.Kind == ir.ActError {
		return "error " + string(a.Error)
	}
	return "appfault " + string(a.AppFault)
}

// answerWant is the leaf the action's trigger should end on.
func answerWant(a *ir.Action) string {
	switch {
	case a.Kind == ir.ActAppFault && a.AppFault.Channel() == ir.CallExec:
		return "on call exec ..."
	case a.Kind == ir.ActAppFault:
		return `on call METHOD "PATH" to "STANDIN" ...`
	case a.Error == ir.ErrGone:
		return "on create|update|delete ..."
	}
	return "after sending write VERB KEY ..."
}

// lastLeaves returns the leaves a trigger can complete on: the last part
// of a sequence, either part of A | B or A & B.
func lastLeaves(t *ir.Trigger) []*ir.Trigger {
	switch t.Op {
	case ir.TrigSeq:
		return lastLeaves(t.Args[len(t.Args)-1])
	case ir.TrigAll, ir.TrigAny:
		var out []*ir.Trigger
		for _, a := range t.Args {
			out = append(out, lastLeaves(a)...)
		}
		return out
	}
	return []*ir.Trigger{t}
}
