package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
)

func newSetupCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "setup",
		Short: "Find or build the control-plane binary the embedded backend runs, and print its path",
		Long: "Setup finds the sieve-controlplane binary that runs etcd, kube-apiserver,\n" +
			"kube-controller-manager, kube-scheduler and the node simulator of the embedded\n" +
			"backend, building it with the Go toolchain if there is none (about 15 minutes on\n" +
			"two cores the first time), and prints its path. sieve looks for it, in order,\n" +
			"in $" + controlplane.Env + ", next to the sieve binary, on PATH and in the user cache\n" +
			"(the printed path); sieve run builds it the same way on first use. Run setup\n" +
			"ahead of time, for instance in a CI step whose cache keeps the binary.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSetup(cmd.Context(), g) },
	}
}

func runSetup(ctx context.Context, g *globals) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var progress io.Writer = g.stderr
	if g.quiet {
		progress = io.Discard
	}
	path, err := controlplane.Ensure(ctx, controlplane.Options{Progress: progress})
	if err != nil {
		return infraErr(err)
	}
	_, err = fmt.Fprintln(g.stdout, path)
	return err
}
