package inject

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/analysis/trigger"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// Controller is what the injector needs of the controller runner.
type Controller interface {
	// Kill sends SIGKILL and returns once the process is gone.
	Kill() error
	// Restart kills the controller if it runs and starts it again.
	Restart(ctx context.Context) error
	// Pause stops the controller where it is (SIGSTOP) until Resume;
	// Resume lets it go on (SIGCONT).
	Pause() error
	Resume() error
}

// Proxy is what the injector needs of the interception proxy.
type Proxy interface {
	StaleView(s proxy.Scope, rv string) error
	Resume(s proxy.Scope) int
	Release(match func(s *proxy.Stream, ev *proxy.Event) bool) int
	WaitReleased(ctx context.Context, k trace.Key) error
	Activity() proxy.Activity
}

// Options configure an Injector. Plan, Proxy and Controller are required.
type Options struct {
	Plan       *planfile.Plan
	Proxy      Proxy
	Controller Controller
	// Masks are the masks the plan was generated with (observe.Masks of the
	// test).
	Masks *mask.Matcher
	// Sink receives a Fault entry for each action that fires; may be nil.
	Sink func(trace.Entry)
	// Errors receives problems that happen while carrying out an action
	// (a restart that fails); may be nil.
	Errors func(error)
	// MaxHold bounds how long events stay held when the event that cancels
	// them never comes (the controller may wait for what it cannot see),
	// for a hold action with no bound of its own (planfile.Action.HoldBound);
	// default ir.DefaultHoldFor.
	MaxHold time.Duration
	// Stall lifts a hold sooner, once it has lasted this long while the
	// workload waits for a condition, and both the controller and the
	// cluster have been still for as long. Still means no request of the
	// controller's in flight (but those the hold makes wait), no request
	// or event through the proxy, and no change in the cluster but
	// heartbeats (leader.Beats). Nothing will then bring the cancelling
	// event: the controller, and the workload with it, waits for the held
	// state itself. A run passes its test's settle window; default
	// ir.DefaultSettle. It is the upper bound: see Quiet.
	Stall time.Duration
	// Quiet lifts such a hold sooner still, once it has lasted Quiet and
	// the evidence says the controller and the cluster are done: still
	// for Quiet, no watch event arriving, no retry the controller was told
	// to make outstanding (proxy.Settled). 0: only Stall counts.
	Quiet time.Duration
	// Pending reports whether the cluster has work of its own scheduled
	// that its objects do not show yet (a simulated pod in its termination
	// grace, a StatefulSet's status that does not count a pod's readiness
	// yet): the cluster is still moving, and no hold is lifted for
	// stillness meanwhile. Nil: never.
	Pending func() bool
}

// Injector carries out one plan. Install its Hooks on the proxy, feed it
// the history and the workload steps with Observe, call Start when the run
// starts, Finish when the workload is over and Stop when the run ends.
type Injector struct {
	opts    Options
	eng     *trigger.Engine
	tracker *observe.Tracker // the run's own deliveries, to find stale revisions

	acting sync.Mutex // one engine step and its actions at a time (advance)

	mu       sync.Mutex
	ctx      context.Context
	cancel   context.CancelFunc
	holding  []*ir.Ref                     // scopes whose events are held
	hidden   []trace.Key                   // objects whose deletion a hold, or a watch's gap, hides
	gaps     map[string]bool               // kinds whose watch a Gone ended, until the controller watches them again
	heldAt   map[*ir.Ref]hold              // when each hold began, and its bound
	paused   *hold                         // when the pause in force began, and its bound
	ats      map[*planfile.Action]*atEvent // the at events of stale-on actions
	verdicts map[string]proxy.Verdict      // per event, so every stream agrees
	late     map[int64]*proxy.StatusError  // per request ID: the answer that replaces the API server's (timeout_applied)
	sends    bool                          // a trigger of the plan matches writes as sent (planfile.Trigger.Sends)
	calls    bool                          // a trigger of the plan matches calls to the application (planfile.Plan.Calls)
	changes  bool                          // ... once answered, when the answer changed (planfile.Plan.Changes)
	revs     []seenRev                     // deliveries, for stale-on revisions
	waiting  atomic.Int32                  // requests held until a hold ends
	moved    atomic.Int64                  // when the cluster last changed (Unix ns), heartbeats aside
	beats    leader.Beats                  // tells the history's heartbeats from its progress
	waitStep atomic.Bool                   // the workload is in a wait step
	killedAt atomic.Int64                  // when the plan last killed the controller (Unix ns)
	heardAt  atomic.Int64                  // when the latest request of the controller arrived (Unix ns)
	wg       sync.WaitGroup
}

// seenRev is a delivered event of the run and the revision it carried.
type seenRev struct {
	key trace.Key
	obs observe.Observed
	rev string
}

// New returns an injector for a plan.
func New(opts Options) (*Injector, error) {
	if opts.Plan == nil || opts.Proxy == nil || opts.Controller == nil {
		return nil, errors.New("inject: plan, proxy and controller are required")
	}
	eng, err := trigger.New(opts.Plan, trigger.Options{Masks: opts.Masks})
	if err != nil {
		return nil, err
	}
	if err := checkErrors(opts.Plan); err != nil {
		return nil, err
	}
	masks := opts.Masks
	if masks == nil {
		if masks, err = observe.Masks(nil); err != nil {
			return nil, err
		}
	}
	if opts.MaxHold == 0 {
		opts.MaxHold = ir.DefaultHoldFor
	}
	if opts.Stall == 0 {
		opts.Stall = ir.DefaultSettle
	}
	ats, err := atEvents(opts.Plan, opts.Masks)
	if err != nil {
		return nil, err
	}
	in := &Injector{opts: opts, eng: eng, tracker: observe.NewTracker(masks), verdicts: map[string]proxy.Verdict{},
		late: map[int64]*proxy.StatusError{}, heldAt: map[*ir.Ref]hold{}, gaps: map[string]bool{}, ats: ats}
	for _, a := range opts.Plan.Actions {
		in.sends = in.sends || a.Trigger.Sends()
	}
	in.calls, in.changes = opts.Plan.Calls(), opts.Plan.Changes()
	return in, nil
}

// checkErrors refuses a plan with an error action whose API error is
// unknown, or an app-fault action whose fault is or whose answer is
// wrong (a hand-edited plan file), before the run, not when it fires.
func checkErrors(p *planfile.Plan) error {
	for i, a := range p.Actions {
		if a.Kind == ir.ActError && !slices.Contains(ir.APIErrorKinds(), a.Error) {
			return fmt.Errorf("inject: plan %s: action %d (error): unknown API error %q (want one of %s)", p.Name, i+1, a.Error, strings.Join(ir.APIErrorNames(), ", "))
		}
		if a.Kind == ir.ActAppFault && !slices.Contains(ir.AppFaultKinds(), a.AppFault) {
			return fmt.Errorf("inject: plan %s: action %d (app-fault): unknown app fault %q (want one of %s)", p.Name, i+1, a.AppFault, strings.Join(ir.AppFaultNames(), ", "))
		}
		if err := planfile.AnswerError(a); a.Kind == ir.ActAppFault && err != nil {
			return fmt.Errorf("inject: plan %s: action %d (app-fault): %w", p.Name, i+1, err)
		}
	}
	return nil
}

// hold is a hold in place: when it began and how long it may last.
type hold struct {
	at    time.Time
	bound time.Duration
}

// Hooks are the proxy hooks that observe the controller's traffic and
// carry out the actions that need it.
func (in *Injector) Hooks() proxy.Hooks {
	return proxy.Hooks{Before: in.before, After: in.after, Filter: in.filter}
}

// Start arms the plan's first action and starts the clock for timeouts.
// Actions fire until ctx ends or Stop is called.
func (in *Injector) Start(ctx context.Context) {
	in.mu.Lock()
	in.ctx, in.cancel = context.WithCancel(ctx)
	in.mu.Unlock()
	in.advance(func() []trigger.Fired { in.startAts(); return in.eng.Start() }, nil)
	in.wg.Add(1)
	go in.tick()
}

// Stop stops the clock and waits for actions under way (restarts).
func (in *Injector) Stop() {
	in.mu.Lock()
	cancel := in.cancel
	in.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	in.wg.Wait()
}

// Status says, for every action of the plan, whether and when it fired.
func (in *Injector) Status() []trigger.Status { return in.eng.Status() }

// Injected reports whether every action of the plan fired.
func (in *Injector) Injected() bool { return in.eng.Done() }

// Observe feeds the injector an entry of the run that the proxy does not
// see: a change in the cluster history, for the engine, or a workload
// step (a stalled hold is lifted early only while the workload waits).
func (in *Injector) Observe(e trace.Entry) {
	switch e.Type {
	case trace.Step:
		// A wait that goes on when it times out cannot fail for a hold:
		// a hold is not lifted early for it.
		in.waitStep.Store(e.What == "wait" && e.Phase == "start" && e.Message != trace.ElseContinue)
		// A step is the cluster moving. The events of the write a step
		// just made may not have reached any watch yet when the next
		// step, a wait, starts. (On a loaded machine they came after a
		// hold was lifted for stillness, and the held state was seen.)
		in.moved.Store(time.Now().UnixNano())
	case trace.History:
		if !in.beats.Entry(e) {
			in.moved.Store(time.Now().UnixNano())
		}
		in.hideInGap(e)
		in.observe(&e, nil)
	}
}

func (in *Injector) tick() {
	defer in.wg.Done()
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-in.ctx.Done():
			return
		case <-t.C:
			in.advance(in.eng.Tick, nil)
			in.expireHolds()
			in.expirePause()
		}
	}
}

// heard notes that a request of the controller arrived at t. The first
// since a kill starts the timeouts the engine paused for the restart.
func (in *Injector) heard(t time.Time) {
	if t.IsZero() {
		t = time.Now()
	}
	for n := t.UnixNano(); ; {
		old := in.heardAt.Load()
		if old >= n {
			return
		}
		if in.heardAt.CompareAndSwap(old, n) {
			if k := in.killedAt.Load(); k != 0 && old <= k && n > k {
				in.eng.Restarted(t)
			}
			return
		}
	}
}

// Restarting reports whether the plan killed the controller and no request
// of the restarted one has arrived since: it is starting (a process that
// loads for seconds on a busy machine sends nothing meanwhile), and its
// silence is not quiet. Settle should wait for it (within its bound).
func (in *Injector) Restarting() bool {
	k := in.killedAt.Load()
	return k != 0 && in.heardAt.Load() <= k
}
