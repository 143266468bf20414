package cluster

import (
	"context"

	"k8s.io/client-go/rest"
)

// Backend is a Kubernetes control plane that sieve can run plans against.
type Backend interface {
	// Start brings the control plane up and returns once the API server
	// answers and the built-in controllers run.
	Start(ctx context.Context) error
	// RESTConfig is an admin client configuration for sieve itself.
	RESTConfig() *rest.Config
	// Kubeconfig is the path of a kubeconfig file with the same access.
	Kubeconfig() string
	// Reset returns the cluster to the state right after Start: objects,
	// namespaces and CRDs created since are gone.
	Reset(ctx context.Context) error
	// Stop tears everything down: processes, ports and temporary files.
	Stop() error
}

// Rewinder is a backend that can take a checkpoint of its cluster in the
// middle of a workload and return to it, as often as asked (the embedded
// one): runs that start there skip the steps before it.
type Rewinder interface {
	// Snapshot takes a checkpoint of the cluster as it is now; take it
	// with the controller under test stopped.
	Snapshot(ctx context.Context) (Checkpoint, error)
	// ResetTo returns the cluster to cp. It refuses a checkpoint that
	// another cluster, or another start of this one, took.
	ResetTo(ctx context.Context, cp Checkpoint) error
}

// Checkpoint is a state of one start of one cluster, taken by
// Rewinder.Snapshot: it holds that cluster's UIDs, certificates and
// revisions.
type Checkpoint interface {
	// Cluster names the start of the cluster that took it.
	Cluster() string
}
