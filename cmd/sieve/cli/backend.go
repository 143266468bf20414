package cli

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/ir"
)

// backendFlags choose where tests run.
type backendFlags struct {
	backend    string
	kubeconfig string
	context    string
	hostNet    bool
}

func (f *backendFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.backend, "backend", "embedded", "where to run: embedded (default, needs nothing), kind (needs Docker or Podman) or kubeconfig")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "with --backend kubeconfig: the existing cluster's kubeconfig `FILE`; with --on kubernetes: the cluster the Job goes to")
	fl.StringVar(&f.context, "context", "", "with --backend kubeconfig or --on kubernetes: the kubeconfig context")
	fl.BoolVar(&f.hostNet, "host-network", false, "run controllers on the host's network instead of a private one each (for a controller that must reach the outside; fixed ports may then collide between workers)")
}

// of is the backend the flags choose.
func (f *backendFlags) of() pipeline.Backend {
	return pipeline.Backend{Name: f.backend, Kubeconfig: f.kubeconfig, Context: f.context, HostNetwork: f.hostNet, Progress: os.Stderr}
}

func (f *backendFlags) check() error { return pipeline.CheckBackend(f.of()) }

// workers starts n backends for a test's controller, in parallel. The
// returned stop function stops every backend that started.
func (f *backendFlags) workers(ctx context.Context, c *ir.Controller, n int) ([]*pipeline.Worker, func() error, error) {
	return pipeline.StartWorkers(ctx, f.of(), c, n)
}
