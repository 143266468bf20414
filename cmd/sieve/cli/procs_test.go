package cli

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

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
	ports map[string]socket // by inode: another process may take the same address later
}

// socket is a listening socket of the run: its local address in
// /proc/net/tcp form and the process that held it.
type socket struct {
	addr string
	pid  int
}

// snapshot notes the descendants of root and the sockets they listen on.
func (w *watcher) snapshot() {
	listen := listeningSockets()
	for pid, p := range descendants(w.root) {
		w.procs[pid] = p
		w.notePorts(pid, listen)
	}
	w.notePorts(w.root, listen)
}

// notePorts notes the listening sockets among those process pid holds.
func (w *watcher) notePorts(pid int, listen map[string]string) {
	for _, inode := range socketInodes(pid) {
		if addr, ok := listen[inode]; ok {
			w.ports[inode] = socket{addr, pid}
		}
	}
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

// checkReport runs `sieve report` on the interrupted results, which hold
// finished plans; complete says that the run had run them all (it was
// interrupted at its report).
func checkReport(t *testing.T, bin, out string, finished int, complete bool) {
	t.Helper()
	cmd := exec.Command(bin, "report", "--output", "json", out)
	b, err := cmd.Output()
	var ee *exec.ExitError
	// A run interrupted before its plans ended is never a pass: findings
	// (1), or a run that did not finish (3).
	switch {
	case err == nil && !complete:
		t.Errorf("sieve report %s: exit 0 on a run that did not finish", out)
	case err == nil:
	case !errors.As(err, &ee) || (ee.ExitCode() != exitFindings && (complete || ee.ExitCode() != exitInfra)):
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
