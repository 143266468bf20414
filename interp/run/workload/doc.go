// Package workload is the workload executor and the history watcher that
// every run uses, reference runs and plan runs alike: the Executor
// installs the controller's CRDs and executes a workload's steps (apply,
// patch, scale, delete, wait, settle, sleep) against the cluster, writing
// each step to the trace and naming the spec line of a step that fails
// (StepError), or, for a wait that goes on when it times out, recording
// its outcome in the trace instead (TimeoutError); History watches every listable resource type, custom
// resources once their CRD is established, and writes the cluster
// history to the trace. On a cluster sieve does not own (the kubeconfig
// backend), an Owner confines both to what the run created: the
// namespaces that carry its label and the objects in them.
//
// It does not decide which runs are made or what is done with their traces
// (interp/pipeline), intercept the controller (interp/run/proxy), start it
// (interp/run/controller), inject faults (interp/run/inject) or judge a run
// (interp/analysis/oracle).
package workload
