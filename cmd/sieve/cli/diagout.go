package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// renderOptions says how this invocation prints diagnostics: colour only
// when stderr is a terminal and neither --no-color nor NO_COLOR is set,
// paths relative to the working directory, excerpts from disk or the
// embedded standard library.
func (g *globals) renderOptions() diag.RenderOptions {
	wd, _ := os.Getwd()
	return diag.RenderOptions{
		Color:   !g.noColor && os.Getenv("NO_COLOR") == "" && isTerminal(g.stderr),
		WorkDir: wd,
		Source:  load.Source,
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// printDiags writes diagnostics as text to stderr. With --output json the
// caller prints them itself (see writeDiagsJSON).
func (g *globals) printDiags(ds diag.Diagnostics) error {
	if len(ds) == 0 {
		return nil
	}
	return diag.WriteText(g.stderr, ds, g.renderOptions())
}

// writeDiagsJSON writes diagnostics as one JSON array to stdout.
func (g *globals) writeDiagsJSON(ds diag.Diagnostics) error {
	return diag.WriteJSON(g.stdout, ds, g.renderOptions())
}

// includeUsage is the help of every verb's -I flag.
const includeUsage = "add DIR to the search path of .sieve imports (repeatable; a CUE spec imports through its CUE module)"

// loadOptions are the options of load.Load for the -I directories given.
func loadOptions(includes []string) load.Options {
	return load.Options{SearchPath: searchPath(includes), Includes: includes}
}

// searchPath is the import search path from -I flags and SIEVE_PATH, each
// directory made absolute (see absPaths).
func searchPath(includes []string) []string {
	dirs := load.SearchPath(includes, os.Getenv("SIEVE_PATH"))
	if err := absList(dirs); err != nil {
		return load.SearchPath(includes, os.Getenv("SIEVE_PATH")) // no working directory: as given
	}
	return dirs
}

// testErr is the exit error for a test's pipeline that failed: the spec
// mistakes its reference runs show, printed as diagnostics (exit 2), or
// else an infrastructure error naming the test (exit 3).
func (g *globals) testErr(t *ir.Test, err error) error {
	var es pipeline.SpecErrors
	if !errors.As(err, &es) {
		return infraErr(fmt.Errorf("test %s: %w", t.Name, err))
	}
	ds := make(diag.Diagnostics, len(es))
	for i, e := range es {
		d := diag.Errorf(e.Src, "reference", "test %s: %s", t.Name, relText(e.Summary()))
		d.Detail = pipeline.Hint
		ds[i] = d
	}
	return g.failDiags(ds)
}
