package cli

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/report"
)

// TestInterrupt starts `sieve run` on a quick spec, interrupts it (SIGINT)
// once a plan has finished, and checks that it stops cleanly: the exit
// status says interrupted, no process it started is left, no port it
// listened on is still open, the finished results are kept, and `sieve
// report` reads them.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc to find child processes and listening sockets (linux only)")
	}
	if testing.Short() {
		t.Skip("starts control planes and runs a controller several times (minutes); not in -short")
	}
	bin, out, cmd, w, exited, stderr := startRun(t)

	finished, err := w.untilResult(out, exited, 10*time.Minute)
	if err != nil {
		if strings.Contains(stderr.String(), "control plane") && len(finished) == 0 {
			t.Skipf("the embedded control plane cannot start here: %v\n%s", err, stderr.String())
		}
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	w.snapshot()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	code := waitExit(t, exited, 3*time.Minute, stderr)
	t.Logf("sieve run exited %d after SIGINT; output:\n%s", code, stderr.String())

	s, err := report.Load(out)
	if err != nil {
		t.Fatalf("loading the results after the interrupt: %v", err)
	}
	want := exitInterrupted
	if s.ExitCode() == exitFindings {
		want = exitFindings
	}
	if code != want {
		t.Errorf("exit status %d, want %d", code, want)
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("no word of the interruption on stderr")
	}
	for _, f := range finished {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a finished plan's result is gone: %v", err)
		}
	}
	w.checkGone(t, out)
	checkReport(t, bin, out, len(finished))
}

// startRun starts the sieve binary's `run` of testdata/sigint/echo.sieve
// with a fresh results directory and the extra arguments, in a process
// group of its own that the test's cleanup kills with all it started. It
// returns the binary, the results directory, the command, a watcher of its
// processes, a channel that gets its exit and its combined output.
func startRun(t *testing.T, extra ...string) (string, string, *exec.Cmd, *watcher, chan error, *syncBuffer) {
	t.Helper()
	bin := embeddedtest.Binary(t)
	spec, err := filepath.Abs(filepath.Join("testdata", "sigint", "echo.sieve"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "results")
	cmd := exec.Command(bin, append([]string{"run", spec, "-o", out}, extra...)...)
	stderr := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = stderr, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watcher{root: cmd.Process.Pid, procs: map[int]proc{}, ports: map[string]int{}}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { w.killAll(); _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return bin, out, cmd, w, exited, stderr
}

// syncBuffer is a bytes.Buffer safe for the writes of a child's stdout
// and stderr and the reads of the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proc is a process seen while the run went on; start tells it apart
// from a later process with the same pid.
type proc struct {
	start string
	cmd   string
}

// watcher follows the processes descending from root and the TCP ports
// they listen on.
type watcher struct {
	root  int
	procs map[int]proc
	ports map[string]int // "local address" in /proc/net/tcp form -> pid
}

// untilResult waits for a first result.json under out, noting the
// processes and ports of the run every half second.
func (w *watcher) untilResult(out string, exited chan error, limit time.Duration) ([]string, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		w.snapshot()
		files, _ := filepath.Glob(filepath.Join(out, "plans", "*", report.ResultFile))
		if len(files) > 0 {
			return files, nil
		}
		select {
		case err := <-exited:
			exited <- err
			return nil, errors.New("sieve run ended before any plan finished")
		case <-time.After(500 * time.Millisecond):
		}
	}
	return nil, errors.New("no plan finished in time")
}

// snapshot notes the descendants of root and the sockets they listen on.
func (w *watcher) snapshot() {
	listen := listeningSockets()
	for pid, p := range descendants(w.root) {
		w.procs[pid] = p
		for _, inode := range socketInodes(pid) {
			if addr, ok := listen[inode]; ok {
				w.ports[addr] = pid
			}
		}
	}
	for _, inode := range socketInodes(w.root) {
		if addr, ok := listen[inode]; ok {
			w.ports[addr] = w.root
		}
	}
}

// checkGone fails for every process seen that still runs, every process
// whose command line names the results directory, and every port seen
// that is still listening.
func (w *watcher) checkGone(t *testing.T, out string) {
	t.Helper()
	if len(w.procs) == 0 {
		t.Errorf("no child process was ever seen: the check below proves nothing")
	}
	for pid, p := range w.procs {
		if st, ok := procStat(pid); ok && st.start == p.start && st.state != "Z" {
			t.Errorf("process %d (%s) still runs after the interrupt", pid, p.cmd)
		}
	}
	for pid, cmd := range allCmdlines() {
		if strings.Contains(cmd, out) {
			t.Errorf("process %d still runs with the results directory in its command line: %s", pid, cmd)
		}
	}
	listen := listeningSockets()
	still := map[string]bool{}
	for _, addr := range listen {
		still[addr] = true
	}
	for addr, pid := range w.ports {
		if still[addr] {
			t.Errorf("port %s (opened by pid %d, %s) still listens after the interrupt", addr, pid, w.procs[pid].cmd)
		}
	}
	t.Logf("%d processes and %d listening ports of the run were checked", len(w.procs), len(w.ports))
}

// killAll kills what the run left, so that a failing test does not leave
// it to the machine.
func (w *watcher) killAll() {
	for pid, p := range w.procs {
		if st, ok := procStat(pid); ok && st.start == p.start {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func waitExit(t *testing.T, exited chan error, limit time.Duration, stderr *syncBuffer) int {
	t.Helper()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		t.Fatalf("sieve run did not stop within %s of SIGINT\n%s", limit, stderr.String())
	}
	return -1
}

// checkReport runs `sieve report` on the interrupted results.
func checkReport(t *testing.T, bin, out string, finished int) {
	t.Helper()
	cmd := exec.Command(bin, "report", "--output", "json", out)
	b, err := cmd.Output()
	var ee *exec.ExitError
	// An interrupted run is never a pass: findings (1), or a run that did
	// not finish (3).
	if err == nil {
		t.Errorf("sieve report %s: exit 0 on a run that did not finish", out)
	} else if !errors.As(err, &ee) || (ee.ExitCode() != exitFindings && ee.ExitCode() != exitInfra) {
		t.Fatalf("sieve report %s: %v\n%s", out, err, b)
	}
	if n := strings.Count(string(b), `"plan":`); n < finished {
		t.Errorf("sieve report shows %d plans, want at least the %d finished before the interrupt:\n%s", n, finished, b)
	}
}

// stat is what /proc/PID/stat says of a process.
type stat struct {
	ppid  int
	state string
	start string
}

// procStat reads /proc/PID/stat (the command name may hold spaces and
// parentheses, so fields are counted from the last ')').
func procStat(pid int) (stat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return stat{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	return stat{ppid: ppid, state: f[0], start: f[19]}, true
}

// descendants are the processes whose parent chain leads to root.
func descendants(root int) map[int]proc {
	parent := map[int]int{}
	starts := map[int]string{}
	for _, pid := range pids() {
		if st, ok := procStat(pid); ok {
			parent[pid], starts[pid] = st.ppid, st.start
		}
	}
	out := map[int]proc{}
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == root {
				out[pid] = proc{start: starts[pid], cmd: cmdline(pid)}
				break
			}
		}
	}
	return out
}

func pids() []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

func allCmdlines() map[int]string {
	out := map[int]string{}
	for _, pid := range pids() {
		if pid != os.Getpid() {
			out[pid] = cmdline(pid)
		}
	}
	return out
}

// socketInodes are the inodes of the sockets process pid has open.
func socketInodes(pid int) []string {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		l, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]"))
		}
	}
	return out
}

// listeningSockets maps the inode of every listening TCP socket to its
// local address, from /proc/net/tcp and tcp6.
func listeningSockets() map[string]string {
	out := map[string]string{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		file, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) >= 10 && fields[3] == "0A" { // TCP_LISTEN
				out[fields[9]] = fields[1]
			}
		}
		file.Close()
	}
	return out
}

// TestInterruptStart interrupts `sieve run` while its control planes
// start: it must exit 130 within about a second and leave no process, no
// listening port and no cluster directory behind.
func TestInterruptStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc to find child processes and listening sockets (linux only)")
	}
	if testing.Short() {
		t.Skip("starts control planes; not in -short")
	}
	_, out, cmd, w, exited, stderr := startRun(t, "--parallel", "2")

	dirs := w.untilComponent(t, "kube-apiserver", time.Minute)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	code := waitExit(t, exited, 10*time.Second, stderr)
	took := time.Since(sent)
	t.Logf("sieve run exited %d %.2fs after SIGINT; output:\n%s", code, took.Seconds(), stderr.String())
	if code != exitInterrupted {
		t.Errorf("exit status %d, want %d", code, exitInterrupted)
	}
	if took > 2*time.Second {
		t.Errorf("sieve run took %s to stop after SIGINT, want about a second", took)
	}
	w.checkGone(t, out)
	for d := range dirs {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("cluster directory %s is left after the interrupt", d)
		}
	}
}

// untilComponent waits until a component process of that name runs, and
// returns the cluster directories named in the command lines seen.
func (w *watcher) untilComponent(t *testing.T, name string, limit time.Duration) map[string]bool {
	t.Helper()
	dirs := map[string]bool{}
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		w.snapshot()
		found := false
		for _, p := range w.procs {
			for _, arg := range strings.Fields(p.cmd) {
				if i, j := strings.Index(arg, "sieve-cluster-"), strings.Index(arg, "/"); i >= 0 && j >= 0 && j < i {
					rest, _, _ := strings.Cut(arg[i:], "/")
					dirs[arg[j:i]+rest] = true
				}
			}
			found = found || strings.Contains(p.cmd, "sieve-controlplane "+name)
		}
		if found {
			return dirs
		}
	}
	t.Fatalf("no %s started within %s", name, limit)
	return nil
}
