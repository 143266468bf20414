package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/load"
)

// checkFlags are the flags of `sieve check`.
type checkFlags struct {
	includes []string
}

func newCheckCmd(g *globals) *cobra.Command {
	f := &checkFlags{}
	cmd := &cobra.Command{
		Use:   "check PATH...",
		Short: "Check spec files for errors",
		Long: "Check parses and checks .sieve and .cue spec files, and every file they import.\n" +
			"A directory stands for the spec files in it (not its subdirectories); DIR/...\n" +
			"for those in DIR and every directory below it, except testdata and names\n" +
			"starting with . or _ (as in Go).\n" +
			"Exit status 0 means no errors, 2 means errors were printed.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runCheck(g, f, args) },
	}
	cmd.Flags().StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	return cmd
}

func runCheck(g *globals, f *checkFlags, args []string) error {
	files, err := specFiles(args)
	if err != nil {
		return usageErr(err)
	}
	opts := loadOptions(f.includes)
	var all diag.Diagnostics
	for _, file := range files {
		_, ds := load.Load(file, opts)
		all = append(all, ds...)
	}
	all = all.Sort()
	if err := g.reportDiags(all); err != nil {
		return infraErr(err)
	}
	if all.HasErrors() {
		return printedErr(exitUsage)
	}
	if !g.quiet && g.output != "json" {
		fmt.Fprintf(g.stderr, "%d %s checked, no errors\n", len(files), plural(len(files), "file", "files"))
	}
	return nil
}

// reportDiags prints diagnostics as --output asks: a JSON array on stdout
// (always, even when empty) or text on stderr.
func (g *globals) reportDiags(ds diag.Diagnostics) error {
	if g.output == "json" {
		return g.writeDiagsJSON(ds)
	}
	return g.printDiags(ds)
}

// specFiles expands the arguments: files as given, directories to the spec
// files directly inside them, DIR/... to the spec files of the tree, sorted.
func specFiles(args []string) ([]string, error) {
	var out []string
	for _, arg := range args {
		if root, ok := treeArg(arg); ok {
			files, err := treeSpecFiles(root)
			if err != nil {
				return nil, err
			}
			out = append(out, files...)
			continue
		}
		st, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", arg, pathErrOnly(err))
		}
		if !st.IsDir() {
			out = append(out, arg)
			continue
		}
		files, err := dirSpecFiles(arg)
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no .sieve or .cue files in directory", arg)
		}
		out = append(out, files...)
	}
	return out, nil
}

// treeArg reports whether arg is DIR/... (or ...), and returns DIR.
func treeArg(arg string) (string, bool) {
	if arg == "..." {
		return ".", true
	}
	root, ok := strings.CutSuffix(filepath.ToSlash(arg), "/...")
	if !ok {
		return "", false
	}
	if root == "" {
		root = "/"
	}
	return filepath.FromSlash(root), true
}

// treeSpecFiles lists the spec files under root, skipping directories
// named testdata or starting with . or _ below it, as go ./... does.
func treeSpecFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", p, pathErrOnly(err))
		}
		name := d.Name()
		if d.IsDir() && p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && load.IsSpecFile(name) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s/...: no .sieve or .cue files in the tree", root)
	}
	sort.Strings(out)
	return out, nil
}

func dirSpecFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read directory: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && load.IsSpecFile(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

func pathErrOnly(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
