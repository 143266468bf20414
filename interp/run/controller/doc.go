// Package controller runs the controller under test. It builds a Go
// package once (Build caches the binary by the package's build ID) or
// resolves a command, and starts it with access to the API server through
// sieve's proxy.
//
// The controller reaches the proxy through a kubeconfig (in KUBECONFIG, a
// flag, or both) or as an emulated pod. An emulated pod gets
// service-account files in a private mount namespace,
// KUBERNETES_SERVICE_HOST/PORT and downward-API variables, and a Pod
// object made afresh before every start (Options.Pod, CreatePod). Given a
// private network (Options.Net), the controller starts inside it, with its
// resolv.conf mounted by the same helper (HelperMain).
//
// The Runner writes the controller's output to a log file and detects
// panics and exits. The port variables of args, env and the readiness URL
// (${SIEVE_PORT}, ${SIEVE_PORT_N}) get free host ports of their own, kept
// across restarts. Start waits until the controller is ready. On demand
// the Runner kills it (Kill: SIGKILL to its whole process tree), pauses
// and resumes it (SIGSTOP, SIGCONT) and restarts it. The tree is in a PID
// namespace of its own where possible (package proctree), so daemons that
// the controller started end with it. Lifecycle events go to a Sink as
// trace entries.
//
// It does not decide when to kill or restart (the injector does) nor watch
// the API traffic (package proxy does; ask it whether the controller is
// quiet).
package controller
