package controller

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/internal/proctree/proctreetest"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/lang/ir"
)

// needPIDNamespaces skips a test where controllers cannot have a PID
// namespace of their own (sieve then falls back to process groups, which
// a daemon leaves).
func needPIDNamespaces(t *testing.T) {
	t.Helper()
	if err := proctree.Check(); err != nil {
		t.Skipf("no PID namespaces here: %v", err)
	}
}

// daemonController is a controller that starts a daemon (setsid) marked
// mark, says ready, then runs rest.
func daemonController(mark, rest string) *ir.Controller {
	return shell(proctreetest.Daemon(mark)+" echo ready; "+rest, &ir.Readiness{LogLine: "^ready$", Timeout: ir.Duration(10 * time.Second)})
}

// TestTreeEndsWithController starts controllers that start a daemon, and
// ends them by Kill and by their own exit: the daemon ends with them, and
// the controller's end is reported as before (a kill, a crash with its
// exit code).
func TestTreeEndsWithController(t *testing.T) {
	needPIDNamespaces(t)
	cases := []struct {
		name, rest, what string
		code             int
		end              func(r *Runner) error
	}{
		{"kill", "sleep 30", "kill", -1, (*Runner).Kill},
		{"stop", "sleep 30", "kill", -1, (*Runner).Stop},
		{"exit", "sleep 0.5; exit 3", "crash", 3, func(r *Runner) error { <-r.Exited(); return nil }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mark := proctreetest.Mark(t)
			ev := &events{}
			r := newRunner(t, daemonController(mark, tc.rest), ev)
			if err := r.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			proctreetest.AwaitRunning(t, mark)
			if err := tc.end(r); err != nil {
				t.Fatal(err)
			}
			if !ev.await(func(e trace.Entry) bool { return e.What == tc.what }) {
				t.Fatalf("no %q event: %s", tc.what, ev.whats())
			}
			// Once the controller is reaped, its namespace is empty.
			proctreetest.CheckGone(t, mark, 0)
			ev.mu.Lock()
			last := ev.es[len(ev.es)-1]
			ev.mu.Unlock()
			if last.ExitCode == nil || *last.ExitCode != tc.code {
				t.Errorf("%s event: exit code %v (%s), want %d", last.What, last.ExitCode, last.Message, tc.code)
			}
		})
	}
}

// TestRestartEndsOldDaemons restarts a controller that starts a daemon at
// each start: after the restart, only the new start's daemon runs.
func TestRestartEndsOldDaemons(t *testing.T) {
	needPIDNamespaces(t)
	mark := proctreetest.Mark(t)
	r := newRunner(t, daemonController(mark, "sleep 30"), nil)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	proctreetest.AwaitRunning(t, mark)
	old := proctreetest.Running(mark)
	if err := r.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	proctreetest.AwaitRunning(t, mark)
	for _, pid := range proctreetest.Running(mark) {
		if slices.Contains(old, pid) {
			t.Errorf("process %d, the first start's daemon, still runs after the restart", pid)
		}
	}
}

// treeRootEnv makes TestSieveDeathEndsDaemons's subprocess start the
// daemon's controller (its value is the mark, treeDirEnv the run
// directory), say "started", and wait to be killed.
const (
	treeRootEnv = "SIEVE_TEST_TREE_ROOT"
	treeDirEnv  = "SIEVE_TEST_TREE_DIR"
)

// TestSieveDeathEndsDaemons kills (SIGKILL) a process that started a
// controller: the controller's daemon ends too.
func TestSieveDeathEndsDaemons(t *testing.T) {
	if mark := os.Getenv(treeRootEnv); mark != "" {
		startAndWait(mark, os.Getenv(treeDirEnv))
		return
	}
	needPIDNamespaces(t)
	mark := proctreetest.Mark(t)
	tmp := t.TempDir() // TMPDIR of the process killed
	cmd := exec.Command(os.Args[0], "-test.run=^TestSieveDeathEndsDaemons$")
	cmd.Env = append(os.Environ(), treeRootEnv+"="+mark, treeDirEnv+"="+t.TempDir(), "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "started\n" {
		t.Fatalf("the process that starts the controller said %q (%v)", line, err)
	}
	proctreetest.AwaitRunning(t, mark)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	proctreetest.CheckGone(t, mark, 5*time.Second)
	// The controller's TMPDIR, which the killed process could not remove,
	// goes at the next start of a program in the same TMPDIR.
	if entries, _ := os.ReadDir(tmp); len(entries) != 1 {
		t.Fatalf("the killed process left %d entries in its TMPDIR, want its controller's: %v", len(entries), entries)
	}
	t.Setenv("TMPDIR", tmp)
	dir, err := proctree.TempDir()
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 1 || entries[0].Name() != filepath.Base(dir) {
		t.Errorf("after the next start, its TMPDIR holds %v, want only %s", entries, filepath.Base(dir))
	}
}

// startAndWait is TestSieveDeathEndsDaemons's subprocess.
func startAndWait(mark, dir string) {
	r, err := New(context.Background(), Options{Controller: daemonController(mark, "sleep 30"), RunDir: dir, Access: Access{Kubeconfig: "/k"}})
	if err == nil {
		err = r.Start(context.Background())
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("started")
	select {}
}

// TestStopFreesNamespaces runs an emulated pod's controller, which starts
// a daemon, in a private network: it sees its own processes in /proc, and
// once it is stopped no process is left in its network or mount
// namespace.
func TestStopFreesNamespaces(t *testing.T) {
	needPIDNamespaces(t)
	n, err := netns.New()
	if err != nil {
		t.Skipf("no private network here: %v", err)
	}
	defer n.Close()
	mark := proctreetest.Mark(t)
	c := daemonController(mark, "sleep 30")
	c.Command[2] = `echo "pid=$$ pid1=$(grep -c ` + mark + ` /proc/1/cmdline)"; ` + c.Command[2]
	c.Kubeconfig.InCluster = true
	t.Setenv(helperEnv, "1")
	r, err := New(context.Background(), Options{
		Controller: c, RunDir: t.TempDir(), Helper: []string{os.Args[0]}, Net: n,
		Access: Access{Host: "127.0.0.1", Port: "6443", Token: "tok", CA: []byte("-----BEGIN")},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	proctreetest.AwaitRunning(t, mark)
	r.mu.Lock()
	pid := r.cmd.Process.Pid
	r.mu.Unlock()
	held := map[string]string{}
	for _, kind := range []string{"net", "mnt"} {
		ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/%s", pid, kind))
		mine, _ := os.Readlink("/proc/self/ns/" + kind)
		if err != nil || ns == mine {
			t.Fatalf("the controller's %s namespace: %q (%v), the test's %q", kind, ns, err, mine)
		}
		held[kind] = ns
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	for kind, ns := range held {
		if pids := proctreetest.Holding(kind, ns); len(pids) > 0 {
			t.Errorf("processes %v are still in the controller's %s namespace after the stop", pids, kind)
		}
	}
	log, _ := os.ReadFile(r.LogPath())
	if !strings.Contains(string(log), "pid=1 pid1=1\n") {
		t.Errorf("the controller is not PID 1 of a /proc of its own; log:\n%s", log)
	}
}
