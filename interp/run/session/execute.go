package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/interp/internal/runlabel"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/interp/run/inject"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/interp/run/workload"
	"github.com/sievetool/sieve/lang/ir"
)

// Worker runs one test run at a time on its own backend.
type Worker struct {
	// Backend is started; the worker resets it before every run but the
	// first.
	Backend cluster.Backend
	// Builtin returns the command line that runs a built-in
	// kube-controller-manager controller against a kubeconfig (nil: specs
	// with builtin controllers are refused).
	Builtin func(name, kubeconfig string) []string
	// Helper is the helper command that mounts an emulated pod's files
	// and a private network's resolv.conf, then runs the controller
	// (default: this executable's "internal incluster"); with a private
	// network, every controller starts through it.
	Helper []string
	// CacheDir holds built controller binaries (default: the user cache).
	CacheDir string
	// HostNetwork runs controllers on the host's network instead of a
	// private one each (netns.Check fails: not Linux, not root).
	HostNetwork bool
	// Notes prints the runs' warnings once for all the workers that share
	// it (nil: none printed).
	Notes *Notes
	// CreateTrace creates a run's trace (nil: trace.Create); tests make
	// it fail.
	CreateTrace func(path string, h trace.Header) (*trace.Writer, error)

	used bool
	// unhealthy says that the backend failed during the last run: it is
	// replaced before the next.
	unhealthy bool
	// checkpointed says the backend's resets keep the CRDs installed by
	// the first run.
	checkpointed bool
}

// checkpointer is a backend whose Reset returns to a state it can be
// told to remember (the embedded one).
type checkpointer interface {
	Checkpoint(ctx context.Context) error
}

// Run is one run of a test: a reference run (Plan nil) or a plan run.
type Run struct {
	Test *ir.Test
	// BaseDir is the directory the IR's paths are relative to.
	BaseDir string
	// Dir receives trace.jsonl, controller.log and the proxy's kubeconfig;
	// a relative Dir is relative to the working directory.
	Dir    string
	Header trace.Header
	Plan   *planfile.Plan
	// Masks are the masks the plans were generated with.
	Masks *mask.Matcher
	// Errors receives the errors of injected actions (restarts); may be nil.
	Errors func(error)
	// Converge, for a plan run, makes the run wait for the controller to
	// repair what differs from the reference before it ends (nil: no
	// wait).
	Converge *Converge
	// From, if not nil, is the checkpoint the run starts from, taken by
	// the worker's backend (a cluster.Rewinder) after a run of the steps
	// before Test's: the worker resets its backend to it instead of to
	// the start. (nil: the start.)
	From cluster.Checkpoint
}

// Outcome is what a run produced.
type Outcome struct {
	Trace string
	// Status says, for a plan run, whether and when each action fired.
	Status []ActionStatus
	// WorkloadErr is the first failed workload step (also in the trace).
	WorkloadErr error

	// clock has measured the run's phases, from its start; its last
	// phase (stop) goes on until Timing or a later phase.
	clock *clock
}

// Timing ends the run's last phase and returns where its time went.
func (o *Outcome) Timing() results.Timing { return o.clock.stop() }

// Enter ends the run's phase under way and begins phase (results.Phase*),
// for a stage that goes on with the run's timing (judging its trace).
func (o *Outcome) Enter(phase string) { o.clock.enter(phase, "") }

// ActionStatus is whether one plan action fired.
type ActionStatus struct {
	Action int           `json:"action"`
	Kind   ir.ActionKind `json:"kind"`
	Fired  bool          `json:"fired"`
	At     time.Time     `json:"at,omitzero"`
}

// Execute performs one run. A failed workload step is not an error (the
// oracle reports it); an error means the run itself could not be done,
// and the trace written so far stays in Dir. The control plane and the
// proxy's upstream are watched for the whole run: if either fails, the
// run ends at once with an *UnhealthyError that says which and why, and
// the worker replaces its control plane before its next run.
func (w *Worker) Execute(ctx context.Context, r Run) (out *Outcome, err error) {
	c := newClock(results.PhaseReset, time.Now)
	// The controller runs in its own working directory, so the run's files
	// it is handed (its kubeconfig, its emulated pod's files) are named by
	// absolute paths.
	if r.Dir, err = filepath.Abs(r.Dir); err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	if err := os.MkdirAll(r.Dir, nofollow.DirMode); err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	if h, ok := w.Backend.(healther); ok && h.Health() != nil {
		w.unhealthy = true // it failed between two runs
	}
	if w.unhealthy {
		c.enter(results.PhaseReset, "new control plane")
		if err := w.replace(ctx); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
	}
	if err := w.reset(ctx, r.From); err != nil {
		return nil, err
	}
	w.used = true
	c.enter(results.PhaseSetup, "")
	out = &Outcome{Trace: filepath.Join(r.Dir, results.TraceFile), clock: c}
	r.Header.Started = time.Now()
	create := trace.Create
	if w.CreateTrace != nil {
		create = w.CreateTrace
	}
	tw, err := create(out.Trace, r.Header)
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	s := &session{w: w, r: r, tw: tw, clock: c, tracePath: out.Trace}
	if r.Test != nil && r.Test.Controller != nil {
		s.owed.tested = r.Test.Controller.Builtin // "statefulset": a kind of the history
	}
	defer s.close()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.watchHealth(rctx, cancel)
	if err := s.start(rctx); err != nil {
		return out, s.verdict(err)
	}
	out.WorkloadErr = s.workloads(rctx)
	c.enter(results.PhaseStop, "")
	if s.inj != nil {
		for _, st := range s.inj.Status() {
			out.Status = append(out.Status, ActionStatus{Action: st.Action, Kind: st.Kind, Fired: st.Fired, At: st.At})
		}
	}
	return out, s.verdict(s.err())
}

// ErrCheckpointLost says that a run from a checkpoint found its worker's
// control plane replaced since the checkpoint was taken (its previous one
// failed): the checkpoint is to be taken again on the new one.
var ErrCheckpointLost = errors.New("the control plane was replaced since the checkpoint was taken")

// reset returns the backend to where a run starts: to checkpoint from,
// or (nil) to the start, which a backend not used since it started is at.
func (w *Worker) reset(ctx context.Context, from cluster.Checkpoint) error {
	switch {
	case from == nil && !w.used:
		return nil
	case !w.used:
		return fmt.Errorf("run: reset to a checkpoint: %w", ErrCheckpointLost)
	case from == nil:
		if err := w.Backend.Reset(ctx); err != nil {
			return w.resetErr(err)
		}
		return nil
	}
	rw, ok := w.Backend.(cluster.Rewinder)
	if !ok {
		return fmt.Errorf("run: reset to a checkpoint: the backend cannot return to a checkpoint (the embedded one can)")
	}
	if err := rw.ResetTo(ctx, from); err != nil {
		return w.resetErr(err)
	}
	return nil
}

// verdict is the run's error: its infrastructure's failure if the control
// plane or the proxy's upstream failed at any moment up to now (what went
// wrong after is its consequence), else err.
func (s *session) verdict(err error) error {
	s.mu.Lock()
	u := s.unhealthy
	s.mu.Unlock()
	if u == nil {
		u = s.health()
	}
	if h, ok := s.w.Backend.(healther); ok && u == nil && err != nil {
		u = lateHealth(h) // the run failed: perhaps a component died
	}
	if u != nil {
		s.w.unhealthy = true
		return u
	}
	return err
}

// session is the state of one run.
type session struct {
	w     *Worker
	r     Run
	tw    *trace.Writer
	clock *clock

	cancel    context.CancelFunc
	exec      *workload.Executor
	px        *proxy.Proxy
	runner    *controller.Runner
	net       *network // the private network; nil on the host's
	inj       *inject.Injector
	mu        sync.Mutex
	errs      []error
	unhealthy error
	closers   []func()
	// moved is when the cluster last changed (Unix ns), heartbeats aside
	// (beats).
	moved atomic.Int64
	// owed follows the status writes the cluster's workload controllers
	// owe: the cluster is still moving while one is due (pending).
	owed owed
	// wrote is when the workload's latest write step ended (Unix ns):
	// the controller has not been quiet since a change it may not have
	// been shown yet.
	wrote atomic.Int64
	// written holds, per object, the latest version a workload step wrote
	// that the controller's watches had not all been passed when a settle
	// last looked (noteVersion, shown); wmu guards it (not mu: the proxy
	// writes to the trace, which may take mu, while it holds a watch's
	// lock, which shown takes).
	wmu     sync.Mutex
	written map[trace.Key]proxy.Version
	beats   leader.Beats

	// tracePath is the trace's file; conv follows the objects that
	// differ from the reference while the run waits for convergence, and
	// since holds the history entries written while follow reads the
	// trace.
	tracePath string
	conv      *oracle.Convergence
	since     []trace.Entry
}

// proxy returns the run's proxy, nil until it started.
func (s *session) proxy() *proxy.Proxy {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.px
}

// sink writes an entry to the trace and shows history and workload steps
// to the injector.
func (s *session) sink(e trace.Entry) {
	seq, err := s.tw.Add(e)
	if err != nil {
		s.fail(err)
	}
	s.clock.observe(&e)
	e.Seq = seq
	if e.Type == trace.History && !s.beats.Entry(e) {
		s.moved.Store(time.Now().UnixNano())
	}
	s.owed.observe(e)
	s.noteWrite(e)
	s.observe(e)
	if s.inj != nil && (e.Type == trace.History || e.Type == trace.Step) {
		s.inj.Observe(e)
	}
}

// traceSink adapts sink to the Add interface of the proxy and runner.
type traceSink struct{ s *session }

func (t traceSink) Add(e trace.Entry) (int64, error) { t.s.sink(e); return 0, nil }

// fail records an error of the run, once (a trace that cannot be written
// gives the same error for every entry).
func (s *session) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.errs, err) {
		s.errs = append(s.errs, err)
	}
}

func (s *session) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.errs...)
}

func (s *session) onClose(f func()) { s.closers = append(s.closers, f) }

func (s *session) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// start brings up history, CRDs, namespaces, the proxy, the injector and
// the controller.
func (s *session) start(ctx context.Context) error {
	base := s.w.Backend.RESTConfig()
	if base == nil { // stopped after a component died
		s.w.unhealthy = true
		return &UnhealthyError{Err: errors.New("control plane: not running")}
	}
	cfg := rest.CopyConfig(base)
	cfg.WarningHandler = rest.NoWarnings{} // deprecation notices are not the user's concern
	t := s.r.Test
	hctx, cancel := context.WithCancel(ctx)
	s.onClose(cancel)
	hist := &workload.History{Config: cfg, Sink: s.sink, Owner: owner(s.w.Backend)}
	if err := hist.Start(hctx); err != nil {
		return err
	}
	_, settleMax := t.SettleBounds()
	s.exec = &workload.Executor{Config: cfg, Namespace: t.Controller.Namespaces[0], BaseDir: s.r.BaseDir, Sink: s.sink, SettleMax: settleMax,
		Owner: owner(s.w.Backend), Wrote: s.noteVersion}
	if err := s.installCRDs(ctx); err != nil {
		return err
	}
	if err := hist.WatchCRDs(hctx); err != nil {
		return err
	}
	if err := ensureNamespaces(ctx, s.w.Backend, t.Controller.Namespaces); err != nil {
		return err
	}
	px, err := proxy.Start(proxy.Options{Upstream: cfg, Sink: traceSink{s}, Exec: s.execAnswers()})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.px = px
	s.mu.Unlock()
	s.onClose(func() { px.Close() })
	s.exec.Settle = s.settle
	admin, err := kubernetes.NewForConfig(s.w.Backend.RESTConfig())
	if err != nil {
		return err
	}
	if s.net, err = s.privateNetwork(admin); err != nil {
		return err
	}
	if err := s.startStandins(ctx, admin); err != nil {
		return err
	}
	// The controller's kubeconfig holds the proxy's bearer token: it lives
	// in the run's directory only while the run does, so a results
	// directory uploaded as a CI artefact carries no credentials.
	kubeconfig := filepath.Join(s.r.Dir, "kubeconfig")
	host, port := s.proxyAddr()
	if err := px.WriteKubeconfigFor(kubeconfig, net.JoinHostPort(host, port)); err != nil {
		return err
	}
	s.onClose(func() { os.Remove(kubeconfig) })
	s.clock.enter(results.PhaseStart, "")
	if err := s.startController(ctx, kubeconfig, admin); err != nil {
		return err
	}
	return nil
}

// installCRDs installs the controller's CRDs. A backend that can
// checkpoint keeps them from the first run on, so later runs start with
// them in place, as the reference runs did.
func (s *session) installCRDs(ctx context.Context) error {
	if s.w.checkpointed {
		return nil
	}
	if err := s.exec.InstallCRDs(ctx, s.r.Test.Controller); err != nil {
		return err
	}
	if cp, ok := s.w.Backend.(checkpointer); ok {
		if err := cp.Checkpoint(ctx); err != nil {
			return err
		}
		s.w.checkpointed = true
	}
	return nil
}

func (s *session) startController(ctx context.Context, kubeconfig string, admin kubernetes.Interface) error {
	c, err := s.controller(kubeconfig)
	if err != nil {
		return err
	}
	host, port := s.proxyAddr()
	opts := controller.Options{
		Controller: c, BaseDir: s.r.BaseDir, RunDir: s.r.Dir, Sink: traceSink{s},
		CacheDir: s.w.CacheDir, Helper: s.w.Helper, Pod: controller.CreatePod(admin),
		Access: controller.Access{Kubeconfig: kubeconfig, Host: host, Port: port, Token: s.px.Token(), CA: s.px.CA()},
	}
	if s.net != nil {
		opts.Net, opts.ResolvConf = s.net.ns, s.net.resolv
	}
	s.runner, err = controller.New(ctx, opts)
	if err != nil {
		s.noteNotStarted(err)
		return err
	}
	s.onClose(func() { s.runner.Stop() })
	if s.r.Plan != nil {
		window, _ := s.r.Test.SettleBounds()
		inj, err := inject.New(inject.Options{Plan: s.r.Plan, Proxy: s.px, Controller: timedRestarts{s.runner, s.clock, s.killer(admin)}, Masks: s.r.Masks,
			Stall: window, Quiet: quietBound(s.r.Test), Sink: s.sink, Errors: s.onInjectError, Pending: s.pending})
		if err != nil {
			return err
		}
		s.mu.Lock() // the stand-ins' relay asks it from its goroutines (callFault)
		s.inj = inj
		s.mu.Unlock()
		s.px.SetHooks(s.inj.Hooks())
	}
	if err := s.runner.Start(ctx); err != nil {
		return err
	}
	if s.inj != nil {
		s.inj.Start(ctx)
		s.onClose(s.inj.Stop)
	}
	return nil
}

// noteNotStarted writes why the controller could not be prepared (a
// command not found, a build that failed) to the run's controller log, so
// that the run's directory says it where the controller's output would be.
func (s *session) noteNotStarted(err error) {
	f, ferr := nofollow.Append(filepath.Join(s.r.Dir, results.ControllerLog))
	if ferr != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "--- sieve: controller not started: %v\n", err)
}

func (s *session) onInjectError(err error) {
	if s.r.Errors != nil {
		s.r.Errors(err)
	}
}

// controller is the spec's controller, with a builtin one turned into the
// command that runs it.
func (s *session) controller(kubeconfig string) (*ir.Controller, error) {
	c := s.r.Test.Controller
	if c.Builtin == "" {
		return c, nil
	}
	if s.w.Builtin == nil {
		return nil, fmt.Errorf("%s: builtin controller %q needs the embedded backend", c.Src, c.Builtin)
	}
	cp := *c
	cp.Builtin = ""
	cp.Command = s.w.Builtin(c.Builtin, kubeconfig)
	cp.Kubeconfig = ir.Kubeconfig{}
	return &cp, nil
}

// workloads runs the test's workloads, then waits for the controller to
// settle; then the fault ends (the plan's actions due by a timer fire,
// events it still holds are delivered) and the controller settles again;
// then, for a plan run, it waits for what differs from the reference to
// converge (converge). A last settle that reaches the test's settle_max is
// a trace.Settle entry, for the oracle. It returns the first failed step.
func (s *session) workloads(ctx context.Context) error {
	var failed error
	for _, wl := range s.r.Test.Workloads {
		if err := s.exec.Run(ctx, wl); err != nil {
			failed = err
			break
		}
	}
	window, limit := s.r.Test.SettleBounds()
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	s.clock.enter(results.PhaseSettle, "after the workload")
	err := s.settle(sctx, window) // a controller that never settles is compared as it is
	if s.inj != nil {
		s.clock.enter(results.PhaseFinish, "")
		if s.inj.Finish(sctx) {
			s.clock.enter(results.PhaseSettle, "after the fault")
			err = s.settle(sctx, window)
		}
	}
	if err != nil && ctx.Err() == nil {
		s.sink(trace.Entry{Time: time.Now(), Type: trace.Settle, What: "unsettled",
			Message: trace.NotQuiet(window, limit)})
	}
	if s.inj != nil {
		s.converge(ctx, window, limit)
	}
	return failed
}

// timedRestarts is the controller as the injector drives it: each kill
// lets go the locks the killed process held (killAndUnlock), and each
// restart closes the restart window its kill opened (when the controller
// is ready again).
type timedRestarts struct {
	*controller.Runner
	clock *clock
	kill  func() error // kills the controller (killAndUnlock)
}

func (t timedRestarts) Kill() error { return t.kill() }

func (t timedRestarts) Restart(ctx context.Context) error {
	defer t.clock.closeWindow(results.WindowRestart, "")
	return t.Runner.Restart(ctx)
}

// settle waits until the controller has settled (proxy.Settled): quiet
// for the window, or quiet, with the cluster, for the test's quiet bound
// and nothing under way or due, the window then only the upper bound; both
// counted from the workload's latest write at the earliest (noteWrite).
// Not settled until the controller's watches have been passed the
// versions the workload's writes made (noteVersion): under load, a write's
// event may reach the proxy later than any bound after the write. Not
// settled while the plan has killed the controller and it has been silent
// since (restarting), nor while it waits for a leader-election lock another
// process holds (proxy.Activity's LockWait: it is not running yet). Events a hold hides on purpose do not count as
// pending: they stay held until a later event releases them, often one
// that the workload's next steps cause; nor do the requests the injector
// holds until then.
func (s *session) settle(ctx context.Context, window time.Duration) error {
	b := proxy.Bounds{Quiet: quietBound(s.r.Test), Window: window}
	tick := time.NewTicker(settlePoll)
	defer tick.Stop()
	for !s.settled(time.Now(), b) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// settled reports whether the controller has settled at now.
func (s *session) settled(now time.Time, b proxy.Bounds) bool {
	a := s.px.Activity()
	if s.inj != nil {
		if s.inj.Restarting() {
			return false
		}
		a.InFlight = max(a.InFlight-s.inj.Waiting(), 0)
		if s.inj.Holding() {
			a.Held = 0
		}
	}
	if w := time.Unix(0, s.wrote.Load()); w.After(a.Last) {
		a.Last = w
	}
	return s.shown() && proxy.Settled(a, s.movedAt(now), now, b)
}

// noteVersion notes a version of an object that a workload step wrote
// (workload.Executor.Wrote): a settle waits until the controller's
// watches of it have been passed it (shown).
func (s *session) noteVersion(key trace.Key, rv string, labels map[string]string) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.written == nil {
		s.written = map[trace.Key]proxy.Version{}
	}
	s.written[key] = proxy.Version{Key: key, ResourceVersion: rv, Labels: labels}
}

// shown reports whether the controller's watches have been passed every
// version the workload wrote (proxy.Shown), and forgets those they have:
// a watch opened later starts from a list that has them. A watch the
// controller never opens on a written object's kind needs nothing; one it
// holds open on it without being sent events (an API server that stopped
// serving it) keeps the settle going until the settle's bound
// (settle_max).
func (s *session) shown() bool {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	for k, v := range s.written {
		if !s.px.Shown(v) {
			return false
		}
		delete(s.written, k)
	}
	return true
}

// noteWrite marks the end of a workload step that writes (apply, patch,
// delete, scale): the controller's quiet counts from then at the
// earliest. The step has its answer before the controller's watch, or
// sieve's, has the change, and a controller quiet since before it (for
// the quiet bound, or the whole window) has not settled on it.
func (s *session) noteWrite(e trace.Entry) {
	if e.Type != trace.Step || e.Phase != "end" {
		return
	}
	switch ir.StepKind(e.What) {
	case ir.StepApply, ir.StepPatch, ir.StepDelete, ir.StepScale:
		s.wrote.Store(time.Now().UnixNano())
	}
}

// pender is a backend that knows whether it has work of its own scheduled
// that its objects do not show yet (the embedded cluster's node
// simulator: a pod in its termination grace).
type pender interface{ Pending() bool }

// pending reports whether the cluster has work scheduled: the backend's
// own (pender; none with no backend), or a status write the cluster's
// workload controllers owe (owed).
func (s *session) pending() bool {
	if s.owed.Owed() {
		return true
	}
	if s.w == nil {
		return false
	}
	p, ok := s.w.Backend.(pender)
	return ok && p.Pending()
}

// movedAt is when the cluster last changed, as of now: now while the
// cluster has work scheduled (pending), else the latest change of the history,
// heartbeats aside.
func (s *session) movedAt(now time.Time) time.Time {
	if s.pending() {
		return now
	}
	return time.Unix(0, s.moved.Load())
}

// quietBound is test t's quiet bound (ir.DefaultQuiet unless it sets
// one).
func quietBound(t *ir.Test) time.Duration {
	if t == nil || t.Quiet == nil {
		return ir.DefaultQuiet
	}
	return time.Duration(*t.Quiet)
}

// settlePoll is how often settle looks at the proxy's activity.
const settlePoll = 20 * time.Millisecond

// owner is the label of the run's objects on a cluster sieve does not own,
// to which the workload is confined; nil on the clusters sieve creates.
func owner(b cluster.Backend) *workload.Owner {
	if e, ok := b.(*cluster.Existing); ok {
		return &workload.Owner{Key: runlabel.Key, Value: e.RunID()}
	}
	return nil
}

// ensureNamespaces creates the controller's namespaces, claiming them on
// a cluster sieve does not own.
func ensureNamespaces(ctx context.Context, b cluster.Backend, names []string) error {
	if c, ok := b.(interface {
		Claim(context.Context, []string) error
	}); ok {
		return c.Claim(ctx, names)
	}
	cs, err := kubernetes.NewForConfig(b.RESTConfig())
	if err != nil {
		return err
	}
	for _, n := range names {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}}
		if _, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("namespace %s: %w", n, err)
		}
	}
	return nil
}
