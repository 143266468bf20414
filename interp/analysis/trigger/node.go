package trigger

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
)

// obs is an observation with its raw object parsed on demand.
type obs struct {
	observe.Observed
	// call is the call of the controller to its application observed
	// (Engine.Call), nil for an event or a write. changed says it is
	// the call once answered (Engine.Answered), its answer changed.
	call    *observe.Call
	changed bool
	// read is the read request of the controller observed as it is sent
	// (Engine.Send), nil for anything else.
	read   *trace.Entry
	raw    map[string]any
	parsed bool
}

// rawObject returns the unmasked object after the change (nil when gone).
func (o *obs) rawObject() map[string]any {
	if o.parsed {
		return o.raw
	}
	o.parsed = true
	e := o.Entry
	b := e.Object
	if o.Stream == observe.Sent {
		b = e.Body
	}
	if o.Stream == observe.Written {
		b = e.Response
		if len(b) == 0 {
			b = e.Body
		}
	}
	if len(b) > 0 && o.Verb != "delete" {
		_ = json.Unmarshal(b, &o.raw) // an unparsable object matches no condition
	}
	return o.raw
}

// node is a trigger tree node with its evaluation state.
type node struct {
	t     *planfile.Trigger
	prog  *celenv.Program // a leaf's compiled CEL condition, if any
	kids  []*node
	armed bool
	at    time.Time // when it was armed
	count int
	done  bool
	// paused: a timeout that has not begun, its controller restarting
	// (Engine.Restarted).
	paused bool
	// A quiet leaf: whether the controller has read its target since it
	// was armed, when the controller was last active, whether its latest
	// write failed, and that write (verb, object, subresource) when it was
	// refused with a conflict.
	read    bool
	last    time.Time
	failed  bool
	refused string
	// until is when the controller stops waiting for a leader-election
	// lock another process holds (leader.Locks.Until): it is not running
	// until then, and its silence is not quiet.
	until time.Time
}

// newNode builds the evaluation tree of a trigger, with the CEL
// conditions compiled by New.
func newNode(t *planfile.Trigger, progs map[*planfile.Trigger]*celenv.Program) *node {
	n := &node{t: t, prog: progs[t]}
	for _, a := range t.Args {
		n.kids = append(n.kids, newNode(a, progs))
	}
	return n
}

// arm starts a node's counting and timing; in a sequence only the first
// child is armed.
func (n *node) arm(now time.Time) {
	n.armed, n.at = true, now
	switch n.t.Op {
	case ir.TrigSeq:
		n.kids[0].arm(now)
	case ir.TrigAll, ir.TrigAny:
		for _, k := range n.kids {
			k.arm(now)
		}
	}
}

// step feeds a node an observation (nil: only time passed) and reports
// whether it is satisfied.
func (n *node) step(now time.Time, o *obs) bool {
	if n.done || !n.armed {
		return n.done
	}
	switch n.t.Op {
	case ir.TrigTimeout:
		n.done = !n.paused && !now.Before(n.at.Add(n.t.Duration.D()))
	case ir.TrigQuiet:
		n.done = n.read && !n.failed && !now.Before(later(n.last.Add(n.t.Duration.D()), n.until))
	case ir.TrigCall:
		if o != nil && o.call != nil && o.changed == n.t.Changed && observe.MatchCall(n.t, *o.call) {
			n.count++
			n.done = n.count >= max(n.t.Count, 1)
		}
	case ir.TrigRead:
		if o != nil && o.read != nil && observe.MatchRead(n.t, o.read) {
			n.count++
			n.done = n.count >= max(n.t.Count, 1)
		}
	case ir.TrigEvent, ir.TrigWrite:
		if o != nil && o.call == nil && o.read == nil && match(n.t, o) && n.celOK(o) {
			n.count++
			n.done = n.count >= max(n.t.Count, 1)
		}
	case ir.TrigSeq:
		n.done = n.stepSeq(now, o)
	case ir.TrigAll:
		n.done = true
		for _, k := range n.kids {
			n.done = k.step(now, o) && n.done
		}
	case ir.TrigAny:
		for _, k := range n.kids {
			n.done = k.step(now, o) || n.done
		}
	}
	return n.done
}

// stepSeq steps the current child of a sequence; when it completes, the
// next child is armed and only sees time, not this observation.
func (n *node) stepSeq(now time.Time, o *obs) bool {
	for i, k := range n.kids {
		if k.done {
			continue
		}
		if !k.step(now, o) {
			return false
		}
		if i+1 == len(n.kids) {
			return true
		}
		n.kids[i+1].arm(now)
		o = nil
	}
	return true
}

// deadline returns the earliest due time of an armed, unsatisfied
// timeout, as of now (a paused one is due its duration after now at the
// soonest).
func (n *node) deadline(now time.Time) (time.Time, bool) {
	if n.done || !n.armed {
		return time.Time{}, false
	}
	switch {
	case n.t.Op == ir.TrigTimeout && n.paused:
		return now.Add(n.t.Duration.D()), true
	case n.t.Op == ir.TrigTimeout:
		return n.at.Add(n.t.Duration.D()), true
	case n.t.Op == ir.TrigQuiet && n.read && !n.failed:
		return later(n.last.Add(n.t.Duration.D()), n.until), true
	}
	var best time.Time
	found := false
	for _, k := range n.kids {
		if d, ok := k.deadline(now); ok && (!found || d.Before(best)) {
			best, found = d, true
		}
	}
	return best, found
}

// pause pauses the armed timeouts of a tree (paused) or starts them at
// now.
func (n *node) pause(paused bool, now time.Time) {
	if n.t.Op == ir.TrigTimeout && n.armed && !n.done {
		n.paused, n.at = paused, now
	}
	for _, k := range n.kids {
		k.pause(paused, now)
	}
}

// touch tells the armed quiet leaves of a tree about the controller's
// activity: a request it made (answered now) or an event delivered to it
// (the engine leaves out heartbeats: Engine.heartbeat).
// A write that failed (a 409 on a stale status update, say) leaves the
// controller quiet but not done. It has not acted on what it saw yet and
// will try again, so the leaf waits for a write that succeeds (or for the
// bound the plan pairs it with). The same write refused with a conflict
// once more is neither activity nor a failure to wait out. The controller
// has acted on what it saw, twice. While its view stays as it is, the API
// server refuses it so on every retry (a create of an object the view
// lacks, an update from a past resourceVersion), with the retries ever
// further apart.
func (n *node) touch(now time.Time, e *trace.Entry) {
	if n.done || !n.armed {
		return
	}
	if n.t.Op == ir.TrigQuiet && (e.Type == trace.Request || e.Type == trace.Delivery) {
		n.quiet(now, e)
	}
	for _, k := range n.kids {
		k.touch(now, e)
	}
}

// waitLock tells the quiet leaves of a tree until when the controller
// waits for a leader-election lock (zero: it does not).
func (n *node) waitLock(until time.Time) {
	if n.t.Op == ir.TrigQuiet {
		n.until = until
	}
	for _, k := range n.kids {
		k.waitLock(until)
	}
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// quiet is touch for a quiet leaf.
func (n *node) quiet(now time.Time, e *trace.Entry) {
	n.read = n.read || reads(n.t.Target, e)
	if e.Type == trace.Request && isWrite(e.Verb) {
		var key trace.Key // a write with no object is named by its verb alone
		if e.Key != nil {
			key = *e.Key
		}
		sig := trace.Call(e.Verb, key, e.Subresource)
		if e.Code == http.StatusConflict && sig == n.refused {
			n.failed = false
			return
		}
		n.failed, n.refused = e.Code < 200 || e.Code > 299, ""
		if e.Code == http.StatusConflict {
			n.refused = sig
		}
	}
	n.last = now
}

// isWrite reports whether an API verb changes the cluster.
func isWrite(verb string) bool {
	switch verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

// reads reports whether request e is a get, list or watch that may return
// an object of target (a list or watch names no object; a read across
// namespaces names no namespace).
func reads(target *ir.Ref, e *trace.Entry) bool {
	if e.Type != trace.Request || e.Key == nil || (e.Verb != "get" && e.Verb != "list" && e.Verb != "watch") {
		return false
	}
	k := *e.Key
	if target == nil {
		return true
	}
	if k.Namespace == "" {
		k.Namespace = target.Namespace
	}
	if k.Name == "" {
		k.Name = target.Name
	}
	return observe.MatchRef(target, k.Kind, k.Namespace, k.Name)
}

// celOK evaluates a leaf's CEL condition on the object after the change;
// an evaluation error (a missing field) is false.
func (n *node) celOK(o *obs) bool {
	if n.prog == nil {
		return true
	}
	ok, err := n.prog.Eval(context.Background(), nil, o.rawObject())
	return err == nil && ok
}

// compile checks a trigger tree and compiles its CEL conditions into progs,
// making env on first need.
func compile(t *planfile.Trigger, env **celenv.Env, progs map[*planfile.Trigger]*celenv.Program) error {
	if err := check(t); err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if t.Where != nil && t.Where.Expr != "" {
		if *env == nil {
			e, err := celenv.New()
			if err != nil {
				return fmt.Errorf("trigger: %w", err)
			}
			*env = e
		}
		p, err := (*env).Compile(celenv.Where, t.Where.Expr)
		if err != nil {
			return fmt.Errorf("trigger %s: where %q: %w", t.Op, t.Where.Expr, err)
		}
		progs[t] = p
	}
	for _, a := range t.Args {
		if err := compile(a, env, progs); err != nil {
			return err
		}
	}
	return nil
}

// check reports a trigger the engine cannot evaluate (its arguments are
// checked by compile).
func check(t *planfile.Trigger) error {
	if t == nil {
		return nil
	}
	switch t.Op {
	case ir.TrigEvent, ir.TrigWrite:
		if t.Where != nil && t.Where.Path != "" {
			if _, err := ir.ParsePattern(t.Where.Path); err != nil {
				return fmt.Errorf("trigger %s: %w", t.Op, err)
			}
		}
	case ir.TrigCall:
		return observe.CallError(t)
	case ir.TrigRead:
		return observe.ReadError(t)
	case ir.TrigTimeout, ir.TrigQuiet:
	case ir.TrigSeq, ir.TrigAll, ir.TrigAny:
		if len(t.Args) == 0 {
			return fmt.Errorf("trigger %s: no arguments", t.Op)
		}
	default:
		return fmt.Errorf("unknown trigger %q (want event, write, call, read, timeout, quiet, then, all or any)", t.Op)
	}
	return nil
}

// match reports whether an event or write leaf matches an observation.
func match(t *planfile.Trigger, o *obs) bool {
	if !matchStream(t, o) || (t.On != "" && t.On != o.Verb) || t.Subresource != o.Subresource {
		return false
	}
	if !observe.MatchRef(t.Target, o.Key.Kind, o.Key.Namespace, o.Key.Name) {
		return false
	}
	if t.Diff != nil && t.Diff.String() != o.Diff.String() {
		return false
	}
	if t.NoLonger != nil && o.Object != nil && observe.Contains(o.Object, t.NoLonger) {
		return false
	}
	return t.Where == nil || t.Where.Expr != "" || cond(t.Where, o.rawObject())
}

// matchStream reports whether the observation comes from where the leaf
// looks: a successful write (a failed one for a Failed leaf, one about to
// be sent for a Sent leaf), or an event
// delivered to the controller (default) or seen in the cluster.
func matchStream(t *planfile.Trigger, o *obs) bool {
	switch t.Op {
	case ir.TrigWrite:
		if t.Sent {
			return o.Stream == observe.Sent
		}
		return o.Stream == observe.Written && o.OK() != t.Failed
	case ir.TrigEvent:
		if t.Seen == planfile.SeenCluster {
			return o.Stream == observe.Cluster
		}
		return o.Stream == observe.Delivered
	}
	return false
}

// cond evaluates a field condition on an object: the field is set (Exists)
// or equals Value (compared as JSON, so 3 and 3.0 are equal).
func cond(c *ir.Cond, obj map[string]any) bool {
	if c.Path == "" {
		return true
	}
	p, err := ir.ParsePattern(c.Path)
	if err != nil {
		return false
	}
	v, ok := p.Lookup(obj)
	if c.Exists || c.Value == nil {
		return ok && v != nil
	}
	a, err1 := json.Marshal(v)
	b, err2 := json.Marshal(c.Value)
	return ok && err1 == nil && err2 == nil && string(a) == string(b)
}
