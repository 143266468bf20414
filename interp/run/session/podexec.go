package session

import (
	"fmt"
	"io"
	"sync"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/inject"
	"github.com/sievetool/sieve/interp/run/podexec"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/interp/run/relay"
	"github.com/sievetool/sieve/lang/ir"
)

// podSimulator is a backend whose pods run no containers (the embedded
// one): an exec into them cannot be served by the API server.
type podSimulator interface {
	SimulatesPods() bool
}

// execAnswers is the proxy's Exec option for the run: the controller's
// exec stand-ins, and, with simulated pods, the refusal of any other
// exec. It is nil (every exec forwarded) when neither applies.
func (s *session) execAnswers() func(*proxy.Exec) (proxy.ExecFunc, error) {
	sim, ok := s.w.Backend.(podSimulator)
	simulated := ok && sim.SimulatesPods()
	c := s.r.Test.Controller
	calls := s.answersCalls()
	if len(c.Exec) == 0 && !simulated && !calls {
		return nil
	}
	o := podexec.Options{StandIns: c.Exec, BaseDir: s.r.BaseDir, Simulated: simulated, Warn: s.w.Notes.warn}
	if calls {
		o.Fault = s.execFault
	}
	if s.replacesAnswers() {
		o.Answered = s.execAnswered
	}
	return podexec.Answer(o)
}

// answersCalls reports whether the run's plan may answer the
// controller's calls to its application (planfile.Plan.Calls): only then
// are the execs and the stand-ins' HTTP requests shown to the injector.
// Without it, a stand-in's connections are relayed as they come.
func (s *session) answersCalls() bool { return s.r.Plan != nil && s.r.Plan.Calls() }

// replacesAnswers reports whether the run's plan may replace the
// application's answer to a call once it is read (planfile.Plan.Changes):
// only then are the calls forwarded first and their answers read whole
// and shown to the injector.
func (s *session) replacesAnswers() bool { return s.r.Plan != nil && s.r.Plan.Changes() }

// execFaultStderr is what an exec answered with an exec_error fault
// writes on its standard error.
const execFaultStderr = "sieve: application fault: the command failed (exec_error)\n"

// execFault is podexec's Fault hook: the exec_error, hang or stale
// answer of an app-fault action the exec fires.
func (s *session) execFault(e *proxy.Exec) (podexec.Fault, bool) {
	a, ok := s.callFault(observe.ExecCall(e.Namespace, e.Pod, e.Command))
	switch {
	case !ok:
	case a.AppFault == ir.FaultExecError:
		return podexec.Fault{Exit: 1, Stderr: execFaultStderr}, true
	case a.AppFault == ir.FaultHang:
		return podexec.Fault{Hang: ir.HangBound}, true
	case a.AppFault == ir.FaultStale && a.Answer != nil:
		return staleExec(a.Answer), true
	}
	return podexec.Fault{}, false
}

// httpFault is the relay's Fault hook: the answer of an app-fault action
// the request fires.
func (s *session) httpFault(c trace.Conn, method, target string) (relay.Answer, bool) {
	a, ok := s.callFault(observe.HTTPCall(c, method, target))
	switch {
	case !ok:
	case a.AppFault == ir.FaultUnavailable:
		return relay.Answer{Fault: relay.Unavailable}, true
	case a.AppFault == ir.FaultReset:
		return relay.Answer{Fault: relay.Reset}, true
	case a.AppFault == ir.FaultHang:
		return relay.Answer{Fault: relay.Hang}, true
	case a.AppFault == ir.FaultTruncated:
		return relay.Answer{Fault: relay.Truncated}, true
	case a.AppFault == ir.FaultStale && a.Answer != nil:
		return relay.Answer{Fault: relay.Stale, Reply: staleReply(a.Answer)}, true
	}
	return relay.Answer{}, false
}

// execAnswered is podexec's Answered hook: the stale answer of an
// app-fault action the exec's answer fires.
func (s *session) execAnswered(e *proxy.Exec, got podexec.Fault) (podexec.Fault, bool) {
	c := observe.ExecCall(e.Namespace, e.Pod, e.Command)
	a, ok := s.callAnswered(c, observe.ExecAnswer(got.Exit, got.Stdout, got.Stderr))
	if !ok || a.Answer == nil {
		return podexec.Fault{}, false
	}
	return staleExec(a.Answer), true
}

// staleExec is what an exec answered with stale answer r gets.
func staleExec(r *planfile.Answer) podexec.Fault {
	return podexec.Fault{Exit: r.Exit, Stdout: r.Stdout, Stderr: r.Stderr}
}

// httpAnswered is the relay's Answered hook: the stale answer of an
// app-fault action the request's answer fires.
func (s *session) httpAnswered(c trace.Conn, method, target string, got relay.Reply) (*relay.Reply, bool) {
	a, ok := s.callAnswered(observe.HTTPCall(c, method, target), observe.HTTPAnswer(got.Status, got.Header, got.Body))
	if !ok || a.Answer == nil {
		return nil, false
	}
	return staleReply(a.Answer), true
}

// staleReply is what an HTTP request answered with stale answer r gets.
func staleReply(r *planfile.Answer) *relay.Reply {
	return &relay.Reply{Status: r.Status, Header: r.Headers, Body: r.Body}
}

// callAnswered shows the injector a call once answered with real.
func (s *session) callAnswered(c observe.Call, real *planfile.Answer) (*planfile.Action, bool) {
	return s.onInjector(func(in *inject.Injector) (*planfile.Action, bool) { return in.Answered(c, real) })
}

// callFault shows the injector a call about to be answered.
func (s *session) callFault(c observe.Call) (*planfile.Action, bool) {
	return s.onInjector(func(in *inject.Injector) (*planfile.Action, bool) { return in.Call(c) })
}

// onInjector asks the run's injector f; nothing fires before the
// injector exists (the controller has not started).
func (s *session) onInjector(f func(*inject.Injector) (*planfile.Action, bool)) (*planfile.Action, bool) {
	s.mu.Lock()
	in := s.inj
	s.mu.Unlock()
	if in == nil {
		return nil, false
	}
	return f(in)
}

// Notes prints each warning once for all the runs of the workers that
// share it (the progress output). The zero value prints nothing until
// SetOutput.
type Notes struct {
	mu   sync.Mutex
	out  io.Writer
	seen map[string]bool
}

// SetOutput makes n print to out from now on; it keeps what was printed.
func (n *Notes) SetOutput(out io.Writer) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.out = out
}

// warn prints msg unless a warning of the same key was printed; a nil
// Notes prints nothing.
func (n *Notes) warn(key, msg string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen[key] || n.out == nil {
		return
	}
	if n.seen == nil {
		n.seen = map[string]bool{}
	}
	n.seen[key] = true
	fmt.Fprintf(n.out, "warning: %s\n", msg)
}
