// Package controller runs the controller under test: it builds a Go package
// once (the binary is cached by the package's build ID) or resolves a
// command, starts it with access to the API server through sieve's proxy
// (a kubeconfig in KUBECONFIG and/or a flag, or an emulated pod:
// service-account files in a private mount namespace,
// KUBERNETES_SERVICE_HOST/PORT and downward-API variables, and a Pod
// object made afresh before every start through Options.Pod, CreatePod),
// inside a private network when given one (Options.Net, with its
// resolv.conf mounted by the same helper), writes its output to a log
// file, detects
// panics and exits, gives the port variables of args, env and the
// readiness URL (${SIEVE_PORT}, ${SIEVE_PORT_N}) free host ports of their
// own, kept across restarts, waits until it is ready, and kills (SIGKILL,
// its whole process tree: in a PID namespace of its own where possible,
// see package proctree, so daemons it started end with it), pauses and
// resumes (SIGSTOP, SIGCONT) and restarts it on demand. Lifecycle events
// go to a Sink as trace entries.
//
// It does not decide when to kill or restart (the injector does) nor watch
// the API traffic (package proxy does; ask it whether the controller is
// quiet).
package controller
