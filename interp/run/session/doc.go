// Package session runs one run of a test, reference or plan, on one
// worker: Worker.Execute resets the worker's backend (to its start, or to
// the checkpoint Run.From names), starts the history watch, the proxy,
// the stand-ins and the controller, runs the workloads, injects the
// plan's faults, settles and, for a plan run, waits for what differs from
// the reference to converge (converge.go), leaving the trace in the run's
// directory. The stages of interp/pipeline call it.
//
// Each run gives its controller a private network where namespaces are
// available (network.go: the proxy and a DNS responder inside, the test's
// stand-ins started there), an emulated Pod in in-cluster mode, recreated
// at each start, and the host's network with Worker.HostNetwork. The
// proxy answers the controller's execs into pods with its stand-ins
// (interp/run/podexec); on simulated pods an exec none matches is refused,
// with a warning once per command for the workers that share Notes.
//
// It keeps a run honest: the control plane and the proxy's upstream are
// watched for the whole run (health.go), and a failure ends it with an
// UnhealthyError; the worker replaces its control plane before its next
// run. Every run is timed as it goes (clock.go): its phases and the
// windows of its faults, kept in its report.Timing.
//
// It does not choose the runs, retry them, judge their traces or write
// results: interp/pipeline does.
package session
