package embedded_test

import (
	"bufio"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestClusterUpTearsDown runs `sieve cluster up`, stops it with SIGINT and
// with SIGTERM, and checks that none of its processes, listening ports or
// temporary directories remain. Killed with SIGKILL, sieve cannot clean up:
// its children must still die with it, and the directory it leaves is
// removed by the next start.
func TestClusterUpTearsDown(t *testing.T) {
	bin := embeddedtest.Binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) { clusterUpAndStop(t, bin, sig) })
	}
}

func clusterUpAndStop(t *testing.T, bin string, sig syscall.Signal) {
	tmp := t.TempDir()
	kubeconfig := filepath.Join(tmp, "out", "kubeconfig")
	cmd, line := clusterUp(t, bin, tmp, "--kubeconfig-out", kubeconfig)
	if line != "export KUBECONFIG="+kubeconfig {
		t.Fatalf("sieve cluster up printed %q, want the export line", line)
	}
	children := childPIDs(t, cmd.Process.Pid)
	ports := listeningPorts(t, children)
	dirs := clusterDirs(t, tmp)
	// The API server, the scheduler and etcd's peer port; etcd's clients
	// use a socket in the cluster's directory.
	if len(children) != 5 || len(ports) < 3 || len(dirs) != 1 {
		t.Fatalf("while up: %d child processes (want 5), listening ports %v (want 3 or more), cluster dirs %v (want 1)",
			len(children), ports, dirs)
	}

	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(cmd, 30*time.Second); err != nil && sig != syscall.SIGKILL {
		t.Fatalf("after %v: %v", sig, err)
	}
	for _, pid := range children {
		if !waitGone(pid, 10*time.Second) {
			t.Errorf("after %v: child process %d is still alive", sig, pid)
		}
	}
	for _, port := range ports {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second); err == nil {
			c.Close()
			t.Errorf("after %v: port %d still accepts connections", sig, port)
		}
	}
	left := clusterDirs(t, tmp)
	if len(left) != 0 && sig != syscall.SIGKILL {
		t.Errorf("after %v: cluster directories remain: %v", sig, left)
	}
	if sig == syscall.SIGKILL {
		startRemoves(t, bin, tmp, left)
	}
}

// startRemoves starts `sieve cluster up` again in tmp, where a killed one
// left the directories left: once up, only its own directory is there.
func startRemoves(t *testing.T, bin, tmp string, left []string) {
	if len(left) != 1 {
		t.Fatalf("after SIGKILL: cluster directories %v, want the killed one's", left)
	}
	cmd, _ := clusterUp(t, bin, tmp)
	if dirs := clusterDirs(t, tmp); len(dirs) != 1 || dirs[0] == left[0] {
		t.Errorf("the next start left cluster directories %v; want only its own, not the killed one's %s", dirs, left[0])
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(cmd, 30*time.Second); err != nil {
		t.Errorf("the next start, after SIGINT: %v", err)
	}
}

// clusterUp starts `sieve cluster up` with the extra arguments and TMPDIR
// set to tmp, and returns it with the first line it printed (once up). The
// test's cleanup kills it.
func clusterUp(t *testing.T, bin, tmp string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"cluster", "up"}, args...)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, firstLine(t, stdout)
}

// waitGone waits until pid no longer exists (a killed orphan is reaped by
// init shortly after it dies).
func waitGone(pid int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func firstLine(t *testing.T, f io.Reader) string {
	t.Helper()
	lines := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(f)
		s.Scan()
		lines <- s.Text()
	}()
	select {
	case l := <-lines:
		return l
	case <-time.After(2 * time.Minute):
		t.Fatal("sieve cluster up printed nothing within 2 minutes")
		return ""
	}
}

func waitExit(cmd *exec.Cmd, timeout time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		return os.ErrDeadlineExceeded
	}
}

func clusterDirs(t *testing.T, tmp string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(tmp, "sieve-cluster-*"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// childPIDs lists the processes whose parent is pid, from /proc.
func childPIDs(t *testing.T, pid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command name, which is in parentheses: state ppid ...
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// listeningPorts returns the TCP ports on which the processes listen.
func listeningPorts(t *testing.T, pids []int) []int {
	t.Helper()
	inodes := map[string]bool{}
	for _, pid := range pids {
		fds, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "fd", "*"))
		for _, fd := range fds {
			if link, err := os.Readlink(fd); err == nil && strings.HasPrefix(link, "socket:[") {
				inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
			}
		}
	}
	var ports []int
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			const listen = "0A"
			if len(f) > 9 && f[3] == listen && inodes[f[9]] {
				addr := f[1]
				port, _ := strconv.ParseInt(addr[strings.LastIndexByte(addr, ':')+1:], 16, 32)
				ports = append(ports, int(port))
			}
		}
	}
	return ports
}
