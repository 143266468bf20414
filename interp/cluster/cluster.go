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
