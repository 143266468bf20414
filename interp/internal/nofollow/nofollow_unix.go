//go:build unix

package nofollow

import "syscall"

// noFollow makes open fail on a link as the last element of the path.
const noFollow = syscall.O_NOFOLLOW
