package proctree

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/sievetool/sieve/interp/internal/proctree/proctreetest"
)

// unprivilegedEnv makes the test binary check, as a user without
// privileges, that Check says so and that Attr still starts a program.
const unprivilegedEnv = "SIEVE_TEST_PROCTREE_UNPRIVILEGED"

func TestMain(m *testing.M) {
	if os.Getenv(unprivilegedEnv) != "" {
		if err := unprivileged(); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func unprivileged() error {
	err := Check()
	if !errors.Is(err, ErrUnsupported) {
		return fmt.Errorf("Check without privileges: %v, want ErrUnsupported", err)
	}
	a := Attr()
	if a.Cloneflags != 0 || !a.Setpgid || a.Pdeathsig != syscall.SIGKILL {
		return fmt.Errorf("Attr without privileges: %+v, want a process group and the parent-death signal only", a)
	}
	cmd := exec.Command("sh", "-c", "exit 7")
	cmd.SysProcAttr = a
	var ee *exec.ExitError
	if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != 7 {
		return fmt.Errorf("a program started with Attr without privileges: %v, want exit status 7", err)
	}
	return nil
}

// TestKillEndsTree starts a program that starts a daemon (setsid) and
// kills it: once it is reaped, the daemon is gone too.
func TestKillEndsTree(t *testing.T) {
	if err := Check(); err != nil {
		t.Skipf("no PID namespaces here: %v", err)
	}
	mark := proctreetest.Mark(t)
	cmd := exec.Command("sh", "-c", proctreetest.Daemon(mark)+" sleep 30")
	cmd.SysProcAttr = Attr()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proctreetest.AwaitRunning(t, mark)
	if err := Kill(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || cmd.ProcessState.String() != "signal: killed" {
		t.Errorf("wait: %v, want signal: killed", err)
	}
	proctreetest.CheckGone(t, mark, 0)
	if err := Kill(cmd.Process.Pid); err != nil {
		t.Errorf("killing a tree already gone: %v", err)
	}
}

// TestFallbackWithoutPrivilege runs the test binary as user nobody, where
// PID namespaces cannot be made: Check says so and Attr falls back to a
// process group.
func TestFallbackWithoutPrivilege(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run a copy of the test as another user")
	}
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "proctree.test")
	if err := copyFile(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), unprivilegedEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("as nobody: %v\n%s", err, out)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
