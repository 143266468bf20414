package inject

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/analysis/trigger"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// event is what the call that observed it is deciding: the watch event a
// Filter call is deciding (ev), or the write or read a Before call is
// about to send (req), which an error action answers in the API server's
// place.
type event struct {
	ev      *proxy.Event
	verdict proxy.Verdict
	req     *proxy.Request
	// answer is what an error action answers req with; late says that req
	// goes to the API server first, and the answer replaces the server's
	// (timeout_applied).
	answer *proxy.StatusError
	late   bool
	// call is the call of the controller to its application that a Call
	// (or an Answered) is deciding; fault the app-fault action that
	// answers it wrongly. real, for an Answered, is the application's
	// answer the fault replaces (nil: not whole); answered says there is
	// one.
	call     *observe.Call
	fault    *planfile.Action
	real     *planfile.Answer
	answered bool
}

// before makes reads of an object whose events are held wait until they
// are released, so the controller cannot learn the hidden state by a get,
// and holds back writes about an object whose deletion is hidden. It
// shows the engine reads and writes as they are sent (send).
func (in *Injector) before(ctx context.Context, r *proxy.Request) error {
	in.heard(r.Start)
	switch {
	case observe.IsRead(r.Verb) && r.IsResource():
		if err := in.send(r); err != nil {
			return err // an error action answered the read
		}
		if r.Verb == "get" && in.held(r.Key) {
			return in.waitReleased(ctx, r.Key)
		}
	case r.IsWrite():
		if k, ok := in.aboutHidden(r); ok {
			return in.refuse(ctx, r, k)
		}
		return in.send(r)
	}
	return nil
}

// send shows the engine a read or a write about to be sent and carries
// out the actions it fires: an error action answers it in the API
// server's place (the error returned), or, with a write applied, once
// the server has answered (after).
func (in *Injector) send(r *proxy.Request) error {
	if !in.sends {
		return nil // nothing in the plan looks at requests as sent
	}
	sent := r.Start // the controller's view when it sent the write is the write's basis
	if sent.IsZero() {
		sent = time.Now()
	}
	key := r.Key
	e := trace.Entry{Time: sent, Type: trace.Request, Key: &key, Verb: r.Verb, Subresource: r.Subresource, Body: r.Body}
	cur := &event{req: r}
	in.advance(func() []trigger.Fired { return in.eng.Send(&e) }, cur)
	switch {
	case cur.answer == nil:
		return nil
	case cur.late:
		in.mu.Lock()
		in.late[r.ID] = cur.answer
		in.mu.Unlock()
		return nil
	}
	return cur.answer
}

// answer carries out an error action: the write or read about to be sent
// is answered with the action's API error (proxy.APIError) instead of
// the API server's answer, and, but for timeout_applied, never sent; for
// gone, the watch of the event being filtered ends after it (endWatch).
func (in *Injector) answer(a *planfile.Action, cur *event, note func(string, *trace.Key)) error {
	if a.Error == ir.ErrGone {
		return in.endWatch(cur, note)
	}
	if cur == nil || cur.req == nil {
		return missedError("no request was about to be sent when the trigger completed (an error action's trigger ends on a write leaf with sent, or a read leaf)")
	}
	r := cur.req
	if observe.IsRead(r.Verb) && !a.Error.AnswersRead() {
		return missedError(fmt.Sprintf("%s %s is a read, which %s does not answer", r.Verb, requestKey(r), a.Error))
	}
	se, err := proxy.APIError(a.Error, r)
	if err != nil {
		return err
	}
	key := r.Key
	how := "without sending it"
	if a.Error == ir.ErrTimeoutApplied {
		how = "once the API server has applied it"
	}
	note(fmt.Sprintf("%s %s answered %d %s (%s) %s", r.Verb, requestKey(r), se.Code, se.Reason, a.Error, how), &key)
	cur.answer, cur.late = se, a.Error == ir.ErrTimeoutApplied
	return nil
}

// requestKey names what a request is about: its object, or for a list
// its kind and namespace with "*" for a name ("pod/default/*").
func requestKey(r *proxy.Request) string {
	k := r.Key
	if k.Name == "" {
		k.Name = "*"
	}
	return k.String()
}

// endWatch carries out an error action of gone: the watch event being
// filtered is delivered, then its watch ends with 410 Expired
// (proxy.Gone), and the controller's informer lists again. Until it
// watches that kind again, the kind is in a gap (hideInGap).
func (in *Injector) endWatch(cur *event, note func(string, *trace.Key)) error {
	if cur == nil || cur.ev == nil {
		return missedError("no watch event was on its way to the controller when the trigger completed (a gone error action's trigger ends on an event leaf)")
	}
	key := cur.ev.Key
	note(fmt.Sprintf("%s %s %s delivered, then its watch ended with 410 Expired (the controller lists again)", cur.ev.Type, key, cur.ev.ResourceVersion), &key)
	cur.verdict = proxy.Gone
	in.mu.Lock()
	in.gaps[key.Kind] = true
	in.mu.Unlock()
	return nil
}

// hideInGap takes a deletion in the cluster history of an object whose
// kind the controller does not watch for now (a Gone ended the watch,
// and its informer waits to watch again, a second or so of client-go's
// backoff) as hidden from it: its writes about the object are refused
// (refuse), as during a hold of a deletion. A real API server's 410 leaves
// the controller as blind, but the differential oracle would count what
// it recreates for an owner that is gone (the StatefulSet controller made
// a deleted set's ControllerRevision six times, each collected).
func (in *Injector) hideInGap(e trace.Entry) {
	if e.Event != "DELETED" || e.Key == nil {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.gaps[e.Key.Kind] {
		in.hidden = append(in.hidden, *e.Key)
	}
}

// endGap ends the gap of kind: the controller watches it again, and the
// new watch shows it what was deleted meanwhile.
func (in *Injector) endGap(kind string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.gaps[kind] {
		return
	}
	delete(in.gaps, kind)
	in.hidden = slices.DeleteFunc(in.hidden, func(k trace.Key) bool { return k.Kind == kind })
}

// aboutHidden returns the object whose deletion is hidden from the
// controller that write r is about: the object itself, or the owner named
// in the ownerReferences of the object it writes.
func (in *Injector) aboutHidden(r *proxy.Request) (trace.Key, bool) {
	in.mu.Lock()
	hidden := slices.Clone(in.hidden)
	in.mu.Unlock()
	if len(hidden) == 0 {
		return trace.Key{}, false
	}
	owners := observe.OwnerKeys(r.Key, r.Body)
	for _, k := range hidden {
		if r.Key == k || slices.Contains(owners, k) {
			return k, true
		}
	}
	return trace.Key{}, false
}

// refuse makes a write about object k, whose deletion the controller has
// not been shown, wait until the hold ends, then answers it with a
// conflict without sending it. Sieve pauses the controller before it reads
// a hidden object; sieve cannot pause reads of the controller's own cache,
// so it pauses what the controller would do with them. Without this, a
// controller that believes a deleted object still exists recreates its
// dependents for as long as the hold lasts, only for the garbage collector
// to delete them: a false alarm that Sieve's controllers never saw. After
// the conflict the controller retries with the state it sees then.
func (in *Injector) refuse(ctx context.Context, r *proxy.Request, k trace.Key) error {
	if err := in.waitReleased(ctx, k); err != nil {
		return err
	}
	msg := fmt.Sprintf("%s %s held while the deletion of %s was hidden, then refused", r.Verb, r.Key, k)
	if in.opts.Sink != nil {
		key := r.Key
		in.opts.Sink(trace.Entry{Time: time.Now(), Type: trace.Fault, What: "refuse", Key: &key, Message: msg})
	}
	return &proxy.StatusError{Code: http.StatusConflict, Reason: "Conflict", Message: "sieve proxy: " + msg + " (retry with the current state)"}
}

// waitReleased holds a request until no event of k is held, counting it
// among the requests Waiting.
func (in *Injector) waitReleased(ctx context.Context, k trace.Key) error {
	in.waiting.Add(1)
	defer in.waiting.Add(-1)
	return in.opts.Proxy.WaitReleased(ctx, k)
}

// Waiting returns how many of the controller's requests are being held
// until a hold ends. They are in flight for the proxy, but they wait for
// the plan, not for the API server: a controller whose only requests are
// these is quiet.
func (in *Injector) Waiting() int { return int(in.waiting.Load()) }

// after observes an answered request (a watch once it is open). A crash
// that its write fires kills the controller before the answer is written
// back, and the answer is dropped.
func (in *Injector) after(ctx context.Context, r *proxy.Request, resp *proxy.Response) error {
	if !r.IsResource() {
		return nil
	}
	if r.Verb == "watch" {
		in.endGap(r.Key.Kind)
	}
	now := time.Now()
	sent := r.Start // the controller's view when it sent the write is the write's basis
	if sent.IsZero() {
		sent = now
	}
	key := r.Key
	e := trace.Entry{Time: sent, Type: trace.Request, Key: &key, Verb: r.Verb, Subresource: r.Subresource,
		Body: r.Body, Code: resp.Code, Response: resp.Body, Done: &now}
	if in.observe(&e, nil) {
		return proxy.ErrAbort
	}
	in.mu.Lock()
	se := in.late[r.ID]
	delete(in.late, r.ID)
	in.mu.Unlock()
	if se != nil {
		return se // the write applied, its answer replaced (timeout_applied)
	}
	return nil
}

// filter observes a watch event on its way to the controller and decides
// whether it is delivered, held or delivered in place of held ones.
func (in *Injector) filter(_ *proxy.Stream, ev *proxy.Event) proxy.Verdict {
	if ev.Type == "BOOKMARK" || ev.Type == "ERROR" {
		return proxy.Deliver
	}
	id := ev.Type + " " + ev.Key.String() + " " + ev.ResourceVersion
	in.mu.Lock()
	v, seen := in.verdicts[id]
	in.mu.Unlock()
	if seen {
		return again(v)
	}
	key := ev.Key
	e := trace.Entry{Time: time.Now(), Type: trace.Delivery, Key: &key, Event: ev.Type, ResourceVersion: ev.ResourceVersion, Object: ev.Object}
	in.noteRevision(&e)
	cur := &event{ev: ev, verdict: proxy.Deliver}
	in.observe(&e, cur)
	if cur.verdict == proxy.Deliver && in.held(ev.Key) {
		cur.verdict = proxy.Hold
	}
	in.mu.Lock()
	in.verdicts[id] = cur.verdict
	in.mu.Unlock()
	return cur.verdict
}

// again is the verdict for an event offered again (on another watch, or
// by the watch the controller opened after a Gone): the one decided the
// first time, but a watch is ended once. A relist hands the controller
// the object's state as it is, the same event again when the object has
// not changed since, and ending that watch too would end every watch that
// follows, for as long as the object stays as it is.
func again(v proxy.Verdict) proxy.Verdict {
	if v == proxy.Gone {
		return proxy.Deliver
	}
	return v
}

// advance takes from the engine the actions that step fires and carries
// them out (see run). One step at a time: an action the engine counts as
// fired has taken effect by the time another step, or next, looks at the
// engine.
func (in *Injector) advance(step func() []trigger.Fired, cur *event) (killed bool) {
	in.acting.Lock()
	defer in.acting.Unlock()
	return in.run(step(), cur)
}

// observe shows the engine an entry of the run and carries out the
// actions it fires.
func (in *Injector) observe(e *trace.Entry, cur *event) (killed bool) {
	return in.advance(func() []trigger.Fired { in.observeAts(e); return in.eng.Observe(e) }, cur)
}

// run carries out fired actions in order. cur is the watch event being
// filtered, if any. It reports whether the controller was killed (so an
// answer on its way must be dropped). Each action's Fault entry is written
// just before its effect (a kill, deliveries of held events), so that the
// trace shows the cause before what it caused.
func (in *Injector) run(fired []trigger.Fired, cur *event) (killed bool) {
	for _, f := range fired {
		a := in.opts.Plan.Actions[f.Action]
		if a.Kind == ir.ActCrash || a.Kind == ir.ActRestart {
			killed = true
		}
		noted := false
		note := func(msg string, k *trace.Key) { noted = true; in.record(f, a, k, msg) }
		err := in.do(a, cur, note)
		var missed missedError
		switch {
		case errors.As(err, &missed):
			in.recordMissed(f, a, string(missed))
		case err != nil:
			err = fmt.Errorf("inject: plan %s: action %d (%s): %w", in.opts.Plan.Name, f.Action+1, a.Kind, err)
			in.fail(err)
			if !noted {
				in.record(f, a, nil, "failed: "+err.Error())
			}
		}
	}
	return killed
}

// do carries out one action, calling note with what it does just before
// doing it.
func (in *Injector) do(a *planfile.Action, cur *event, note func(string, *trace.Key)) error {
	switch a.Kind {
	case ir.ActCrash, ir.ActRestart:
		note("controller killed (SIGKILL) and started again", nil)
		if err := in.opts.Controller.Kill(); err != nil {
			return err
		}
		in.endPause() // the new process runs
		in.killedAt.Store(time.Now().UnixNano())
		in.restart()
	case ir.ActStaleOn:
		s := in.scope(a.Scope)
		rev, how := in.revision(a, s)
		if rev == "" && a.At != nil {
			return missedError(in.missedAt(a))
		}
		note(fmt.Sprintf("view frozen at revision %s (%s)", rev, how), scopeKey(s))
		return in.opts.Proxy.StaleView(s, rev)
	case ir.ActStaleOff:
		s := in.scope(a.Scope)
		note("view resumed, newest held state of each object delivered", scopeKey(s))
		in.opts.Proxy.Resume(s)
	case ir.ActHold:
		note("holding events", refKey(a.Scope))
		in.mu.Lock()
		in.holding = append(in.holding, a.Scope)
		bound := a.HoldBound().D()
		if bound <= 0 {
			bound = in.opts.MaxHold
		}
		in.heldAt[a.Scope] = hold{at: time.Now(), bound: bound}
		if cur != nil && cur.ev != nil && cur.ev.Type == "DELETED" && in.covers(a.Scope, cur.ev.Key) {
			in.hidden = append(in.hidden, cur.ev.Key)
		}
		in.mu.Unlock()
		if cur != nil && cur.ev != nil && in.covers(a.Scope, cur.ev.Key) {
			cur.verdict = proxy.Hold
		}
	case ir.ActRelease:
		in.release(a.Scope, cur, note)
	case ir.ActError:
		return in.answer(a, cur, note)
	case ir.ActAppFault:
		return in.answerCall(a, cur, note)
	case ir.ActPause:
		return in.pause(a, note)
	case ir.ActResume:
		if !in.endPause() {
			note("the controller was not paused any more (its pause had ended)", nil)
			return nil
		}
		note("controller resumed (SIGCONT)", nil)
		return in.opts.Controller.Resume()
	default:
		note("", nil) // wait: the engine keeps the time
	}
	return nil
}

// pause stops the controller until a resume, or for the action's Duration
// (ir.DefaultPauseFor) at most (see expirePause).
func (in *Injector) pause(a *planfile.Action, note func(string, *trace.Key)) error {
	bound := a.Duration.D()
	if bound <= 0 {
		bound = ir.DefaultPauseFor
	}
	note(fmt.Sprintf("controller paused (SIGSTOP), for %s at most", bound), nil)
	if err := in.opts.Controller.Pause(); err != nil {
		return err
	}
	in.mu.Lock()
	in.paused = &hold{at: time.Now(), bound: bound}
	in.mu.Unlock()
	return nil
}

// endPause forgets the pause in force and reports whether there was one.
func (in *Injector) endPause() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	was := in.paused != nil
	in.paused = nil
	return was
}

// expirePause lets the controller go on once its pause has lasted its
// bound; the plan's resume, when it comes, then finds it running.
func (in *Injector) expirePause() {
	in.mu.Lock()
	p := in.paused
	in.mu.Unlock()
	if p != nil && time.Since(p.at) > p.bound {
		in.unpause(fmt.Sprintf("no resume within %s", p.bound))
	}
}

// unpause lets a paused controller go on, saying why in the trace.
func (in *Injector) unpause(why string) {
	if !in.endPause() {
		return
	}
	if in.opts.Sink != nil {
		in.opts.Sink(trace.Entry{Time: time.Now(), Type: trace.Fault, What: string(ir.ActResume), Message: why + ": controller resumed (SIGCONT)"})
	}
	if err := in.opts.Controller.Resume(); err != nil {
		in.fail(fmt.Errorf("inject: plan %s: resume: %w", in.opts.Plan.Name, err))
	}
}

// release stops holding a scope. When the event being filtered is in the
// scope, it replaces the held ones (hold-and-coalesce); otherwise the
// newest held state of each object is delivered.
func (in *Injector) release(scope *ir.Ref, cur *event, note func(string, *trace.Key)) {
	in.unhold(scope)
	if cur != nil && cur.ev != nil && in.covers(scope, cur.ev.Key) {
		note("held events dropped, "+cur.ev.Type+" "+cur.ev.ResourceVersion+" delivered instead", refKey(scope))
		cur.verdict = proxy.Supersede
		return
	}
	note("newest held state of each object delivered", refKey(scope))
	in.opts.Proxy.Release(func(_ *proxy.Stream, ev *proxy.Event) bool { return in.covers(scope, ev.Key) })
}

// unhold stops holding the events of a scope.
func (in *Injector) unhold(scope *ir.Ref) {
	in.mu.Lock()
	defer in.mu.Unlock()
	keep := in.holding[:0]
	for _, h := range in.holding {
		if *h != *scope {
			keep = append(keep, h)
		}
	}
	in.holding = keep
	in.hidden = slices.DeleteFunc(in.hidden, func(k trace.Key) bool { return in.covers(scope, k) })
	// A released hold must not expire later: expireHolds would report it
	// again on every tick.
	for h := range in.heldAt {
		if *h == *scope {
			delete(in.heldAt, h)
		}
	}
}

// expireHolds delivers the events of holds older than their bound: the
// hold action's Duration or learned Bound, or MaxHold. The event that
// cancels them has not come, and holding on would only stall the run. It
// also delivers the events of holds that have stalled while the workload
// waits (stalled). The trace says what happened; the plan's release
// action still fires when the cancelling event comes.
func (in *Injector) expireHolds() {
	now := time.Now()
	in.mu.Lock()
	var expired, stalled []*ir.Ref
	bounds := map[*ir.Ref]time.Duration{}
	for h, hd := range in.heldAt {
		switch held := now.Sub(hd.at); {
		case held > hd.bound:
			expired, bounds[h] = append(expired, h), hd.bound
		case in.stalled(held, now):
			stalled = append(stalled, h)
		}
	}
	in.mu.Unlock()
	for _, h := range expired {
		in.lift(h, fmt.Sprintf("no cancelling event within %s", bounds[h]))
	}
	for _, h := range stalled {
		in.lift(h, "nothing moved (the workload, the controller and the cluster wait for the held state)")
	}
}

// stalled reports whether a hold in place for held has stalled at now. It
// has when all of these hold:
//
//   - the workload waits (for the held state itself, it may be);
//   - no request of the controller's is under way (but those held until a
//     hold ends);
//   - the controller waits for no leader-election lock (proxy.Activity's
//     LockWait: it is not running yet);
//   - neither the controller nor the cluster has done anything for Stall,
//     or the evidence says they are done (settled) and the hold has lasted
//     Quiet.
func (in *Injector) stalled(held time.Duration, now time.Time) bool {
	a := in.opts.Proxy.Activity()
	if !in.waitStep.Load() || a.InFlight-in.Waiting() > 0 || now.Before(a.LockWait) {
		return false
	}
	moved := in.movedAt(now)
	if min(now.Sub(a.Last), now.Sub(moved)) >= in.opts.Stall && held >= in.opts.Stall {
		return true
	}
	return held >= in.opts.Quiet && in.settled(a, now)
}

// settled reports whether the evidence says the controller and the
// cluster are done at now, the proxy's activity being a, with the fault as
// it is. The controller must not be starting (Restarting), and
// proxy.Settled must hold with the Quiet bound. It leaves out what the
// holds and stale views keep back on purpose (held events, requests
// waiting for a hold). False when Quiet is 0.
func (in *Injector) settled(a proxy.Activity, now time.Time) bool {
	q := in.opts.Quiet
	if q <= 0 || in.Restarting() {
		return false
	}
	if a.InFlight-in.Waiting() > 0 {
		return false
	}
	a.InFlight, a.Held = 0, 0
	// The window is no bound here: the callers have their own.
	return proxy.Settled(a, in.movedAt(now), now, proxy.Bounds{Quiet: q, Window: math.MaxInt64})
}

// movedAt is when the cluster last changed, as of now: now while it has
// work scheduled (Options.Pending), else the latest change of the history,
// heartbeats aside.
func (in *Injector) movedAt(now time.Time) time.Time {
	if in.opts.Pending != nil && in.opts.Pending() {
		return now
	}
	return time.Unix(0, in.moved.Load())
}

// Finish ends the fault when the workload is over, so that the run is
// judged once it is. It waits for the plan's actions that a timer will
// fire: a wait, or a stale view's bound (a stale view ends sooner, once
// the controller has settled with it; see settled). It then lifts the
// holds still in place (endHolds) and lets a paused controller go on. It
// reports whether it did anything, in which case the controller should be
// given the chance to settle again.
func (in *Injector) Finish(ctx context.Context) bool {
	acted := false
	for {
		at, ok := in.next()
		if !ok {
			break
		}
		acted = true
		if in.settled(in.opts.Proxy.Activity(), time.Now()) {
			in.advance(in.eng.EndStale, nil)
		}
		select {
		case <-ctx.Done():
			return acted
		case <-time.After(max(min(time.Until(at), finishLook), finishPoll)):
		}
		in.advance(in.eng.Tick, nil)
	}
	if in.Holding() {
		in.endHolds()
		acted = true
	}
	if in.Paused() {
		in.unpause("the workload is over")
		acted = true
	}
	return acted
}

// Paused reports whether the plan keeps the controller paused.
func (in *Injector) Paused() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.paused != nil
}

// next returns, once no action is under way, when the plan's next action
// is due; false when every action has fired or the next waits for an
// event.
func (in *Injector) next() (time.Time, bool) {
	in.acting.Lock()
	defer in.acting.Unlock()
	if in.eng.Done() {
		return time.Time{}, false
	}
	return in.eng.Deadline()
}

// finishPoll and finishLook are the shortest and the longest wait of
// Finish between two looks at the plan and the controller.
const (
	finishPoll = 20 * time.Millisecond
	finishLook = 100 * time.Millisecond
)

// endHolds lifts the holds still in place, as if they had expired (Finish,
// when the workload is over). A controller can wait for the very state a
// hold hides (its own status write, say). The end state is compared once
// the fault is over and the controller has had the chance to catch up,
// not in the middle of it.
func (in *Injector) endHolds() {
	in.mu.Lock()
	holds := slices.Clone(in.holding)
	in.mu.Unlock()
	for _, h := range holds {
		in.lift(h, "the workload is over")
	}
}

// lift stops holding a scope and delivers the newest held state of each
// object.
func (in *Injector) lift(h *ir.Ref, why string) {
	in.unhold(h)
	n := in.opts.Proxy.Release(func(_ *proxy.Stream, ev *proxy.Event) bool { return in.covers(h, ev.Key) })
	if in.opts.Sink != nil {
		in.opts.Sink(trace.Entry{Time: time.Now(), Type: trace.Fault, What: "release", Key: refKey(h),
			Message: fmt.Sprintf("%s: %d events delivered, the newest held state of each object", why, n)})
	}
}

// restart starts the killed controller again in the background; a plan's
// next action may fire while it starts.
func (in *Injector) restart() {
	in.mu.Lock()
	ctx := in.ctx
	in.mu.Unlock()
	if ctx == nil || ctx.Err() != nil {
		return
	}
	in.wg.Add(1)
	go func() {
		defer in.wg.Done()
		if err := in.opts.Controller.Restart(ctx); err != nil && ctx.Err() == nil {
			in.fail(fmt.Errorf("inject: plan %s: restart: %w", in.opts.Plan.Name, err))
		}
	}()
}

func (in *Injector) record(f trigger.Fired, a *planfile.Action, k *trace.Key, msg string) {
	if in.opts.Sink == nil {
		return
	}
	i := f.Action
	in.opts.Sink(trace.Entry{Time: f.At, Type: trace.Fault, Action: &i, What: string(a.Kind), Key: k, Message: msg})
}

// missedError is an action whose trigger fired but that could not take
// effect, and why: not a failure of the run, but the action did not fire.
type missedError string

func (m missedError) Error() string { return string(m) }

// recordMissed writes the Fault entry of an action that missed: its What
// is trace.Missed, so the plan is not counted as injected.
func (in *Injector) recordMissed(f trigger.Fired, a *planfile.Action, why string) {
	if in.opts.Sink == nil {
		return
	}
	i := f.Action
	in.opts.Sink(trace.Entry{Time: f.At, Type: trace.Fault, Action: &i, What: trace.Missed, Key: refKey(a.Scope), Message: why})
}

func (in *Injector) fail(err error) {
	if in.opts.Errors != nil {
		in.opts.Errors(err)
	}
}
