package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/report"
)

// reportFlags are the flags of `sieve report`.
type reportFlags struct {
	junit string
	html  string
}

func newReportCmd(g *globals) *cobra.Command {
	f := &reportFlags{}
	cmd := &cobra.Command{
		Use:   "report RESULTS_DIR...",
		Short: "Summarise results directories again",
		Long: "Report reads the results directory that `sieve run` wrote (also an unfinished one)\n" +
			"and prints its summary: findings grouped, most severe first, each with the command\n" +
			"that reproduces it. --output json prints the summary as JSON instead; --junit and\n" +
			"--html also write a JUnit XML file and an HTML report with a timeline of each\n" +
			"failing run. Several directories are read as one run: those of the jobs of a run\n" +
			"split with --shard, say, give one summary, one JUnit file and one HTML report.\n" +
			"Exit status 0 means no findings, 1 findings, 3 plans that could not run\n" +
			"or a run that did not finish.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runReport(g, f, args) },
	}
	cmd.Flags().StringVar(&f.junit, "junit", "", "write JUnit XML to `FILE`")
	cmd.Flags().StringVar(&f.html, "html", "", "write an HTML report into `DIR` (DIR/index.html)")
	return cmd
}

func runReport(g *globals, f *reportFlags, dirs []string) error {
	if err := absPaths(&f.junit, &f.html); err != nil {
		return usageErr(err)
	}
	// Reproduce commands as the user would type them: the directories
	// relative to the working directory.
	rel := make([]string, len(dirs))
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return usageErr(err)
		}
		rel[i] = relPath(abs)
	}
	s, err := results.LoadAll(rel)
	if err != nil {
		return usageErr(err)
	}
	root := rel[0] // the root the runs' directories are relative to
	if len(rel) > 1 {
		root = ""
	}
	if err := writeReportFiles(g, f, root, s); err != nil {
		return infraErr(err)
	}
	if err := printSummary(g, s); err != nil {
		return infraErr(err)
	}
	code := s.ExitCode()
	if code == exitOK && s.Unfinished() {
		// Nothing failed of what ran, but not everything ran: not a pass.
		code = exitInfra
	}
	if code != exitOK {
		return printedErr(code)
	}
	return nil
}

// writeReportFiles writes the JUnit and HTML reports the flags ask for.
func writeReportFiles(g *globals, f *reportFlags, dir string, s *results.Summary) error {
	if f.junit != "" {
		var b bytes.Buffer
		if err := report.JUnit(&b, s); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(f.junit), 0o755); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
		if err := os.WriteFile(f.junit, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
		g.reportNote("wrote %s\n", f.junit)
	}
	if f.html != "" {
		if err := report.HTML(f.html, dir, s); err != nil {
			return fmt.Errorf("--html: %w", err)
		}
		g.reportNote("wrote %s\n", filepath.Join(f.html, "index.html"))
	}
	return nil
}

// reportNote prints progress to stderr unless -q.
func (g *globals) reportNote(format string, args ...any) {
	if !g.quiet {
		fmt.Fprint(g.stderr, termText(fmt.Sprintf(format, args...)))
	}
}
