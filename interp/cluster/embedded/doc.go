// Package embedded is sieve's default cluster backend: a real, complete
// Kubernetes control plane on the loopback interface, with nothing to
// install. Start runs etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler and a node simulator, each as a child process of the
// sieve-controlplane binary (`sieve-controlplane NAME`, built from the nested
// module controlplane/ and found or built by the controlplane package), on
// random free ports with TLS and a random bearer token, and writes a
// kubeconfig for clients. Reset returns the cluster to its state at Start
// (or at the last Checkpoint) directly in etcd: it deletes every object
// created since and writes back every object of then that was changed or
// deleted, in about 150–200 milliseconds instead of a restart's seconds.
// Stop kills the children and removes the temporary directory; children
// also die with the parent process. The
// directory's name carries its owner's PID and start time, and every Start
// removes the directories of owners that no longer run (a sieve killed with
// SIGKILL cannot remove its own).
//
// This package does not link k8s.io/kubernetes (only sieve-controlplane
// does), so sieve and the programs and tests that start a control plane
// stay small and installable with go install. It does not run the controller under test; the
// interpreter does, and BuiltinCommand gives it the command line for a
// built-in controller.
package embedded
