package planfile

import (
	"fmt"
	"strings"

	"github.com/sievetool/sieve/lang/ir"
)

// String describes the action in the .sieve plan syntax, without its
// trigger: "crash", "stale on statefulset/default/ds", "wait 5s",
// "hold pod/default/web-0 for 30s".
func (a *Action) String() string {
	switch {
	case a.Scope != nil && a.Kind == ir.ActStaleOn && a.At != nil:
		return "stale on " + a.Scope.String() + " at " + a.At.String()
	case a.Scope != nil && (a.Kind == ir.ActStaleOn || a.Kind == ir.ActStaleOff):
		return "stale " + strings.TrimPrefix(string(a.Kind), "stale-") + " " + a.Scope.String()
	case a.Scope != nil && a.Kind == ir.ActHold && a.HoldBound() > 0:
		return "hold " + a.Scope.String() + " for " + a.HoldBound().String()
	case a.Scope != nil:
		return string(a.Kind) + " " + a.Scope.String()
	case a.Kind == ir.ActWait:
		return "wait " + a.Duration.String()
	case a.Kind == ir.ActError && a.Error == ir.ErrGone:
		return "end the watch with 410 (gone)"
	case a.Kind == ir.ActError:
		return "answer " + string(a.Error)
	case a.Kind == ir.ActAppFault && a.Answer != nil:
		return "answer " + string(a.AppFault) + " " + a.Answer.String()
	case a.Kind == ir.ActAppFault:
		return "answer " + string(a.AppFault)
	case a.Kind == ir.ActPause && a.Duration > 0:
		return "pause for " + a.Duration.String()
	}
	return string(a.Kind)
}

// String describes the trigger in the .sieve plan syntax ("on update
// statefulset/default/ds #2", "after write delete pod/default/web-0; after
// 5s"); what the syntax cannot say (the change a generated plan waits
// for, a quiet leaf) is said in words.
func (t *Trigger) String() string {
	switch t.Op {
	case ir.TrigEvent, ir.TrigWrite:
		return t.leaf()
	case ir.TrigCall:
		return t.call()
	case ir.TrigRead:
		return t.read()
	case ir.TrigTimeout:
		return "after " + t.Duration.String()
	case ir.TrigQuiet:
		return fmt.Sprintf("quiet for %s after reading %s", t.Duration, t.target())
	}
	sep := map[ir.TriggerOp]string{ir.TrigSeq: "; ", ir.TrigAll: " & ", ir.TrigAny: " | "}[t.Op]
	var args []string
	for _, a := range t.Args {
		s := a.String()
		if len(a.Args) > 0 {
			s = "(" + s + ")"
		}
		args = append(args, s)
	}
	return strings.Join(args, sep)
}

// leaf describes an event or write leaf.
func (t *Trigger) leaf() string {
	on := t.On
	if on == "" {
		on = "any"
	}
	s := "on " + on + " " + t.target()
	if t.Op == ir.TrigWrite {
		s = "after write " + on + " " + t.target()
		if t.Failed {
			s = "after failed write " + on + " " + t.target()
		}
		if t.Sent {
			s = "after sending write " + on + " " + t.target()
		}
	}
	if t.Subresource != "" {
		s += " (" + t.Subresource + ")"
	}
	if t.Where != nil {
		s += " where " + condString(t.Where)
	}
	if t.Count > 1 {
		s += fmt.Sprintf(" #%d", t.Count)
	}
	if t.Seen == SeenCluster {
		s += " in the cluster"
	}
	if !t.Diff.Empty() {
		s += " changing " + clip(t.Diff.String())
	}
	if t.NoLonger != nil {
		s += " that no longer holds " + clip(Canonical(t.NoLonger))
	}
	return s
}

// call describes a call leaf: "on call exec [\"sh\", \"-c\", \"x\"] in
// pod/default/db-0 #2", "on call GET /members to ens-client".
func (t *Trigger) call() string {
	s := "on call "
	switch {
	case t.On == ir.CallExec:
		s += "exec"
		if t.Command != nil {
			s += " " + Canonical(t.Command)
		}
	case t.Method != "" || t.Path != "":
		s += strings.TrimSpace(t.Method + " " + t.Path)
	case t.On != "":
		s += t.On
	default:
		s += "any"
	}
	if t.Standin != "" {
		s += " to " + t.Standin
	}
	if t.Target != nil {
		s += " in " + t.Target.String()
	}
	if t.Changed {
		s += " changed"
	}
	if t.Count > 1 {
		s += fmt.Sprintf(" #%d", t.Count)
	}
	return s
}

// read describes a read leaf: "on read list pod/default/* #2".
func (t *Trigger) read() string {
	on := t.On
	if on == "" {
		on = "any"
	}
	s := "on read " + on + " " + t.target()
	if t.Count > 1 {
		s += fmt.Sprintf(" #%d", t.Count)
	}
	return s
}

func (t *Trigger) target() string {
	if t.Target == nil {
		return "any object"
	}
	return t.Target.String()
}

func condString(c *ir.Cond) string {
	switch {
	case c.Expr != "":
		return fmt.Sprintf("%q", c.Expr)
	case c.Exists:
		return c.Path + " exists"
	}
	return c.Path + " == " + Canonical(c.Value)
}

// clip shortens a JSON fragment for a one-line description.
func clip(s string) string {
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}
