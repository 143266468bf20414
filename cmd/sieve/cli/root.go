package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/nospace"
	"github.com/sievetool/sieve/lang/ir"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
	exitInfra    = 3
	// exitInterrupted is a run stopped before it found anything, when no
	// signal says otherwise: 128 + SIGINT, as shells report it. A stop
	// signal gives 128 + its number (stopSignals).
	exitInterrupted = 130
)

// globals are the flags every verb understands.
type globals struct {
	quiet   bool
	verbose bool
	noColor bool
	output  string // "text" or "json"

	stdout io.Writer
	stderr io.Writer
	// signals catches the stop signals (nil: the command runs inside
	// another that does, or in a test).
	signals *catcher
}

// exitError carries an exit code. When printed is true the message was
// already written to stderr and Main prints nothing more.
type exitError struct {
	code    int
	err     error
	printed bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErr, infraErr and printedErr wrap errors with their exit code.
func usageErr(err error) error  { return &exitError{code: exitUsage, err: err} }
func infraErr(err error) error  { return &exitError{code: exitInfra, err: err} }
func printedErr(code int) error { return &exitError{code: code, printed: true} }

// Main runs the sieve command line with os.Args and returns the exit code.
// It catches the stop signals first of all (catcher).
func Main() int {
	c, ctx, stop := catchSignals(os.Stderr)
	defer stop()
	return execute(ctx, c, os.Args[1:], os.Stdout, os.Stderr)
}

// run runs the command line args without catching signals.
func run(args []string, stdout, stderr io.Writer) int {
	return execute(context.Background(), nil, args, stdout, stderr)
}

// execute runs the command line args with ctx, which the stop signals
// that c catches cancel (c nil: none), and returns the exit code.
func execute(ctx context.Context, c *catcher, args []string, stdout, stderr io.Writer) int {
	g := &globals{stdout: stdout, stderr: stderr, signals: c}
	if c != nil {
		c.quiet = &g.quiet
	}
	root := newRoot(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	code := exitStatus(err, stderr)
	if sc, ok := signalCode(c, err, code); ok {
		return sc
	}
	return code
}

// exitStatus is the exit code of a command that returned err, whose
// message it prints unless it was printed.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, syscall.EPIPE) {
		return 128 + int(syscall.SIGPIPE) // stdout or stderr closed: nothing to say, and nowhere
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if !ee.printed && ee.err != nil {
			fmt.Fprintf(stderr, "sieve: %s\n", termText(nospace.First(ee.err, "free some space").Error()))
		}
		return ee.code
	}
	// Errors cobra itself returns are about flags and arguments.
	fmt.Fprintf(stderr, "sieve: %s\n", termText(err.Error()))
	return exitUsage
}

func newRoot(g *globals) *cobra.Command {
	bi := readVersion()
	root := &cobra.Command{
		Use:           "sieve",
		Short:         "Find reliability bugs in Kubernetes controllers",
		Version:       bi.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// --version prints what sieve version does; the text has no template
	// actions. The flag is declared here, as a bool, so that cobra never
	// takes a --version some library declares in pflag.CommandLine (which
	// cobra merges in), as Kubernetes' component-base did when sieve
	// linked it.
	root.SetVersionTemplate(versionText(bi))
	root.Flags().Bool("version", false, "print the version of sieve, its Go and its Kubernetes")
	pf := root.PersistentFlags()
	pf.BoolVarP(&g.quiet, "quiet", "q", false, "print only results and errors")
	pf.BoolVarP(&g.verbose, "verbose", "v", false, "print progress details")
	pf.BoolVar(&g.noColor, "no-color", false, "never colour the output")
	pf.StringVar(&g.output, "output", "text", "output format: text or json")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if g.output != "text" && g.output != "json" {
			return usageErr(fmt.Errorf("--output: unknown format %q (want text or json)", g.output))
		}
		return nil
	}
	// One constructor per verb, each in its own file.
	root.AddCommand(
		newClusterCmd(g),
		newInternalCmd(g),
		newExportSchemaCmd(g),
		newCheckCmd(g),
		newCompileCmd(g),
		newReportCmd(g),
		newPlanCmd(g),
		newFmtCmd(g),
		newExploreCmd(g),
		newLSPCmd(g),
		newImageCmd(g),
		newCollectCmd(g),
		newRunCmd(g),
		newRecordCmd(g),
		newReproduceCmd(g),
		newSetupCmd(g),
		newVersionCmd(g),
	)
	return root
}

// takeResults takes the results directory root given as flag, and the
// directory of each of tests in it (testDir), for sieve (results' Take:
// absent, empty or sieve's own; any with force), then locks root
// (lockResults). A directory that is not sieve's, or a symbolic link where
// sieve writes, is a usage error, before anything starts.
func takeResults(flag, root string, force bool, tests []*ir.Test) (unlock func(), err error) {
	dirs := []string{root}
	if len(tests) > 1 {
		for _, t := range tests {
			dirs = append(dirs, testDir(root, t, len(tests)))
		}
	}
	for _, d := range dirs {
		if err := (results.Layout{Root: d}).Take(force); err != nil {
			return nil, resultsErr(flag, root, err)
		}
	}
	return lockResults(root)
}

// resultsErr is the exit error of a results directory root given as flag
// ("" for none) that sieve cannot write in. It is a usage error if the
// directory is not sieve's or holds a symbolic link where sieve writes
// (the error names the link), else an infrastructure error.
func resultsErr(flag, root string, err error) error {
	var notOurs *results.NotOursError
	var link *results.LinkError
	switch {
	case errors.As(err, &notOurs):
		err = &results.NotOursError{Dir: relPath(notOurs.Dir)}
		if flag != "" {
			err = fmt.Errorf("%s %s: %w", flag, relPath(root), err)
		}
		return usageErr(err)
	case errors.As(err, &link):
		return usageErr(link)
	}
	return infraErr(err)
}

// lockResults makes this process the one writer of a results directory
// (results.Lock): one held by another process is a usage error that names
// the holder. While it holds it, the client libraries' log lines go to the
// directory's client.log (divertClientLogs); unlock puts them back.
func lockResults(dir string) (unlock func(), err error) {
	release, err := results.Lock(results.Layout{Root: dir})
	var locked *results.LockedError
	if errors.As(err, &locked) {
		return nil, usageErr(err)
	}
	if err != nil {
		return nil, resultsErr("", dir, err)
	}
	restore, err := divertClientLogs(results.Layout{Root: dir})
	if err != nil {
		release()
		return nil, resultsErr("", dir, err)
	}
	return func() { restore(); release() }, nil
}
