//go:build unix

package cli

import "golang.org/x/sys/unix"

// stdioBroken reports whether stdout or stderr is a pipe or socket whose
// other end has gone, so that a write to it fails with EPIPE.
func stdioBroken() bool {
	fds := []unix.PollFd{{Fd: 1, Events: unix.POLLOUT}, {Fd: 2, Events: unix.POLLOUT}}
	if _, err := unix.Poll(fds, 0); err != nil {
		return false
	}
	for _, fd := range fds {
		if fd.Revents&(unix.POLLERR|unix.POLLHUP) != 0 {
			return true
		}
	}
	return false
}
