package controller

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/internal/cachedir"
	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/run/logcap"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/lang/ir"
)

// Sink receives lifecycle events as trace entries of type Controller. A
// *trace.Writer is a Sink.
type Sink interface {
	Add(e trace.Entry) (int64, error)
}

// Access is how the controller reaches the API server: the proxy.
type Access struct {
	// Kubeconfig is the path of a kubeconfig file for the controller.
	Kubeconfig string
	// Host and Port are the proxy's address (for in-cluster emulation).
	Host, Port string
	// Token and CA are the bearer token and the PEM CA certificate (for
	// in-cluster emulation).
	Token string
	CA    []byte
}

// Options configures a Runner. Controller, RunDir and Access are required;
// the zero value of every other field is the default.
type Options struct {
	Controller *ir.Controller
	// BaseDir is the directory relative paths of the controller are
	// resolved against (the spec's directory); by default the working
	// directory.
	BaseDir string
	// RunDir is the run's directory: the log (controller.log) and the
	// emulated pod's files go there.
	RunDir string
	Access Access
	// Sink receives lifecycle events; may be nil.
	Sink Sink
	// CacheDir holds built binaries; by default the user cache directory's
	// sieve/bin.
	CacheDir string
	// Helper is the command that sets up an emulated pod and then runs the
	// controller (in-cluster mode); by default this executable with
	// "internal incluster". Its arguments follow: --dir DIR -- ARGV...
	Helper []string
	// Pod, when set, is called before every start in in-cluster mode, so
	// the caller can create the controller's Pod object afresh (CreatePod);
	// the downward-API variables are read from the pod it returns.
	Pod func(ctx context.Context, pod PodInfo) (*corev1.Pod, error)
	// LogLimit bounds controller.log in bytes (its first and last half
	// are kept, see logcap.Writer). If 0, logcap.Limit's default: 64 MiB,
	// or $SIEVE_LOG_LIMIT.
	LogLimit int64
	// Grace is how long a controller without a readiness check must stay
	// up to count as started (default 500ms).
	Grace time.Duration
	// Env is added to the controller's environment before the spec's env.
	Env []string
	// Net, when set, is the controller's private network: it is started
	// inside, and its readiness URL is dialled there.
	Net *netns.NS
	// ResolvConf, when set, is a file the controller finds as its
	// /etc/resolv.conf (with Net: one that asks sieve's DNS responder).
	ResolvConf string
	// Builtin returns the command line that runs a built-in
	// kube-controller-manager controller against a kubeconfig (the
	// embedded backend's BuiltinCommand); needed for ir.Controller.Builtin.
	Builtin func(name, kubeconfig string) []string
}

// PodInfo describes the controller's emulated pod (PodOf).
type PodInfo struct {
	Name, Namespace string
	// Controller is the controller's name, the value of PodLabel.
	Controller     string
	Labels         map[string]string
	ServiceAccount string
}

// Runner starts, kills and restarts one controller process.
type Runner struct {
	opts   Options
	argv   []string // the controller's command line, without the helper
	ports  ports    // the ports of the port variables (ports.go)
	log    *logcap.Writer
	pod    PodInfo
	podObj *corev1.Pod // the pod of the current start, when Options.Pod made one

	mu      sync.Mutex
	cmd     *exec.Cmd
	out     *logWriter
	exited  chan struct{}
	killing bool
	starts  int
	panics  []string
}

// New prepares a runner: it resolves the command (building a Go package
// if the spec says so) and opens the log. It does not start anything.
func New(ctx context.Context, opts Options) (*Runner, error) {
	c := opts.Controller
	if c == nil {
		return nil, errors.New("controller: no controller in the spec")
	}
	if opts.BaseDir == "" {
		opts.BaseDir = "."
	}
	if opts.Grace == 0 {
		opts.Grace = 500 * time.Millisecond
	}
	r := &Runner{opts: opts}
	argv, err := r.command(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: controller %s: %w", c.Src, c.Name, err)
	}
	if r.ports, err = pickPorts(portTexts(c)); err != nil {
		return nil, fmt.Errorf("%s: controller %s: %w", c.Src, c.Name, err)
	}
	for _, a := range c.Args {
		argv = append(argv, r.ports.expand(a))
	}
	r.argv = argv
	if c.Kubeconfig.Flag != "" && !c.Kubeconfig.InCluster {
		r.argv = append(r.argv, c.Kubeconfig.Flag+"="+opts.Access.Kubeconfig)
	}
	if err := os.MkdirAll(opts.RunDir, nofollow.DirMode); err != nil {
		return nil, fmt.Errorf("controller: %w", err)
	}
	f, err := nofollow.Append(r.LogPath())
	if err != nil {
		return nil, fmt.Errorf("controller: %w", err)
	}
	r.log = logcap.New(f, opts.LogLimit)
	r.pod = PodOf(c)
	return r, nil
}

// command resolves the spec's command or builds its package.
func (r *Runner) command(ctx context.Context) ([]string, error) {
	c := r.opts.Controller
	switch {
	case c.Build != "":
		bin, err := Build(ctx, r.workDir(), c.Build, CacheDir(r.opts.CacheDir))
		if err != nil {
			return nil, err
		}
		return []string{bin}, nil
	case len(c.Command) > 0:
		bin, err := LookPath(c.Command[0], r.workDir())
		if err != nil {
			return nil, err
		}
		return append([]string{bin}, c.Command[1:]...), nil
	case c.Builtin != "":
		if r.opts.Builtin == nil {
			return nil, fmt.Errorf("builtin controller %q needs the embedded backend", c.Builtin)
		}
		return r.opts.Builtin(c.Builtin, r.opts.Access.Kubeconfig), nil
	}
	return nil, errors.New("no command and no package to build")
}

// LookPath finds a controller's command: a name with a slash is a path
// relative to dir (the controller's WorkDir), one without is looked up in
// PATH. The result is absolute.
func LookPath(name, dir string) (string, error) {
	if strings.ContainsRune(name, '/') && !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("command not found: %s", name)
	}
	return filepath.Abs(bin)
}

// WorkDir is the directory controller c runs in: its dir, relative to
// baseDir (the spec's directory; empty for the working directory).
func WorkDir(c *ir.Controller, baseDir string) string {
	switch {
	case c.Dir == "":
		return baseDir
	case filepath.IsAbs(c.Dir):
		return c.Dir
	}
	return filepath.Join(baseDir, c.Dir)
}

// CacheDir is where built controllers are kept: dir, or by default the
// user cache directory's sieve/bin.
func CacheDir(dir string) string {
	return cmp.Or(dir, cachedir.Root("bin"))
}

func (r *Runner) workDir() string { return WorkDir(r.opts.Controller, r.opts.BaseDir) }

// LogPath is the controller's log file.
func (r *Runner) LogPath() string { return filepath.Join(r.opts.RunDir, "controller.log") }

// Argv is the controller's command line (without the in-cluster helper).
func (r *Runner) Argv() []string { return append([]string(nil), r.argv...) }

// Pod is the name and namespace of the emulated pod.
func (r *Runner) Pod() PodInfo { return r.pod }

// Panics returns the panic lines seen in the controller's output so far.
func (r *Runner) Panics() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.panics...)
}

// Running reports whether the controller process is alive.
func (r *Runner) Running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runningLocked()
}

func (r *Runner) runningLocked() bool {
	if r.exited == nil {
		return false
	}
	select {
	case <-r.exited:
		return false
	default:
		return true
	}
}

// Exited returns a channel closed when the current process ends (nil
// before the first start).
func (r *Runner) Exited() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.exited
}

func (r *Runner) emit(what string, pid int, code *int, msg string) {
	if r.opts.Sink == nil {
		return
	}
	_, _ = r.opts.Sink.Add(trace.Entry{Time: time.Now(), Type: trace.Controller, What: what, PID: pid, ExitCode: code, Message: msg})
}

// Kill sends SIGKILL to the controller's process tree (proctree.Kill) and
// waits until the process is gone; in its own PID namespace, so is every
// process it started. Killing a controller that is not running does
// nothing.
func (r *Runner) Kill() error {
	r.mu.Lock()
	if !r.runningLocked() {
		r.mu.Unlock()
		return nil
	}
	r.killing = true
	pid, exited := r.cmd.Process.Pid, r.exited
	r.mu.Unlock()
	if err := proctree.Kill(pid); err != nil {
		return fmt.Errorf("controller: kill %d: %w", pid, err)
	}
	select {
	case <-exited:
		return nil
	case <-time.After(10 * time.Second):
		return fmt.Errorf("controller: process %d survived SIGKILL for 10s", pid)
	}
}

// Pause stops the controller's process group where it is (SIGSTOP) until
// Resume: it runs no code, sends no request and reads nothing of what
// arrives meanwhile. Pausing a controller that is not running does
// nothing; a kill ends a pause (the next process runs).
func (r *Runner) Pause() error { return r.signal(true) }

// Resume lets a paused controller go on (SIGCONT); it does nothing to one
// that is not running or not paused.
func (r *Runner) Resume() error { return r.signal(false) }

// signal stops (stop) or continues the controller's process group.
func (r *Runner) signal(stop bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.runningLocked() {
		return nil
	}
	pid := r.cmd.Process.Pid
	if err := stopGroup(pid, stop); err != nil {
		return fmt.Errorf("controller: %s %d: %w", map[bool]string{true: "pause", false: "resume"}[stop], pid, err)
	}
	return nil
}

// Restart kills the controller if it runs and starts it again.
func (r *Runner) Restart(ctx context.Context) error {
	if err := r.Kill(); err != nil {
		return err
	}
	return r.Start(ctx)
}

// Stop kills the controller and closes the log.
func (r *Runner) Stop() error {
	err := r.Kill()
	if cerr := r.log.Close(); err == nil && cerr != nil && !errors.Is(cerr, fs.ErrClosed) {
		err = cerr
	}
	return err
}

// readyPattern compiles the readiness log pattern, if any.
func readyPattern(rd *ir.Readiness) (*regexp.Regexp, error) {
	if rd == nil || rd.LogLine == "" {
		return nil, nil
	}
	re, err := regexp.Compile(rd.LogLine)
	if err != nil {
		return nil, fmt.Errorf("%s: readiness pattern: %w", rd.Src, err)
	}
	return re, nil
}
