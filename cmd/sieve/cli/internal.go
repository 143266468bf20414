package cli

import (
	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/cluster/embedded/component"
)

// newInternalCmd is the hidden parent of the subcommands sieve runs as its
// own child processes. They are not a user interface and may change.
func newInternalCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "internal",
		Short:  "Subcommands sieve runs as its own child processes",
		Hidden: true,
	}
	cmd.AddCommand(newInternalComponentCmd(g))
	cmd.AddCommand(newInternalInClusterCmd(g))
	return cmd
}

// newInternalComponentCmd runs one component of the embedded control plane
// in this process (see interp/cluster/embedded/component). The arguments
// after the name go to the component unparsed.
func newInternalComponentCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:                "component NAME [ARGS...]",
		Short:              "Run one component of the embedded control plane",
		Args:               cobra.MinimumNArgs(1),
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := component.Run(args[0], args[1:], g.stdout, g.stderr); err != nil {
				return infraErr(err)
			}
			return nil
		},
	}
}
