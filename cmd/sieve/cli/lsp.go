package cli

import (
	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/lang/lsp"
)

// lspFlags are the flags of `sieve lsp`.
type lspFlags struct {
	includes []string
}

func newLSPCmd(g *globals) *cobra.Command {
	f := &lspFlags{}
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Serve the Language Server Protocol for spec files on stdin and stdout",
		Long: "Lsp is a language server for .sieve specs, for editors: it reads the\n" +
			"protocol's messages on stdin and answers on stdout. Diagnostics are those\n" +
			"of sieve check (with the same -I and SIEVE_PATH); it also serves hover,\n" +
			"completion, go to definition, references, document symbols, formatting (as\n" +
			"sieve fmt) and quick fixes for \"did you mean\" hints; .cue specs get\n" +
			"diagnostics, hover on the schema's fields and formatting. See docs/lsp.md.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLSP(cmd, g, f) },
	}
	cmd.Flags().StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	return cmd
}

func runLSP(cmd *cobra.Command, g *globals, f *lspFlags) error {
	err := lsp.Serve(cmd.Context(), cmd.InOrStdin(), g.stdout, lsp.Options{Load: loadOptions(f.includes)})
	if err != nil {
		return infraErr(err)
	}
	return nil
}
