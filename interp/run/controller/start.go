package controller

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"crypto/tls"

	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/lang/ir"
)

// defaultReadyTimeout applies when the spec's readiness check has none.
const defaultReadyTimeout = 60 * time.Second

// Start starts the controller and waits until it is ready: its readiness
// check passes, or, without one, it stays up for the grace period. It
// fails, quoting the end of the log, when the controller exits first or
// never becomes ready.
func (r *Runner) Start(ctx context.Context) error {
	c := r.opts.Controller
	re, err := readyPattern(c.Ready)
	if err != nil {
		return err
	}
	if err := r.preparePod(ctx); err != nil {
		return fmt.Errorf("%s: controller %s: %w", c.Src, c.Name, err)
	}
	ready := make(chan struct{})
	var once sync.Once
	out := &logWriter{out: r.log, ready: re, onReady: func() { once.Do(func() { close(ready) }) }}
	out.onPanic = r.sawPanic
	exited, err := r.spawn(out)
	if err != nil {
		return fmt.Errorf("%s: controller %s: %w", c.Src, c.Name, err)
	}
	if err := r.waitReady(ctx, ready, exited, out); err != nil {
		return fmt.Errorf("%s: controller %s: %w", c.Src, c.Name, err)
	}
	return nil
}

// spawn starts the process and the goroutine that waits for its end.
func (r *Runner) spawn(out *logWriter) (chan struct{}, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runningLocked() {
		return nil, errors.New("already running")
	}
	tmp, err := proctree.TempDir()
	if err != nil {
		return nil, err
	}
	cmd, err := r.newCmd(out, tmp)
	if err == nil {
		fmt.Fprintf(r.log, "--- sieve: starting %s\n", strings.Join(cmd.Args, " "))
		err = r.startCmd(cmd)
		if err != nil {
			err = startError(err, r.usesHelper())
		}
	}
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	r.cmd, r.out, r.killing = cmd, out, false
	r.exited = make(chan struct{})
	r.starts++
	what := "start"
	if r.starts > 1 {
		what = "restart"
	}
	r.emit(what, cmd.Process.Pid, nil, strings.Join(r.argv, " "))
	go r.wait(cmd, r.exited, tmp)
	return r.exited, nil
}

func startError(err error, inCluster bool) error {
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("command not found: %w", err)
	case inCluster && errors.Is(err, os.ErrPermission):
		return fmt.Errorf("in-cluster emulation: cannot create a private mount namespace: %w (needs root or CAP_SYS_ADMIN; use a kubeconfig instead)", err)
	}
	return fmt.Errorf("starting: %w", err)
}

// startCmd starts cmd, inside the private network if there is one.
func (r *Runner) startCmd(cmd *exec.Cmd) error {
	if r.opts.Net != nil {
		return r.opts.Net.Start(cmd)
	}
	return cmd.Start()
}

// usesHelper reports whether the controller runs through the helper,
// which mounts the emulated pod's files and the private resolv.conf.
func (r *Runner) usesHelper() bool {
	return r.opts.Controller.Kubeconfig.InCluster || r.opts.ResolvConf != ""
}

// newCmd builds the command: the controller itself, or the helper that
// runs it, with tmp as its TMPDIR.
func (r *Runner) newCmd(out *logWriter, tmp string) (*exec.Cmd, error) {
	argv, env := r.argv, r.env(tmp)
	if r.usesHelper() {
		helper, err := r.helper()
		if err != nil {
			return nil, err
		}
		argv = append(append(helper, r.helperArgs()...), r.argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.workDir(), env, out, out
	cmd.SysProcAttr = sysProcAttr(r.usesHelper())
	cmd.WaitDelay = 2 * time.Second
	return cmd, nil
}

// env is sieve's environment, without KUBECONFIG unless the spec uses it,
// with TMPDIR tmp (proctree.TempDir), plus the emulated pod's variables, Options.Env and the spec's env.
func (r *Runner) env(tmp string) []string {
	c := r.opts.Controller
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KUBECONFIG=") && !strings.HasPrefix(kv, "KUBERNETES_SERVICE_") && !strings.HasPrefix(kv, "TMPDIR=") {
			env = append(env, kv)
		}
	}
	env = append(env, "TMPDIR="+tmp)
	switch {
	case c.Kubeconfig.InCluster:
		env = append(env, r.podEnv()...)
	case c.Kubeconfig.Env || c.Kubeconfig.Flag == "":
		env = append(env, "KUBECONFIG="+r.opts.Access.Kubeconfig)
	}
	env = append(env, r.ports.env()...)
	env = append(env, r.opts.Env...)
	for _, e := range c.Env {
		env = append(env, e.Name+"="+r.ports.expand(e.Value))
	}
	return env
}

// wait reaps the process, removes its TMPDIR tmp and emits its end.
func (r *Runner) wait(cmd *exec.Cmd, exited chan struct{}, tmp string) {
	err := cmd.Wait()
	os.RemoveAll(tmp)
	code := cmd.ProcessState.ExitCode()
	r.mu.Lock()
	killed := r.killing
	r.mu.Unlock()
	what := "exit"
	switch {
	case killed:
		what = "kill"
	case err != nil || code != 0:
		what = "crash"
	}
	fmt.Fprintf(r.log, "--- sieve: process %d ended (%s, %v)\n", cmd.Process.Pid, what, cmd.ProcessState)
	r.emit(what, cmd.Process.Pid, &code, cmd.ProcessState.String())
	close(exited)
}

func (r *Runner) sawPanic(line string) {
	r.mu.Lock()
	r.panics = append(r.panics, line)
	pid := 0
	if r.cmd != nil && r.cmd.Process != nil {
		pid = r.cmd.Process.Pid
	}
	r.mu.Unlock()
	r.emit("panic", pid, nil, line)
}

// waitReady waits for readiness, an early exit, the timeout or ctx.
func (r *Runner) waitReady(ctx context.Context, ready, exited chan struct{}, out *logWriter) error {
	rd := r.opts.Controller.Ready
	timeout := defaultReadyTimeout
	if rd != nil && rd.Timeout > 0 {
		timeout = rd.Timeout.D()
	}
	var check <-chan struct{}
	switch {
	case rd != nil && rd.HTTPGet != "":
		check = pollHTTP(ctx, r.ports.expand(rd.HTTPGet), exited, r.opts.Net)
	case rd != nil && rd.LogLine != "":
		check = ready
	default:
		timeout, check = r.opts.Grace, nil
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-check:
		return nil
	case <-exited:
		return fmt.Errorf("exited at once (%s); end of its log %s:\n%s", r.exitState(), r.LogPath(), out.lastLines())
	case <-timer.C:
		if check == nil {
			return nil
		}
		_ = r.Kill()
		return fmt.Errorf("never became ready within %s (%s); end of its log %s:\n%s", timeout, r.readyWhat(rd), r.LogPath(), out.lastLines())
	case <-ctx.Done():
		_ = r.Kill()
		return ctx.Err()
	}
}

func (r *Runner) readyWhat(rd *ir.Readiness) string {
	if rd.HTTPGet != "" {
		return "waiting for HTTP GET " + r.ports.expand(rd.HTTPGet) + " to answer 2xx"
	}
	return "waiting for a log line matching " + rd.LogLine
}

func (r *Runner) exitState() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil || r.cmd.ProcessState == nil {
		return "exited"
	}
	return r.cmd.ProcessState.String()
}

// pollHTTP closes the returned channel once url answers 2xx.
// With a private network, it dials there.
func pollHTTP(ctx context.Context, url string, exited chan struct{}, net *netns.NS) <-chan struct{} {
	ok := make(chan struct{})
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	if net != nil {
		tr.DialContext = net.Dial
	}
	client := &http.Client{Timeout: time.Second, Transport: tr}
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if resp, err := client.Get(url); err == nil {
				resp.Body.Close()
				if resp.StatusCode/100 == 2 {
					close(ok)
					return
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-exited:
				return
			case <-tick.C:
			}
		}
	}()
	return ok
}
