// Package component runs one piece of the embedded control plane — etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler or the node
// simulator — inside the current process. The sieve binary calls Run from
// its hidden `sieve internal component` verb; the embedded package starts one
// such child process per component, because the Kubernetes components keep
// process-global state (logging, feature gates, signal handling) and cannot
// share a process.
//
// This is the only package of sieve that links k8s.io/kubernetes. It owns no
// cluster layout: ports, certificates and flags are chosen by the embedded
// package and arrive here as arguments.
package component
