package podexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// Options configure the answers. The zero value answers nothing: every
// exec is forwarded.
type Options struct {
	// StandIns are the controller's stand-ins, first match wins.
	StandIns []*ir.ExecStandIn
	// BaseDir is the directory the stand-ins' program paths are relative
	// to, and the programs' working directory.
	BaseDir string
	// Simulated says the backend's pods run no containers: an exec no
	// stand-in matches is refused rather than forwarded.
	Simulated bool
	// Warn, if not nil, is told about each refused exec: key names the
	// command (the same for every exec of it), msg says what happened.
	Warn func(key, msg string)
	// Fault, if not nil, is asked first about each exec: when it returns
	// a fault, the exec is answered with it instead of its stand-in's
	// answer or the pod's (an application fault of a plan).
	Fault func(e *proxy.Exec) (Fault, bool)
	// Answered, if not nil, has each exec a stand-in answers run first
	// with its outputs kept: the hook is told the answer (a Fault's Exit,
	// Stdout and Stderr), and the controller then gets the answer the
	// hook returns in its place (a stale answer of a plan that counts the
	// changes of an answer), or the stand-in's. The outputs then come at
	// the end, not as written. Execs forwarded to a pod are not shown.
	Answered func(e *proxy.Exec, got Fault) (Fault, bool)
}

// Fault is a wrong answer to an exec: the command writes Stdout and
// Stderr and exits with Exit (an exec_error: a line on stderr and a
// non-zero exit; a stale answer: the output and exit of an earlier run of
// the command); or, with Hang, it answers nothing until the controller
// gives up (ends the exec) or Hang passes, and then ends with an error.
type Fault struct {
	Exit   int
	Stdout string
	Stderr string
	Hang   time.Duration
}

// Answer returns the proxy's Exec option for o.
func Answer(o Options) func(e *proxy.Exec) (proxy.ExecFunc, error) {
	return func(e *proxy.Exec) (proxy.ExecFunc, error) {
		if o.Fault != nil {
			if f, ok := o.Fault(e); ok {
				return f.answer, nil
			}
		}
		for _, s := range o.StandIns {
			if Matches(s, e) {
				return o.answered(o.answer(s)), nil
			}
		}
		if !o.Simulated {
			return nil, nil
		}
		if o.Warn != nil {
			o.Warn(strings.Join(e.Command, "\x00"), Unanswered(e))
		}
		return nil, proxy.ContainerNotFound(e)
	}
}

// Unanswered is the warning for an exec no stand-in matches.
func Unanswered(e *proxy.Exec) string {
	return fmt.Sprintf("exec into pod %s/%s: no exec stand-in for %s, so it fails with %s, as an exec into a container that does not run (add to the controller: exec [{ pod: %q, command: %s, stdout: \"...\" }])",
		e.Namespace, e.Pod, quoteList(e.Command), proxy.ContainerNotFound(e).Message, e.Pod, quoteList(e.Command))
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// Matches reports whether stand-in s answers exec e.
func Matches(s *ir.ExecStandIn, e *proxy.Exec) bool {
	return glob(s.Pod, e.Pod) && glob(s.Namespace, e.Namespace) && glob(s.Container, e.Container) && matchCommand(s.Command, e.Command)
}

// matchCommand matches a command, one glob per argument; a last
// ir.ExecRest matches the rest.
func matchCommand(pattern, cmd []string) bool {
	for i, p := range pattern {
		if p == ir.ExecRest && i == len(pattern)-1 {
			return true
		}
		if i >= len(cmd) || !glob(p, cmd[i]) {
			return false
		}
	}
	return len(cmd) == len(pattern)
}

// glob matches a shell pattern in which * also matches slashes (command
// arguments are often paths); the empty pattern matches everything.
func glob(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	ok, err := path.Match(strings.ReplaceAll(pattern, "/", "\x00"), strings.ReplaceAll(s, "/", "\x00"))
	return err == nil && ok
}

// answer is the ExecFunc of stand-in s.
func (o Options) answer(s *ir.ExecStandIn) proxy.ExecFunc {
	if len(s.Run) == 0 {
		return func(_ context.Context, _ *proxy.Exec, io proxy.ExecIO) (int, error) {
			return reply(s, io)
		}
	}
	return func(ctx context.Context, e *proxy.Exec, io proxy.ExecIO) (int, error) {
		return o.run(ctx, s, e, io)
	}
}

// answered is fn, its answer shown to the Answered hook before the
// controller has it (Options.Answered); fn itself without the hook.
func (o Options) answered(fn proxy.ExecFunc) proxy.ExecFunc {
	if o.Answered == nil {
		return fn
	}
	return func(ctx context.Context, e *proxy.Exec, sio proxy.ExecIO) (int, error) {
		var out, errb strings.Builder
		exit, err := fn(ctx, e, proxy.ExecIO{Stdin: sio.Stdin, Stdout: &out, Stderr: &errb})
		if err != nil {
			return exit, err
		}
		got := Fault{Exit: exit, Stdout: out.String(), Stderr: errb.String()}
		if f, ok := o.Answered(e, got); ok {
			return f.answer(ctx, e, sio)
		}
		return got.answer(ctx, e, sio)
	}
}

// reply writes the scripted reply.
func reply(s *ir.ExecStandIn, sio proxy.ExecIO) (int, error) {
	if _, err := io.WriteString(sio.Stdout, s.Stdout); err != nil {
		return 0, err
	}
	if _, err := io.WriteString(sio.Stderr, s.Stderr); err != nil {
		return 0, err
	}
	return s.Exit, nil
}

// answer writes f's standard output and error and returns its exit
// code, or hangs.
func (f Fault) answer(ctx context.Context, _ *proxy.Exec, sio proxy.ExecIO) (int, error) {
	if f.Hang > 0 {
		return hang(ctx, f.Hang)
	}
	if _, err := io.WriteString(sio.Stdout, f.Stdout); err != nil {
		return 0, err
	}
	if _, err := io.WriteString(sio.Stderr, f.Stderr); err != nil {
		return 0, err
	}
	return f.Exit, nil
}

// hang answers nothing until ctx ends (the controller gave up) or bound
// passes, and says which and after how long.
func hang(ctx context.Context, bound time.Duration) (int, error) {
	start := time.Now()
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return 0, fmt.Errorf("sieve held the exec without an answer for %s, until the controller gave up (an application fault: hang)", time.Since(start).Round(time.Millisecond))
	case <-t.C:
		return 0, fmt.Errorf("sieve held the exec without an answer for %s, the bound, and ended it: the controller did not give up (an application fault: hang)", bound)
	}
}

// waitDelay bounds the wait for the exec's streams once the program has
// exited (a controller may keep stdin open).
const waitDelay = 2 * time.Second

// run runs the stand-in's program with the exec's command appended to its
// arguments and the exec's streams as its own, as the root of a process
// tree that ends with it (package proctree); its exit code is the exec's.
func (o Options) run(ctx context.Context, s *ir.ExecStandIn, e *proxy.Exec, sio proxy.ExecIO) (int, error) {
	prog := s.Run[0]
	if strings.Contains(prog, "/") {
		prog = ir.OSPath(o.BaseDir, prog)
	}
	args := append(append([]string{}, s.Run[1:]...), e.Command...)
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = o.BaseDir
	cmd.Env = append(os.Environ(), "SIEVE_EXEC_NAMESPACE="+e.Namespace, "SIEVE_EXEC_POD="+e.Pod, "SIEVE_EXEC_CONTAINER="+e.Container)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = sio.Stdin, sio.Stdout, sio.Stderr
	cmd.SysProcAttr = proctree.Attr()
	cmd.Cancel = func() error { return proctree.Kill(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		return cmd.ProcessState.ExitCode(), nil
	case errors.As(err, &ee) && ee.Exited():
		return ee.ExitCode(), nil
	}
	return 0, fmt.Errorf("exec stand-in %s: %w", strings.Join(s.Run, " "), err)
}
