package cli

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/plan"
	"github.com/sievetool/sieve/interp/trace"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// planFlags are the flags of `sieve plan`.
type planFlags struct {
	includes []string
	test     string
	trace    string
	pattern  string
	out      string
}

func newPlanCmd(g *globals) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan SPEC --trace FILE",
		Short: "Generate and prune test plans from a reference trace",
		Long: "Plan generates the test plans of a test from a reference trace: for each policy\n" +
			"and pattern, the candidates, pruned pass by pass, plus the test's own plans. It\n" +
			"prints the counts per pattern (baseline, after each pruning pass, final) and\n" +
			"the plan names; --out DIR writes one JSON file per plan (docs/plan.md).\n" +
			"The test defaults to the one the trace was recorded for.",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runPlan(g, f, args[0]) },
	}
	cmd.Flags().StringArrayVarP(&f.includes, "include", "I", nil, "add DIR to the import search path (repeatable)")
	cmd.Flags().StringVar(&f.test, "test", "", "the test NAME (default: the trace's)")
	cmd.Flags().StringVar(&f.trace, "trace", "", "the reference trace FILE (required until recording exists)")
	cmd.Flags().StringVar(&f.pattern, "pattern", "", "only PATTERN: intermediate, stale, unobserved or user")
	cmd.Flags().StringVar(&f.out, "out", "", "write the plans and counts.json to DIR")
	return cmd
}

func runPlan(g *globals, f *planFlags, file string) error {
	if f.trace == "" {
		return usageErr(fmt.Errorf("plan: --trace FILE is required (recording a reference is not available yet)"))
	}
	if err := checkPattern(f.pattern); err != nil {
		return usageErr(err)
	}
	spec, ds := load.Load(file, load.Options{SearchPath: searchPath(f.includes)})
	if ds.HasErrors() {
		return g.failDiags(ds)
	}
	if err := g.printDiags(ds); err != nil {
		return infraErr(err)
	}
	tr, err := trace.Read(f.trace)
	if err != nil {
		return usageErr(err)
	}
	t, d := load.SelectTest(spec, planTestName(f.test, tr, spec))
	if d != nil {
		return g.failDiags(diag.Diagnostics{d})
	}
	set, err := plan.Generate(tr, onlyPattern(t, f.pattern), plan.Options{})
	if err != nil {
		return usageErr(err)
	}
	if f.out != "" {
		if err := set.Write(f.out); err != nil {
			return infraErr(err)
		}
	}
	return printPlans(g, f, set)
}

// checkPattern validates --pattern.
func checkPattern(p string) error {
	switch ir.Pattern(p) {
	case "", ir.Intermediate, ir.Stale, ir.Unobserved, plan.User:
		return nil
	}
	return fmt.Errorf("--pattern: unknown pattern %q (want intermediate, stale, unobserved or user)", p)
}

// planTestName picks the test: --test, else the trace's, else the spec's
// only test.
func planTestName(flag string, tr *trace.Trace, spec *ir.Spec) string {
	switch {
	case flag != "":
		return flag
	case tr.Header.Test != "":
		return tr.Header.Test
	case len(spec.Tests) == 1:
		return spec.Tests[0].Name
	}
	return ""
}

// onlyPattern returns a copy of t that asks only for pattern p (all when
// p is empty).
func onlyPattern(t *ir.Test, p string) *ir.Test {
	if p == "" {
		return t
	}
	c := *t
	c.Policies = nil
	if ir.Pattern(p) != plan.User {
		c.Plans = nil
		for _, pol := range t.Policies {
			if slices.Contains(pol.Patterns, ir.Pattern(p)) {
				pc := *pol
				pc.Patterns = []ir.Pattern{ir.Pattern(p)}
				c.Policies = append(c.Policies, &pc)
			}
		}
	}
	return &c
}

// printPlans prints the set: JSON, or the counts table and the names (only
// the names with -q).
func printPlans(g *globals, f *planFlags, set *plan.Set) error {
	if g.output == "json" {
		enc := json.NewEncoder(g.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(set)
	}
	if !g.quiet {
		if err := plan.WriteCounts(g.stdout, set.Counts); err != nil {
			return infraErr(err)
		}
		fmt.Fprintln(g.stdout)
	}
	for _, p := range set.Plans {
		fmt.Fprintln(g.stdout, p.Name)
	}
	if f.out != "" && !g.quiet {
		fmt.Fprintf(g.stderr, "wrote %d plans to %s\n", len(set.Plans), f.out)
	}
	return nil
}
