// Package component runs one piece of the embedded control plane — etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler or the node
// simulator — inside the current process. The sieve-controlplane binary
// calls Run; sieve's embedded backend starts one such child process per
// component, because the Kubernetes components keep process-global state
// (logging, feature gates, signal handling) and cannot share a process.
//
// This is the only package of sieve that links k8s.io/kubernetes, which is
// why it lives in its own module (github.com/sievetool/sieve/controlplane,
// with the replace directives Kubernetes' staging modules need): the root
// module stays free of them and installable with go install. It owns no
// cluster layout: ports, certificates and flags are chosen by the embedded
// package and arrive here as arguments.
package component
