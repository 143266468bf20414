// Package cluster defines the Backend interface that the pipeline runs
// against, and Rewinder, a backend that returns to checkpoints taken
// mid-workload. It holds the backends that are light to link: kind (Kind) and
// an existing cluster reached through a kubeconfig (Existing). On a
// cluster sieve does not own, it marks what a run created (OwnerLabel) and
// wipes only that.
//
// The embedded control plane is the embedded sub-package's. Its
// Kubernetes components run from the sieve-controlplane binary, the only
// one that links k8s.io/kubernetes; no package of sieve's module does.
package cluster
