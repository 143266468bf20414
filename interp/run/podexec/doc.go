// Package podexec answers the controller's execs into pods (pods/exec)
// for the proxy, from the controller's exec stand-ins in the spec: the
// pods sieve simulates run no containers, so a real exec cannot run.
//
// An exec that a stand-in matches (pod, namespace and container globs,
// one glob per command argument, a last "..." for the rest) is answered
// with the stand-in's scripted reply or by running its program with the
// exec's streams (in a PID namespace of its own where possible, so that
// nothing it starts outlives it). An exec none matches fails, on a backend whose pods are
// simulated, as an exec into a container that does not run ("container
// not found", as a kubelet says), and the caller is told, with a key per
// command so that it can warn once; on a backend with real pods it is
// forwarded.
//
// It does not speak the remote command protocol (package proxy does) nor
// check the spec (lang/check and lang/cuefront do).
package podexec
