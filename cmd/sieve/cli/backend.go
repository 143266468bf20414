package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/ir"
)

// backendFlags choose where tests run.
type backendFlags struct {
	backend    string
	kubeconfig string
	context    string
}

func (f *backendFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.backend, "backend", "embedded", "where to run: embedded (default, needs nothing), kind (needs Docker or Podman) or kubeconfig")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "with --backend kubeconfig: the existing cluster's kubeconfig `FILE`; with --on kubernetes: the cluster the Job goes to")
	fl.StringVar(&f.context, "context", "", "with --backend kubeconfig or --on kubernetes: the kubeconfig context")
}

func (f *backendFlags) check() error {
	switch f.backend {
	case "embedded", "kind":
		if f.kubeconfig != "" || f.context != "" {
			return fmt.Errorf("--kubeconfig and --context go with --backend kubeconfig")
		}
	case "kubeconfig":
		if f.kubeconfig == "" {
			return fmt.Errorf("--backend kubeconfig needs --kubeconfig FILE (sieve never uses a cluster it was not pointed at)")
		}
	default:
		return fmt.Errorf("--backend: unknown backend %q (want embedded, kind or kubeconfig)", f.backend)
	}
	return nil
}

// workers starts n backends for a test's controller, in parallel. The
// returned stop function stops every backend that started.
func (f *backendFlags) workers(ctx context.Context, c *ir.Controller, n int) ([]*pipeline.Worker, func() error, error) {
	if f.backend == "kubeconfig" {
		n = 1 // one cluster: plans share it one after the other
	}
	if f.backend == "kind" && c.Builtin != "" {
		// The built-in controller runs from the control-plane binary,
		// which a kind cluster does not otherwise need.
		if _, err := controlplane.Ensure(ctx, controlplane.Options{Progress: os.Stderr}); err != nil {
			return nil, func() error { return nil }, err
		}
	}
	backends := make([]cluster.Backend, n)
	errs := make([]error, n)
	done := make(chan int)
	for i := range n {
		backends[i] = f.newBackend(c, i)
		go func() { errs[i] = backends[i].Start(ctx); done <- i }()
	}
	for range n {
		<-done
	}
	stop := func() error {
		var errs []error
		for _, b := range backends {
			errs = append(errs, b.Stop())
		}
		return errors.Join(errs...)
	}
	if err := joinDistinct(errs); err != nil {
		return nil, stop, err
	}
	ws := make([]*pipeline.Worker, n)
	for i, b := range backends {
		ws[i] = &pipeline.Worker{Backend: b}
		// A built-in controller can be left out of clusters sieve creates,
		// not out of an existing one.
		if f.backend != "kubeconfig" {
			ws[i].Builtin = builtinCommand
		}
	}
	return ws, stop, nil
}

// joinDistinct joins errs, leaving out those whose message an earlier one
// already has: backends that fail alike are reported once.
func joinDistinct(errs []error) error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	return errors.Join(out...)
}

// builtinCommand runs a built-in kube-controller-manager controller from
// the control-plane binary (found by then: the embedded backend's Start,
// or workers for kind, made sure of it).
func builtinCommand(name, kubeconfig string) []string {
	return embedded.BuiltinCommand("", name, kubeconfig)
}

func (f *backendFlags) newBackend(c *ir.Controller, i int) cluster.Backend {
	disable := slices.Clone(c.Replaces)
	if c.Builtin != "" {
		disable = append(disable, c.Builtin)
	}
	switch f.backend {
	case "kind":
		return cluster.NewKind(cluster.KindOptions{Name: fmt.Sprintf("sieve-%d", i), Disable: disable})
	case "kubeconfig":
		return cluster.NewExisting(cluster.ExistingOptions{Path: f.kubeconfig, Context: f.context})
	}
	return embedded.New(embedded.Options{Disable: disable})
}
