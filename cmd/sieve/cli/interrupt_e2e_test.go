package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/results"
)

// A phase of `sieve run` at which the interrupt matrix signals it: what
// the cell adds to the command line and environment, and until which
// the test waits before it signals.
type phase struct {
	name string
	args []string
	env  []string
	// until returns once the run is in the phase.
	until func(c *cell) error
	// made: the run has made its results directory by then, and what it
	// wrote there is loadable after the interrupt.
	made bool
}

// cell is one run of the interrupt matrix.
type cell struct {
	t       *testing.T
	bin     string
	dir     string // the cell's own directory: its TMPDIR, results, spec
	tmp     string // TMPDIR
	out     string // the results directory
	cmd     *exec.Cmd
	w       *watcher
	stderr  *syncBuffer
	exited  chan error
	stdout  *os.File // the read end of the run's stdout
	errPipe *os.File // the read end of the run's stderr, when a pipe
	fifo    *os.File // the spec's named pipe (the load phase)
}

// TestInterruptMatrix sends each stop signal to `sieve run` at each phase
// of a run. The phases are: loading the spec, waiting for another
// process's control-plane build, starting its control plane, a reference
// run, a plan run, and before its report. Two more cells send a
// second SIGTERM during the cleanup of the first, and take away the reader
// of a stderr pipe (`sieve run … 2>&1 | head`). After each cell it checks
// the exit code (128 + the signal's number). It checks that what the run
// wrote before the signal is still there and loadable, and that the run
// left nothing: no process of its own, no listening port, nothing in its
// TMPDIR and no mount. A process of its own is a descendant, or any whose
// command line or working directory is under the cell's directories.
func TestInterruptMatrix(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc to find processes, sockets and mounts (linux only)")
	}
	if testing.Short() {
		t.Skip("starts control planes and runs a controller (a minute or two); not in -short")
	}
	// Beside the package's other end-to-end tests: a cell looks only at
	// its own processes, directories and caches.
	t.Parallel()
	bin := embeddedtest.Binary(t)
	began := time.Now()
	t.Cleanup(func() { t.Logf("the interrupt matrix took %s", time.Since(began).Round(time.Second)) })
	signals := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE}
	for _, ph := range matrixPhases(t) {
		for _, sig := range signals {
			t.Run(ph.name+"/"+signalName(sig), func(t *testing.T) {
				t.Parallel()
				c := startCell(t, bin, ph, false)
				c.interrupt(ph, sig, false)
			})
		}
	}
	t.Run("references/SIGTERM-twice", func(t *testing.T) {
		t.Parallel()
		c := startCell(t, bin, phaseReferences, false)
		c.interrupt(phaseReferences, syscall.SIGTERM, true)
	})
	t.Run("references/stderr-closed", func(t *testing.T) {
		t.Parallel()
		c := startCell(t, bin, phaseReferences, true)
		c.interrupt(phaseReferences, syscall.SIGPIPE, false)
	})
}

// The phases of the matrix.
var (
	phaseLoad  = phase{name: "load", until: (*cell).untilLoading}
	phaseStart = phase{name: "start", until: func(c *cell) error {
		return c.untilProcess("a kube-apiserver", func(cmd string) bool { return strings.Contains(cmd, "sieve-controlplane kube-apiserver") })
	}}
	phaseReferences = phase{name: "references", args: []string{"--no-cache"}, made: true, until: func(c *cell) error {
		return c.untilController("reference run 1/")
	}}
	phasePlans = phase{name: "plans", made: true, until: func(c *cell) error {
		return c.untilController("plans to run on")
	}}
	phaseReport = phase{name: "report", env: []string{pauseEnv + "=report"}, made: true, until: func(c *cell) error {
		return c.untilStderr("paused at report")
	}}
)

// matrixPhases are the phases, with the build wait when the control
// plane comes from the user cache (its key is then known).
func matrixPhases(t *testing.T) []phase {
	phases := []phase{phaseLoad}
	if key, why := cacheKey(t); why == "" {
		phases = append(phases, phase{name: "build-wait", until: func(c *cell) error { return c.untilBuildWait(key) }})
	} else {
		t.Logf("no build-wait cells: %s", why)
	}
	return append(phases, phaseStart, phaseReferences, phasePlans, phaseReport)
}

// cacheKey is the user cache's key of the control plane the runs use, or
// why there is none.
func cacheKey(t *testing.T) (key, why string) {
	cp := embeddedtest.ControlPlane(t)
	cache, err := os.UserCacheDir()
	if err != nil || filepath.Dir(filepath.Dir(cp)) != filepath.Join(cache, "sieve", "controlplane") {
		return "", fmt.Sprintf("the control plane %s is not in the user cache", cp)
	}
	if _, err := exec.LookPath(controlplane.Name()); err == nil {
		return "", "a control plane on PATH would be found before the cache"
	}
	return filepath.Base(filepath.Dir(cp)), ""
}

// startCell starts `sieve run` of testdata/sigint/echo.sieve (at most one
// plan, one control plane) with a TMPDIR of its own; with errPipe, its
// stderr is a pipe the test can close.
func startCell(t *testing.T, bin string, ph phase, errPipe bool) *cell {
	dir := t.TempDir()
	c := &cell{t: t, bin: bin, dir: dir, tmp: filepath.Join(dir, "tmp"), out: filepath.Join(dir, "results"), stderr: &syncBuffer{}}
	if err := os.Mkdir(c.tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	spec, err := filepath.Abs(filepath.Join("testdata", "sigint", "echo.sieve"))
	if err != nil {
		t.Fatal(err)
	}
	if ph.name == phaseLoad.name {
		spec = c.fifoSpec()
	}
	args := append([]string{"run", spec, "-o", c.out, "--max-plans", "1", "--parallel", "1"}, ph.args...)
	c.cmd = exec.Command(bin, args...)
	c.cmd.Env = append(cellEnv(), "TMPDIR="+c.tmp)
	c.cmd.Env = append(c.cmd.Env, ph.env...)
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Nothing reads the run's stdout, which gets only the short summary
	// at the end: so closing it closes the pipe at once.
	c.stdout, c.cmd.Stdout = stdout, w
	var ew *os.File
	if errPipe {
		if c.errPipe, ew, err = os.Pipe(); err != nil {
			t.Fatal(err)
		}
		c.cmd.Stderr = ew
		go func() { _, _ = io.Copy(c.stderr, c.errPipe) }()
	} else {
		c.cmd.Stderr = c.stderr
	}
	if ph.name == "build-wait" {
		c.cmd.Env = append(c.cmd.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if ew != nil {
		ew.Close()
	}
	c.w = &watcher{root: c.cmd.Process.Pid, procs: map[int]proc{}, ports: map[string]socket{}}
	c.exited = make(chan error, 1)
	go func() { c.exited <- c.cmd.Wait() }()
	t.Cleanup(func() {
		c.w.killAll()
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		c.stdout.Close()
	})
	return c
}

// cellEnv is the test's environment without what would change where the
// run finds its control plane or its TMPDIR.
func cellEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "TMPDIR" && name != controlplane.Env && name != pauseEnv && name != "XDG_CACHE_HOME" {
			env = append(env, kv)
		}
	}
	if cache, err := os.UserCacheDir(); err == nil {
		env = append(env, "XDG_CACHE_HOME="+cache) // the test's own, unless the cell sets another
	}
	return env
}

// interrupt waits until the run is in phase ph, sends sig (and, with
// again, sig once more once the run says it stops), and checks what the
// run left. SIGPIPE comes as it does when sieve writes to a pipe whose
// reader has gone: the reader of its stdout closes first (or, for a
// stderr pipe, the reader closes it and sieve's next write raises it).
func (c *cell) interrupt(ph phase, sig syscall.Signal, again bool) {
	t := c.t
	if err := ph.until(c); err != nil {
		if strings.Contains(c.stderr.String(), "embedded cluster:") {
			t.Skipf("the embedded control plane cannot start here: %v\n%s", err, c.stderr.String())
		}
		t.Fatalf("%s: %v\n%s", ph.name, err, c.stderr.String())
	}
	c.w.snapshot()
	before := filesUnder(c.out)
	sent := time.Now()
	switch {
	case c.errPipe != nil:
		c.errPipe.Close()
	case sig == syscall.SIGPIPE:
		c.stdout.Close()
		c.signal(sig)
	default:
		c.signal(sig)
	}
	if again {
		if err := c.untilStderr(signalName(sig) + ": stopping"); err != nil {
			t.Fatal(err)
		}
		c.signal(sig)
	}
	code := c.waitExit(time.Minute)
	t.Logf("exit %d %.1fs after %s; output:\n%s", code, time.Since(sent).Seconds(), signalName(sig), c.stderr.String())
	want := 128 + int(sig)
	if s, err := results.Load(c.out); err == nil && s.ExitCode() == exitFindings {
		want = exitFindings
	}
	if code != want {
		t.Errorf("exit status %d, want %d", code, want)
	}
	c.checkResults(ph, before)
	c.checkLeftovers()
}

func (c *cell) signal(sig syscall.Signal) {
	if err := c.cmd.Process.Signal(sig); err != nil {
		c.t.Fatal(err)
	}
}

// waitExit waits for the run to end and returns its exit code.
func (c *cell) waitExit(limit time.Duration) int {
	for end := time.Now().Add(limit); time.Now().Before(end); {
		select {
		case err := <-c.exited:
			c.exited <- err
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return ee.ExitCode() // -1 if a signal killed it
			}
			if err != nil {
				c.t.Fatal(err)
			}
			return 0
		case <-time.After(50 * time.Millisecond):
			c.w.snapshot()
		}
	}
	c.t.Fatalf("sieve run did not stop within %s of the signal\n%s", limit, c.stderr.String())
	return -1
}

// checkResults checks that every file under the results directory before
// the signal is still there, and that the results load, when the phase
// had made them; a run stopped before that has made no directory.
func (c *cell) checkResults(ph phase, before []string) {
	t := c.t
	for _, f := range before {
		if name := filepath.Base(f); name == "kubeconfig" || strings.HasPrefix(name, ".tmp") {
			continue // a run's credentials, and a file being written, go when the run ends
		}
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a file the run wrote before the signal is gone: %v", err)
		}
	}
	switch {
	case ph.name == phaseLoad.name:
		if _, err := os.Stat(c.out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a run stopped while it loaded its spec made its results directory: %v", err)
		}
	case ph.made:
		if _, err := results.Load(c.out); err != nil {
			t.Errorf("the results of the interrupted run do not load: %v", err)
		}
		if ph.name == phasePlans.name || ph.name == phaseReport.name {
			complete := ph.name == phaseReport.name
			checkReport(t, c.bin, c.out, map[bool]int{true: 1}[complete], complete)
		}
	}
}

// checkLeftovers fails for each leftover of the run: a process of the run
// that still runs, or a process whose command line or working directory is
// under the cell's directory. It fails for every port the run listened on
// that still listens (the same socket: a port freed may be taken by
// another test's process), anything in the cell's TMPDIR and any mount under
// the cell's directory.
func (c *cell) checkLeftovers() {
	t := c.t
	for pid, p := range c.w.procs {
		if st, ok := procStat(pid); ok && st.start == p.start && st.state != "Z" {
			t.Errorf("process %d (%s) still runs after the interrupt", pid, p.cmd)
		}
	}
	for _, pid := range pids() {
		cwd, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
		if pid != os.Getpid() && (strings.Contains(cmdline(pid), c.dir+"/") || strings.HasPrefix(cwd, c.dir+"/")) {
			t.Errorf("process %d still runs in or on the run's directories: %s (in %s)", pid, cmdline(pid), cwd)
		}
	}
	listen := listeningSockets()
	for inode, s := range c.w.ports {
		if _, ok := listen[inode]; ok {
			t.Errorf("port %s (opened by pid %d, %s) still listens after the interrupt", s.addr, s.pid, c.w.procs[s.pid].cmd)
		}
	}
	if entries, _ := os.ReadDir(c.tmp); len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the run left in its TMPDIR: %s", strings.Join(names, ", "))
	}
	for _, m := range mountsUnder(c.dir) {
		t.Errorf("mount left under the run's directories: %s", m)
	}
	t.Logf("%d processes and %d listening ports of the run were checked", len(c.w.procs), len(c.w.ports))
}

// filesUnder lists the files under dir (none if it does not exist).
func filesUnder(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// mountsUnder lists the mount points under dir in /proc/self/mountinfo.
func mountsUnder(dir string) []string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 4 && strings.HasPrefix(fields[4], dir) {
			out = append(out, fields[4])
		}
	}
	return out
}

// until polls cond until it holds, noting the run's processes, and fails
// when the run ends first or limit passes.
func (c *cell) until(what string, limit time.Duration, cond func() bool) error {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		c.w.snapshot()
		if cond() {
			return nil
		}
		select {
		case err := <-c.exited:
			c.exited <- err
			return fmt.Errorf("sieve run ended (%v) before %s", err, what)
		default:
		}
	}
	return fmt.Errorf("no %s within %s", what, limit)
}

// untilStderr waits for text on the run's stderr.
func (c *cell) untilStderr(text string) error {
	return c.until(fmt.Sprintf("%q on stderr", text), 3*time.Minute, func() bool { return strings.Contains(c.stderr.String(), text) })
}

// untilProcess waits for a process of the run whose command line
// matches.
func (c *cell) untilProcess(what string, match func(cmdline string) bool) error {
	return c.until(what, 3*time.Minute, func() bool {
		for _, p := range descendants(c.w.root) {
			if match(p.cmd) {
				return true
			}
		}
		return false
	})
}

// untilController waits for the marker on stderr, then for the echo
// controller to run: the signal lands in the middle of a run.
func (c *cell) untilController(marker string) error {
	if err := c.untilStderr(marker); err != nil {
		return err
	}
	return c.untilProcess("the controller echo", func(cmd string) bool {
		return slices.ContainsFunc(strings.Fields(cmd), func(arg string) bool { return strings.HasSuffix(arg, "/echo") })
	})
}

// untilBuildWait holds the control plane's build lock in the cell's own
// cache (XDG_CACHE_HOME), where no binary is, so the run waits for it;
// and waits until the run says so, naming this process.
func (c *cell) untilBuildWait(key string) error {
	dir := filepath.Join(c.dir, "cache", "sieve", "controlplane", key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, "build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	c.t.Cleanup(func() { f.Close() }) // after the run has ended: it would build
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	if _, err := f.WriteString(strconv.Itoa(os.Getpid()) + "\n"); err != nil {
		return err
	}
	return c.untilStderr(fmt.Sprintf("waiting for another sieve process's control-plane build (pid %d)", os.Getpid()))
}

// fifoSpec makes the spec a named pipe in the cell's directory that
// nothing ever writes: the run blocks reading it, held while it loads its
// spec, and only the signal can end it. The test holds the pipe open for
// writing.
func (c *cell) fifoSpec() string {
	fifo := filepath.Join(c.dir, "echo.sieve")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		c.t.Fatal(err)
	}
	var err error
	if c.fifo, err = os.OpenFile(fifo, os.O_RDWR, 0); err != nil { // O_RDWR: does not wait for a reader
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { c.fifo.Close() })
	return fifo
}

// untilLoading waits until the run has the spec's pipe open.
func (c *cell) untilLoading() error {
	fd := "/proc/" + strconv.Itoa(c.cmd.Process.Pid) + "/fd"
	return c.until("the spec read", time.Minute, func() bool {
		entries, _ := os.ReadDir(fd)
		for _, e := range entries {
			if l, _ := os.Readlink(filepath.Join(fd, e.Name())); l == c.fifo.Name() {
				return true
			}
		}
		return false
	})
}
