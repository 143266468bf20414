package embedded

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/nospace"
	"github.com/sievetool/sieve/lang/diag"
)

// Flags of the component runner (see the component package of the
// controlplane module).
const (
	flagLifeline    = "--sieve-lifeline"
	flagWaitHealthy = "--sieve-wait-healthy"
	flagWaitServing = "--sieve-wait-serving"
)

// proc is one running child process.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, valid once done is closed
}

// spawn starts `binary NAME ARGS...` (binary is sieve-controlplane) with its output in
// a log file. lifeline is the read end of a pipe whose write end the
// parent holds: the child exits when the parent dies and the pipe closes.
func spawn(binary, logDir string, spec componentSpec, lifeline *os.File) (*proc, error) {
	args := append([]string{spec.name, flagLifeline}, spec.args...)
	switch spec.wait {
	case waitHealthy:
		args = append(args, flagWaitHealthy)
	case waitServing:
		args = append(args, flagWaitServing)
	}
	p := &proc{name: spec.name, log: filepath.Join(logDir, spec.name+".log"), done: make(chan struct{})}
	out, err := os.Create(p.log)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.name, err)
	}
	defer out.Close()
	p.cmd = exec.Command(binary, args...)
	p.cmd.Stdout, p.cmd.Stderr = out, out
	p.cmd.ExtraFiles = []*os.File{lifeline}
	if len(spec.env) > 0 {
		p.cmd.Env = append(os.Environ(), spec.env...)
	}
	p.cmd.SysProcAttr = sysProcAttr()
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", spec.name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process has ended.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// errPortTaken marks a start that failed because another process took a
// port between the choice and the bind; Start tries again.
var errPortTaken = errors.New("port taken")

// failure describes an early exit with the end of the process's log; one
// whose log says that the disk is full (anywhere: a stack trace may
// follow) says so first (nospace), naming the cluster's directory.
func (p *proc) failure() error {
	whole, _ := os.ReadFile(p.log)
	log := diag.Tail(whole, 15)
	if strings.Contains(log, "address already in use") {
		return fmt.Errorf("%s exited: %v: %w\n%s", p.name, p.err, errPortTaken, log)
	}
	err := fmt.Errorf("%s exited: %v\n%s", p.name, p.err, log)
	return nospace.InLog(err, filepath.Dir(filepath.Dir(p.log)), "free some space or set TMPDIR", string(whole))
}

// killWait bounds the wait for a killed process's exit, which only a
// process stuck in the kernel never makes: the kernel frees a large one
// slowly when memory is short (16 clusters on two cores took over 10 s).
const killWait = time.Minute

// kill ends the process and its process group and waits for it.
func (p *proc) kill() error {
	if !p.exited() {
		killGroup(p.cmd.Process)
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(killWait):
		return fmt.Errorf("%s (pid %d) did not exit within %v of SIGKILL", p.name, p.cmd.Process.Pid, killWait)
	}
}
