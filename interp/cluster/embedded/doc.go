// Package embedded is sieve's default cluster backend: a real, complete
// Kubernetes control plane on the loopback interface, with nothing to
// install.
//
// Start runs etcd, kube-apiserver, kube-controller-manager, kube-scheduler
// and a node simulator. Each is a child process of the sieve-controlplane
// binary (`sieve-controlplane NAME`), which the controlplane package finds
// or builds from the nested module controlplane/. They listen on random
// free loopback ports with TLS; etcd serves its clients on a unix socket
// where it can. Clients of the API server authenticate with a random
// bearer token, and Start writes a kubeconfig for them.
//
// Reset returns the cluster to its state at Start, or at the last
// Checkpoint, directly in etcd and much faster than a restart
// (BenchmarkReset measures it). It deletes every object created since and
// writes back every object of then that was changed or deleted. Built-in
// owners go first, and the rest once the controller manager's garbage
// collector shows it has seen them go (owners.go). Snapshot takes a
// checkpoint as a value, in the middle of a workload say, and ResetTo
// returns to it with the same care, leaving Reset's checkpoint as it is.
//
// Stop kills the children and removes the temporary directory. Children
// also die with the parent process. The directory's name carries its
// owner's PID and start time. Every Start removes the directories of
// owners that no longer run, since a sieve killed with SIGKILL cannot
// remove its own.
//
// This package does not link k8s.io/kubernetes; only sieve-controlplane
// does. So sieve, and the programs and tests that start a control plane,
// stay small and installable with go install. It does not run the
// controller under test: the interpreter does, and BuiltinCommand gives it
// the command line of a built-in controller.
package embedded
