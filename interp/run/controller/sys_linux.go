package controller

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/sievetool/sieve/interp/internal/proctree"
)

// sysProcAttr starts the controller as the root of a process tree that
// ends as one (proctree: its own PID namespace where possible, its own
// process group, killed when sieve dies) and gives the helper a private
// mount namespace.
func sysProcAttr(helper bool) *syscall.SysProcAttr {
	a := proctree.Attr()
	if helper {
		// Go makes the new namespace's mounts private before exec.
		a.Unshareflags = syscall.CLONE_NEWNS
	}
	return a
}

func helperExec(m Mounts, argv []string) error {
	if err := checkPrivateMounts(); err != nil {
		return err
	}
	if os.Getpid() == 1 {
		mountProc()
	}
	if m.ServiceAccount != "" {
		if err := os.MkdirAll(ServiceAccountDir, 0o755); err != nil {
			return fmt.Errorf("incluster: %w", err)
		}
		if err := bindMount(m.ServiceAccount, ServiceAccountDir, true); err != nil {
			return err
		}
	}
	if m.ResolvConf != "" {
		if err := bindMount(m.ResolvConf, "/etc/resolv.conf", true); err != nil {
			return err
		}
	}
	bin, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("incluster: command not found: %s", argv[0])
	}
	return fmt.Errorf("incluster: exec %s: %w", bin, syscall.Exec(bin, argv, os.Environ()))
}

// checkPrivateMounts fails unless this process's mount namespace is not
// its parent's. The parent's PID is read from /proc/self/stat, which (the
// host's /proc, still) gives it as the host sees it, where getppid says 0
// in a PID namespace of its own.
func checkPrivateMounts() error {
	stat, err1 := os.ReadFile("/proc/self/stat")
	self, err2 := os.Readlink("/proc/self/ns/mnt")
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("incluster: reading mount namespaces: %w", err)
	}
	ppid, err := parentPID(stat)
	if err != nil {
		return fmt.Errorf("incluster: reading mount namespaces: %w", err)
	}
	parent, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", ppid))
	if err != nil {
		return fmt.Errorf("incluster: reading mount namespaces: %w", err)
	}
	if self == parent {
		return errors.New("incluster: not in a private mount namespace (sieve's runner starts this helper with one)")
	}
	return nil
}

// parentPID is the fourth field of a /proc/PID/stat line.
func parentPID(stat []byte) (int, error) {
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // state ppid ...
	if len(f) < 2 {
		return 0, fmt.Errorf("/proc/self/stat: unexpected %q", s)
	}
	return strconv.Atoi(f[1])
}

// mountProc mounts a fresh /proc, so that the controller, PID 1 of its
// own PID namespace, sees its namespace's processes there (/proc/1 is
// itself), as in a pod. Where it cannot, the controller sees the host's
// /proc, as it did before it had a PID namespace, and its log says so.
func mountProc() {
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		fmt.Fprintf(os.Stderr, "incluster: warning: mounting a fresh /proc: %v; the controller sees the host's processes in /proc\n", err)
	}
}

// bindMount mounts src on dst, read-only if asked.
func bindMount(src, dst string, readOnly bool) error {
	if err := syscall.Mount(src, dst, "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("incluster: bind-mounting %s on %s: %w (needs root or CAP_SYS_ADMIN)", src, dst, err)
	}
	if readOnly {
		_ = syscall.Mount("", dst, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, "")
	}
	return nil
}
