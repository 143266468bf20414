package netns

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// NS is a private network namespace whose loopback is up.
type NS struct {
	f *os.File // holds the namespace open
}

// New creates a network namespace and brings its loopback up.
func New() (*NS, error) {
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("netns: a private network needs root: %w", ErrUnsupported)
	}
	var n *NS
	err := onThread(func() error {
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			return fmt.Errorf("netns: unshare: %w (%w)", err, ErrUnsupported)
		}
		f, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			return fmt.Errorf("netns: %w", err)
		}
		n = &NS{f: f}
		return loopbackUp()
	})
	if err != nil && n != nil {
		n.Close()
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// Close releases the namespace; it ends with the last process and socket
// in it.
func (n *NS) Close() error { return n.f.Close() }

// Do runs f on an OS thread that has entered n, and returns its error.
func (n *NS) Do(f func() error) error {
	return onThread(func() error {
		if err := unix.Setns(int(n.f.Fd()), unix.CLONE_NEWNET); err != nil {
			return fmt.Errorf("netns: entering: %w", err)
		}
		return f()
	})
}

// onThread runs f on a locked OS thread of its own and puts the thread
// back into the process's network namespace after; a thread that cannot
// go back is left locked, so Go ends it.
func onThread(f func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		home, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("netns: %w", err)
			return
		}
		defer home.Close()
		ferr := f()
		if err := unix.Setns(int(home.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- fmt.Errorf("netns: leaving: %w", err)
			return // the thread stays locked and dies with this goroutine
		}
		runtime.UnlockOSThread()
		done <- ferr
	}()
	return <-done
}

// loopbackUp sets the IFF_UP flag of lo in the current thread's namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("netns: loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("netns: loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netns: loopback: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netns: loopback up: %w", err)
	}
	return nil
}
