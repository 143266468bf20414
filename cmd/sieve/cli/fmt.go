package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/load"
)

// fmtFlags are the flags of `sieve fmt`.
type fmtFlags struct {
	write bool // -w: rewrite files in place
	check bool // --check: print a diff per unformatted file, change nothing, exit 1
	diff  bool // -d: print a diff per unformatted file instead of the text
}

func newFmtCmd(g *globals) *cobra.Command {
	f := &fmtFlags{}
	cmd := &cobra.Command{
		Use:   "fmt [-w|-d|--check] PATH...",
		Short: "Format spec files canonically",
		Long: "Fmt prints spec files in the canonical layout (comments kept; formatting twice\n" +
			"changes nothing). Without flags it writes the formatted text to stdout; -w\n" +
			"rewrites the files in place; -d prints a unified diff for each file that is\n" +
			"not formatted instead (with -w, as well); --check prints those diffs, changes\n" +
			"nothing and exits 1 when there are any. A directory stands for the spec files\n" +
			"in it, DIR/... for the tree.\n" +
			"Exit status 2 means a file has syntax errors (printed on stderr).",
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runFmt(g, f, args) },
	}
	cmd.Flags().BoolVarP(&f.write, "write", "w", false, "rewrite the files in place")
	cmd.Flags().BoolVar(&f.check, "check", false, "print a diff for each file that is not formatted and exit 1")
	cmd.Flags().BoolVarP(&f.diff, "diff", "d", false, "print a diff for each file that is not formatted instead of the text")
	return cmd
}

func runFmt(g *globals, f *fmtFlags, args []string) error {
	if f.write && f.check {
		return usageErr(errors.New("fmt: -w and --check cannot be used together"))
	}
	files, err := specFiles(args)
	if err != nil {
		return usageErr(err)
	}
	var all diag.Diagnostics
	unformatted := 0
	for _, file := range files {
		changed, ds, err := fmtFile(g, f, file)
		if err != nil {
			return infraErr(err)
		}
		all = append(all, ds...)
		if changed {
			unformatted++
		}
	}
	if err := g.printDiags(all.Sort()); err != nil {
		return infraErr(err)
	}
	switch {
	case all.HasErrors():
		return printedErr(exitUsage)
	case f.check && unformatted > 0:
		return printedErr(exitFindings)
	}
	return nil
}

// fmtFile formats one file as the flags say and reports whether its text
// was not already canonical.
func fmtFile(g *globals, f *fmtFlags, file string) (bool, diag.Diagnostics, error) {
	src, err := input.ReadFile(file, input.SpecLimit)
	if err != nil {
		return false, nil, fmt.Errorf("fmt: %w", err)
	}
	out, ds := load.Format(file, src)
	if ds.HasErrors() {
		return false, ds, nil
	}
	changed := !bytes.Equal(src, out)
	if changed && (f.check || f.diff) {
		// As gofmt -d: the file as it is, named FILE.orig, against the file
		// formatted.
		if _, err := g.stdout.Write(diff.Diff(file+".orig", src, file, out)); err != nil {
			return changed, ds, err
		}
	}
	switch {
	case f.write:
		if changed {
			err = writeAtomic(file, out)
		}
	case !f.check && !f.diff:
		_, err = g.stdout.Write(out)
	}
	return changed, ds, err
}

// writeAtomic replaces file with data through a temporary file in the same
// directory and a rename, keeping the file's permissions.
func writeAtomic(file string, data []byte) error {
	// Write through a symbolic link: the link stays, its target changes.
	file, err := filepath.EvalSymlinks(file)
	if err != nil {
		return fmt.Errorf("fmt: %w", err)
	}
	st, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("fmt: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return fmt.Errorf("fmt: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("fmt: write %s: %w", file, err)
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return fmt.Errorf("fmt: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("fmt: write %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("fmt: %w", err)
	}
	return nil
}
