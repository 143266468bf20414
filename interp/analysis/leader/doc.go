// Package leader knows leader election as sieve sees it on the wire: the
// records a lock object carries (a Lease's spec, or the
// control-plane.alpha.kubernetes.io/leader annotation of a ConfigMap or
// Endpoints, controller-runtime's older lock), which changes of a lock
// are heartbeats (the holder renewing its record) rather than progress
// (Heartbeat, Beats), and whether a controller waits for a lock another
// process holds (Locks).
//
// It reads objects as JSON and decides nothing about settling: the proxy
// reports what it learns here as activity, and the run (interp/run/session,
// interp/run/inject) judges quiet from it.
package leader
