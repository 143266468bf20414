package cli

import (
	"github.com/spf13/cobra"
)

// newInternalCmd is the hidden parent of the subcommands sieve runs as its
// own child processes. They are not a user interface and may change.
func newInternalCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "internal",
		Short:  "Subcommands sieve runs as its own child processes",
		Hidden: true,
	}
	cmd.AddCommand(newInternalInClusterCmd(g), newInternalWorkerCmd(g))
	return cmd
}
