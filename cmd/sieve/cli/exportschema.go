package cli

import (
	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/lang/cuefront"
)

// exportSchemaFlags are the flags of `sieve export-schema`.
type exportSchemaFlags struct {
	jsonSchema bool
	ir         bool
	std        bool
}

func newExportSchemaCmd(g *globals) *cobra.Command {
	f := &exportSchemaFlags{}
	cmd := &cobra.Command{
		Use:   "export-schema",
		Short: "Print the CUE schema of specs, or a JSON Schema of the IR",
		Long: "Export-schema prints the CUE schema that CUE specs are unified with (package\n" +
			"schema, #Spec; importable in specs as \"sieve.dev/schema\"), for editors and\n" +
			"for reference. With --ir it prints the CUE schema of the compiled IR (#IR)\n" +
			"instead, with --json-schema a JSON Schema of the IR, the output of\n" +
			"`sieve compile`, and with --std the CUE standard library (\"sieve.dev/std\").",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runExportSchema(g, f) },
	}
	cmd.Flags().BoolVar(&f.jsonSchema, "json-schema", false, "print a JSON Schema of the IR (the output of sieve compile)")
	cmd.Flags().BoolVar(&f.ir, "ir", false, "print the CUE schema of the IR (#IR)")
	cmd.Flags().BoolVar(&f.std, "std", false, "print the CUE standard library (sieve.dev/std)")
	return cmd
}

func runExportSchema(g *globals, f *exportSchemaFlags) error {
	switch {
	case f.jsonSchema:
		b, err := cuefront.JSONSchema()
		if err != nil {
			return infraErr(err)
		}
		_, err = g.stdout.Write(b)
		return err
	case f.ir:
		_, err := g.stdout.Write([]byte(cuefront.IRSchemaText()))
		return err
	case f.std:
		_, err := g.stdout.Write([]byte(cuefront.StdText()))
		return err
	}
	_, err := g.stdout.Write([]byte(cuefront.SchemaText()))
	return err
}
