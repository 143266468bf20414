package cli

import (
	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// compileFlags are the flags of `sieve compile`.
type compileFlags struct {
	includes []string
	test     string
}

func newCompileCmd(g *globals) *cobra.Command {
	f := &compileFlags{}
	cmd := &cobra.Command{
		Use:   "compile PATH",
		Short: "Print the compiled IR of a spec as JSON",
		Long: "Compile checks a spec file (or a CUE package directory) and prints its intermediate representation (the\n" +
			"tests with imports resolved, parameters substituted and inheritance flattened)\n" +
			"as JSON on stdout. With --test, only that test.",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runCompile(g, f, args[0]) },
	}
	cmd.Flags().StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	cmd.Flags().StringVar(&f.test, "test", "", "print only the test NAME")
	return cmd
}

func runCompile(g *globals, f *compileFlags, file string) error {
	spec, ds := load.Load(file, loadOptions(f.includes))
	if ds.HasErrors() {
		return g.failDiags(ds)
	}
	if err := g.printDiags(ds); err != nil { // warnings
		return infraErr(err)
	}
	if len(spec.Tests) == 0 {
		at := diag.Position{Filename: spec.File}
		return g.failDiags(diag.Diagnostics{diag.Errorf(diag.Range{Start: at, End: at}, "empty",
			"nothing to compile: %s defines no test", spec.File)})
	}
	if f.test != "" {
		t, d := load.SelectTest(spec, f.test)
		if d != nil {
			return g.failDiags(diag.Diagnostics{d})
		}
		spec.Tests = []*ir.Test{t}
	}
	out, err := ir.Dump(spec)
	if err != nil {
		return infraErr(err)
	}
	_, err = g.stdout.Write(out)
	return err
}

// failDiags prints diagnostics and returns the spec-error exit.
func (g *globals) failDiags(ds diag.Diagnostics) error {
	if err := g.printDiags(ds.Sort()); err != nil {
		return infraErr(err)
	}
	return printedErr(exitUsage)
}
