package trigger

import (
	"fmt"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
)

// Clock tells the time; tests inject a fake one.
type Clock interface {
	Now() time.Time
}

// wallClock is the real clock.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// Options configure an engine. The zero value is the default.
type Options struct {
	// Clock defaults to the wall clock.
	Clock Clock
	// Masks must be the masks the plan was generated with (observe.Masks of
	// the test); nil means observe.Masks(nil), the built-in ones.
	Masks *mask.Matcher
}

// Fired is an action that fired.
type Fired struct {
	// Action is the index of the action in the plan.
	Action int           `json:"action"`
	Kind   ir.ActionKind `json:"kind"`
	At     time.Time     `json:"at"`
	// Seq is the sequence number of the observation that completed the
	// trigger (0 for a timeout, a wait or an action without trigger).
	Seq int64 `json:"seq,omitempty"`
}

// Status is the record of one action: whether and when it fired.
type Status struct {
	Action int           `json:"action"`
	Kind   ir.ActionKind `json:"kind"`
	Fired  bool          `json:"fired"`
	At     time.Time     `json:"at,omitzero"`
	Seq    int64         `json:"seq,omitempty"`
}

// Engine decides when a plan's actions fire. It is safe for concurrent
// use; observations are taken in the order the calls are made.
type Engine struct {
	mu      sync.Mutex
	plan    *planfile.Plan
	clock   Clock
	tracker *observe.Tracker
	progs   map[*planfile.Trigger]*celenv.Program
	cur     int   // index of the armed action
	root    *node // its trigger (nil: fires at once)
	// waitUntil delays arming the next action after a wait action.
	waitUntil time.Time
	// restarting: the action fired last killed the controller, and the
	// restarted one has not sent a request yet (Restarted).
	restarting bool
	started    bool
	fired      []Fired
	// locks and beats tell the controller's heartbeats (reads and
	// renewals of its leader-election lock, deliveries that only show a
	// lock renewed), which are no activity for a quiet leaf.
	locks leader.Locks
	beats leader.Beats
	// answers is the latest answer to each call signature
	// (observe.Call.Signature) shown to Answered.
	answers map[string]*planfile.Answer
}

// New returns an engine for plan p. It fails on a trigger it cannot
// evaluate (an unknown node, a bad path, a CEL condition that does not
// compile).
func New(p *planfile.Plan, o Options) (*Engine, error) {
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	if o.Masks == nil {
		m, err := observe.Masks(nil)
		if err != nil {
			return nil, err
		}
		o.Masks = m
	}
	var env *celenv.Env
	progs := map[*planfile.Trigger]*celenv.Program{}
	for i, a := range p.Actions {
		if err := compile(a.Trigger, &env, progs); err != nil {
			return nil, fmt.Errorf("trigger: plan %s: action %d (%s): %w", p.Name, i+1, a.Kind, err)
		}
	}
	return &Engine{plan: p, clock: o.Clock, tracker: observe.NewTracker(o.Masks), progs: progs}, nil
}

// Start arms the first action; call it when the run starts. It returns the
// actions that fire at once (those without a trigger).
func (e *Engine) Start() []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.started {
		return nil
	}
	e.started = true
	var out []Fired
	e.arm(e.clock.Now(), &out)
	return out
}

// Observe takes the next trace entry (a delivery about to be delivered, a
// history entry, a request with its answer) and returns the actions it
// fires, in order. Timeouts due by now fire first.
func (e *Engine) Observe(ent *trace.Entry) []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	o, ok := e.tracker.Observe(ent)
	if !e.started {
		return nil
	}
	var out []Fired
	now := e.clock.Now()
	e.poll(now, nil, 0, &out)
	if e.root != nil && !e.heartbeat(ent) {
		e.root.touch(now, ent)
	}
	if ok {
		e.poll(now, &obs{Observed: o}, ent.Seq, &out)
	}
	return out
}

// Send takes a request the controller is about to send, before it is
// forwarded (the trace.Request entry of the request, with no answer yet),
// and returns the actions it fires: those whose trigger ends on a write
// leaf with Sent (for a write) or on a read leaf (for a get or a list),
// which answer the request in the API server's place. The answered
// request is then given to Observe as usual (unless an action answered
// it instead).
func (e *Engine) Send(ent *trace.Entry) []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	o := &obs{read: ent}
	if !observe.IsRead(ent.Verb) {
		s, ok := e.tracker.Sent(ent)
		if !ok {
			return nil
		}
		o = &obs{Observed: s}
	}
	if !e.started {
		return nil
	}
	var out []Fired
	now := e.clock.Now()
	e.poll(now, nil, 0, &out)
	e.poll(now, o, ent.Seq, &out)
	return out
}

// Call takes a call of the controller to its application that is about
// to be answered (an exec, an HTTP request to a stand-in) and returns the
// actions it fires: those whose trigger ends on a call leaf, which answer
// the call wrongly in the application's place.
func (e *Engine) Call(c observe.Call) []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.started {
		return nil
	}
	var out []Fired
	now := e.clock.Now()
	e.poll(now, nil, 0, &out)
	e.poll(now, &obs{call: &c}, 0, &out)
	return out
}

// Answered takes a call of the controller to its application once the
// application has answered it, with that answer (nil: not whole,
// observe.HTTPAnswer and observe.ExecAnswer), before the controller has
// it, and returns the actions it fires: those whose trigger ends on a
// call leaf with Changed, when the answer differs from the previous
// equal call's (observe.AnswerChanged). Such an action (a stale answer)
// replaces the answer. Only the calls of a plan with such a leaf
// (planfile.Plan.Changes) need be shown.
func (e *Engine) Answered(c observe.Call, a *planfile.Answer) []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.answers == nil {
		e.answers = map[string]*planfile.Answer{}
	}
	sig := c.Signature()
	changed := observe.AnswerChanged(e.answers[sig], a)
	e.answers[sig] = a
	if !e.started {
		return nil
	}
	var out []Fired
	now := e.clock.Now()
	e.poll(now, nil, 0, &out)
	if changed {
		e.poll(now, &obs{call: &c, changed: true}, 0, &out)
	}
	return out
}

// heartbeat reports whether ent is a heartbeat of the controller: a
// request that reads or renews its leader-election lock, a delivery that
// only shows a lock renewed (package leader).
func (e *Engine) heartbeat(ent *trace.Entry) bool {
	switch ent.Type {
	case trace.Request:
		return e.locks.Request(ent)
	case trace.Delivery:
		return e.beats.Entry(*ent)
	}
	return false
}

// Tick fires the actions whose timeouts (or waits) are due now. The caller
// calls it at Deadline, or whenever it likes.
func (e *Engine) Tick() []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.started {
		return nil
	}
	var out []Fired
	e.poll(e.clock.Now(), nil, 0, &out)
	return out
}

// EndStale fires the armed action now if it is a stale-off. Its trigger
// only bounds the stale window, and the caller has the evidence that
// waiting on shows nothing more: the workload is over and the controller
// has settled with the view frozen. It returns what fired.
func (e *Engine) EndStale() []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.started || !e.waitUntil.IsZero() || e.cur >= len(e.plan.Actions) || e.plan.Actions[e.cur].Kind != ir.ActStaleOff {
		return nil
	}
	var out []Fired
	e.fire(e.clock.Now(), 0, &out)
	return out
}

// Restarted tells the engine that the controller an action killed has
// sent its first request since, at now. The timeouts of the action armed
// after the kill start then: a stale view's bound is the time the
// restarted controller has to read the frozen state, not the time it
// takes to start, which a busy machine stretches past that bound.
func (e *Engine) Restarted(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.restarting && e.root != nil {
		e.root.pause(false, now)
	}
	e.restarting = false
}

// Deadline returns the earliest time at which a timeout or a wait is due,
// if any is armed.
func (e *Engine) Deadline() (time.Time, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.waitUntil.IsZero() {
		return e.waitUntil, true
	}
	if e.root == nil {
		return time.Time{}, false
	}
	return e.root.deadline(e.clock.Now())
}

// Done reports whether every action has fired.
func (e *Engine) Done() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cur >= len(e.plan.Actions)
}

// Fired returns the actions that fired so far, in order.
func (e *Engine) Fired() []Fired {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Fired(nil), e.fired...)
}

// Status returns the record of every action of the plan.
func (e *Engine) Status() []Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Status, len(e.plan.Actions))
	for i, a := range e.plan.Actions {
		out[i] = Status{Action: i, Kind: a.Kind}
	}
	for _, f := range e.fired {
		out[f.Action].Fired, out[f.Action].At, out[f.Action].Seq = true, f.At, f.Seq
	}
	return out
}

// poll feeds the armed trigger an observation (nil: time only) and fires
// actions as long as their triggers complete.
func (e *Engine) poll(now time.Time, o *obs, seq int64, out *[]Fired) {
	if !e.waitUntil.IsZero() {
		if now.Before(e.waitUntil) {
			return
		}
		e.waitUntil = time.Time{}
		e.arm(now, out)
		o = nil // the observation came during the wait
	}
	if e.cur >= len(e.plan.Actions) || e.root == nil {
		return
	}
	e.root.waitLock(e.locks.Until())
	if e.root.step(now, o) {
		if o == nil {
			seq = 0
		}
		e.fire(now, seq, out)
	}
}

// arm arms the current action's trigger; an action without one fires at
// once (and arms the next).
func (e *Engine) arm(now time.Time, out *[]Fired) {
	if e.cur >= len(e.plan.Actions) {
		return
	}
	t := e.plan.Actions[e.cur].Trigger
	if t == nil {
		e.fire(now, 0, out)
		return
	}
	e.root = newNode(t, e.progs)
	e.root.arm(now)
	if e.restarting {
		e.root.pause(true, now)
	}
	if e.root.step(now, nil) { // a zero timeout
		e.fire(now, 0, out)
	}
}

// fire records the current action, moves to the next and arms it, or,
// after a wait action, schedules arming it.
func (e *Engine) fire(now time.Time, seq int64, out *[]Fired) {
	a := e.plan.Actions[e.cur]
	f := Fired{Action: e.cur, Kind: a.Kind, At: now, Seq: seq}
	e.fired = append(e.fired, f)
	*out = append(*out, f)
	e.cur++
	e.root = nil
	e.restarting = a.Kind == ir.ActCrash || a.Kind == ir.ActRestart
	if a.Kind == ir.ActWait && a.Duration > 0 {
		e.waitUntil = now.Add(a.Duration.D())
		return
	}
	e.arm(now, out)
}
