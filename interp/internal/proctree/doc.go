// Package proctree starts a program that sieve runs (a controller, a
// stand-in, an exec stand-in's program) as the root of a process tree that
// ends as one. Where the system allows (Linux, root), the root is PID 1 of
// a PID namespace of its own (Attr). When it dies, by Kill, by its own exit
// or by sieve's death (the parent-death signal), the kernel kills every
// process it started. That includes daemons that left its session
// (setsid), and the root is reaped only once they are gone. Elsewhere, the
// root leads a process group and gets the parent-death signal. Neither
// reaches a daemon, nor, on sieve's death, the root's children. Check says
// why, wrapping ErrUnsupported, so that callers can say so once.
//
// A root that is PID 1 ignores the signals it has no handler for, unless
// they come from outside its namespace (as SIGKILL from Kill and the
// parent-death signal do). It also sees its own PID as 1. /proc shows its
// namespace only where a fresh /proc is mounted over the host's, as the
// controller's in-cluster helper does.
//
// It does not decide what to start (packages controller, standin and
// podexec do) nor in which network (package netns).
package proctree
