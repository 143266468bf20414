// Package record owns the record stage: it executes a test's workload steps
// against the cluster (Executor), watches every resource type to record the
// cluster history (History), and runs fault-free reference runs whose
// traces the later stages read.
//
// It does not intercept the controller (interp/proxy does), start it
// (interp/controller does) or judge a run (interp/oracle does).
package record
