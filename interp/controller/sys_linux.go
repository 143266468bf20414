package controller

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// sysProcAttr puts the controller in its own process group, kills it when
// sieve dies, and gives the helper a private mount namespace.
func sysProcAttr(helper bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if helper {
		// Go makes the new namespace's mounts private before exec.
		a.Unshareflags = syscall.CLONE_NEWNS
	}
	return a
}

// killGroup sends SIGKILL to the process group the controller leads.
func killGroup(pid int) error {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// stopGroup stops (SIGSTOP) or continues (SIGCONT) the process group the
// controller leads.
func stopGroup(pid int, stop bool) error {
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

func helperExec(m Mounts, argv []string) error {
	self, err1 := os.Readlink("/proc/self/ns/mnt")
	parent, err2 := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", os.Getppid()))
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("incluster: reading mount namespaces: %w", err)
	}
	if self == parent {
		return errors.New("incluster: not in a private mount namespace (sieve's runner starts this helper with one)")
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
