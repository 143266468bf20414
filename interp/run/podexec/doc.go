// Package podexec answers the controller's execs into pods (pods/exec) for
// the proxy, from the controller's exec stand-ins in the spec. The pods
// that sieve simulates run no containers, so a real exec cannot run.
//
// A stand-in matches an exec by pod, namespace and container globs, and
// by one glob per command argument, with a last "..." for the rest. A
// matched exec is answered with the stand-in's scripted reply, or by
// running its program with the exec's streams. The program runs in a PID
// namespace of its own where possible, so nothing it starts outlives it.
// On a backend whose pods are simulated, an exec that no stand-in matches
// fails as an exec into a container that does not run ("container not
// found", as a kubelet says). Options.Warn is told, with a key per
// command, so that the caller can warn once. On a backend with real pods
// the exec is forwarded. Options.Answered, when set, has a stand-in's
// answer kept whole before the controller gets it, and may replace it (a
// stale answer keyed to a change of the answer).
//
// It does not speak the remote command protocol (package proxy does) nor
// check the spec (lang/check and lang/cuefront do).
package podexec
