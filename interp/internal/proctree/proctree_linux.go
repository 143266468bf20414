package proctree

import (
	"fmt"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Attr is the SysProcAttr of a tree's root: its own process group,
// SIGKILL when the thread that started it ends (sieve's death), and a
// PID namespace of its own where Check allows. Callers may add to it.
func Attr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if Check() == nil {
		a.Cloneflags = syscall.CLONE_NEWPID
	}
	return a
}

// Check reports whether a tree's root can have a PID namespace of its
// own: nil, or an error that wraps ErrUnsupported. It asks the kernel
// once per process.
func Check() error { return check() }

var check = sync.OnceValue(probe)

// probe makes a PID namespace for the children of a thread of its own;
// the thread is never unlocked, so it ends with its goroutine, and no
// process sieve starts later lands in that namespace.
func probe() error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		done <- unix.Unshare(unix.CLONE_NEWPID)
	}()
	if err := <-done; err != nil {
		return fmt.Errorf("no PID namespace per program: %w (%w; run as root on Linux)", err, ErrUnsupported)
	}
	return nil
}
