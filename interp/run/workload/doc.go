// Package workload is the workload executor and the history watcher that
// every run uses, reference runs and plan runs alike.
//
// The Executor installs the controller's CRDs and executes a workload's
// steps against the cluster: apply, patch, scale, delete, wait, settle and
// sleep. It writes each step to the trace. A step that fails names its
// spec line (StepError). A wait that goes on when it times out records its
// outcome in the trace instead (TimeoutError). History watches every
// listable resource type, and custom resources once their CRD is
// established, and writes the cluster history to the trace. On a cluster
// that sieve does not own (the kubeconfig backend), an Owner confines both
// to what the run created: the namespaces that carry its label and the
// objects in them.
//
// It does not decide which runs are made or what is done with their traces
// (interp/pipeline). It does not intercept the controller
// (interp/run/proxy), start it (interp/run/controller), inject faults
// (interp/run/inject) or judge a run (interp/analysis/oracle).
package workload
