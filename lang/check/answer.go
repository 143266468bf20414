package check

import (
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
	t := &ir.Trigger{Op: ir.TrigCall, Src: a.Range(), Count: 1, Method: a.Method, Changed: a.Changed}
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

// answerTrigger reports an error or appfault action whose trigger does
// not end on what it answers (ir.AnswerProblems).
func (c *checker) answerTrigger(a *ir.Action) {
	for _, pr := range ir.AnswerProblems(a) {
		c.errorf(pr.Src, "plan", "%s", pr.Msg)
	}
}
