// Package leader knows leader election as sieve sees it on the wire. It
// reads the record that a lock object carries (Read): a Lease's spec, or
// the control-plane.alpha.kubernetes.io/leader annotation of a ConfigMap
// or Endpoints, controller-runtime's older lock. It tells which changes of
// a lock are heartbeats, the holder renewing its record, rather than
// progress (Heartbeat, Beats). It tells whether a controller waits for a
// lock that another process holds (Locks).
//
// It reads objects as JSON and decides nothing about settling. The proxy
// reports what it learns here as activity, and the run (interp/run/session,
// interp/run/inject) judges quiet from it. Plan pruning
// (interp/analysis/plan) asks it which objects are locks (IsLock).
package leader
