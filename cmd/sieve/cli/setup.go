package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/lang/kinds"
)

func newSetupCmd(g *globals) *cobra.Command {
	var kubernetes string
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Find or build the control-plane binary the embedded backend runs, and print its path",
		Long: "Setup finds the sieve-controlplane binary that runs etcd, kube-apiserver,\n" +
			"kube-controller-manager, kube-scheduler and the node simulator of the embedded\n" +
			"backend, building it with the Go toolchain if there is none (about 15 minutes on\n" +
			"two cores the first time), and prints its path. sieve looks for it, in order,\n" +
			"in $" + controlplane.Env + ", next to the sieve binary, on PATH and in the user cache\n" +
			"(the printed path); sieve run builds it the same way on first use. Run setup\n" +
			"ahead of time, for instance in a CI step whose cache keeps the binary.\n" +
			"With --kubernetes VERSION, setup also builds the older line's binary that\n" +
			"sieve run --kubernetes VERSION runs, and prints its path on a second line.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSetup(cmd.Context(), g, kubernetes) },
	}
	cmd.Flags().StringVar(&kubernetes, "kubernetes", "", "also build the control plane of an older Kubernetes `VERSION` (1.21; "+kinds.DefaultKubernetes+", the default, builds only the default)")
	return cmd
}

func runSetup(ctx context.Context, g *globals, kubernetes string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	g.interruptible() // a stop signal ends a build and its wait, which remove what they made
	var progress io.Writer = g.stderr
	if g.quiet {
		progress = io.Discard
	}
	if kubernetes == kinds.DefaultKubernetes {
		kubernetes = "" // the default line, built anyway
	}
	var line controlplane.Line
	if kubernetes != "" {
		var err error
		if line, err = controlplane.LookupLine(kubernetes); err != nil {
			return usageErr(fmt.Errorf("--kubernetes: %w", err))
		}
	}
	path, err := controlplane.Ensure(ctx, controlplane.Options{Progress: progress})
	if err != nil {
		return infraErr(err)
	}
	fmt.Fprintln(g.stdout, path)
	if kubernetes == "" {
		return nil
	}
	if path, err = controlplane.EnsureLine(ctx, line, controlplane.Options{Progress: progress}); err != nil {
		return infraErr(err)
	}
	_, err = fmt.Fprintln(g.stdout, path)
	return err
}
