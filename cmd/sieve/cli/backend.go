package cli

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
	"github.com/sievetool/sieve/lang/load"
)

// backendFlags choose where tests run.
type backendFlags struct {
	backend    string
	kubeconfig string
	context    string
	hostNet    bool
	kubernetes string
}

func (f *backendFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.backend, "backend", "embedded", "where to run: embedded (default, needs nothing), kind (needs Docker or Podman) or kubeconfig")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "with --backend kubeconfig: the existing cluster's kubeconfig `FILE`; with --on kubernetes: the cluster the Job goes to")
	fl.StringVar(&f.context, "context", "", "with --backend kubeconfig or --on kubernetes: the kubeconfig context")
	fl.StringVar(&f.kubernetes, "kubernetes", "", "with --backend embedded: run the API server, controller manager and scheduler of an older Kubernetes `VERSION` (1.21: serves policy/v1beta1 and apiextensions.k8s.io/v1beta1; built on first use), or of the default, "+kinds.DefaultKubernetes+", over a test's kubernetes")
	fl.BoolVar(&f.hostNet, "host-network", false, "run controllers on the host's network instead of a private one each (for a controller that must reach the outside; fixed ports may then collide between workers)")
}

// of is the backend the flags choose.
func (f *backendFlags) of() pipeline.Backend {
	return pipeline.Backend{Name: f.backend, Kubeconfig: f.kubeconfig, Context: f.context, HostNetwork: f.hostNet, Kubernetes: f.kubernetes, Progress: os.Stderr}
}

func (f *backendFlags) check() error { return pipeline.CheckBackend(f.of()) }

// loadOptions are the options to load a spec with -I includes, on the
// Kubernetes line --kubernetes chooses.
func (f *backendFlags) loadOptions(includes []string) load.Options {
	opts := loadOptions(includes)
	opts.Kubernetes = f.kubernetes
	return opts
}

// workers starts n backends for test t's controller, in parallel. The
// returned stop function stops every backend that started.
func (f *backendFlags) workers(ctx context.Context, t *ir.Test, n int) ([]*session.Worker, func() error, error) {
	return pipeline.StartWorkers(ctx, f.of().For(t), t.Controller, n)
}
