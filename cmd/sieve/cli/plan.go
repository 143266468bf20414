package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// maxCandidatesUsage is the help of --max-candidates, a flag of sieve
// plan and sieve run.
func maxCandidatesUsage() string {
	return fmt.Sprintf("fail when one pattern makes more than `N` candidates before pruning (0: %d)", plan.DefaultMaxCandidates)
}

// planFlags are the flags of `sieve plan`.
type planFlags struct {
	includes []string
	test     string
	traces   []string
	pattern  string
	out      string
	force    bool
	explain  bool
	// maxCandidates bounds each pattern's candidates before pruning
	// (0: plan.DefaultMaxCandidates).
	maxCandidates int
	sieve         bool
	noCache       bool
	backend       backendFlags
}

func newPlanCmd(g *globals) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan SPEC [--test NAME] [--trace FILE]...",
		Short: "Generate and prune test plans from a reference trace",
		Long: "Plan generates the test plans of a test from a reference trace: for each policy\n" +
			"and pattern, the candidates, pruned pass by pass, plus the test's own plans. It\n" +
			"prints the plans left per policy and pattern after each pruning pass and\n" +
			"the plan names; --out DIR writes one JSON file per plan (docs/plan.md), and\n" +
			"pruned.jsonl, every candidate with the plan it made or the pass that dropped\n" +
			"it. --explain prints that list instead of the names: why a plan was not made.\n" +
			"--sieve prints each plan as a .sieve plan declaration instead, to edit and run\n" +
			"as a plan of the test's own.\n" +
			"Without --trace it records the reference runs first (or reuses them from the\n" +
			"reference cache, as sieve run does); with --trace the test defaults to the one\n" +
			"the trace was recorded for. Plans are made from the first reference run; the\n" +
			"others (more --trace files) are evidence: a stale pair is dropped when another\n" +
			"run shows its delete made after its state had been replaced.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runPlan(cmd.Context(), g, f, args[0]) },
	}
	cmd.Flags().StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	cmd.Flags().StringVar(&f.test, "test", "", "the test NAME (default: the trace's)")
	cmd.Flags().StringArrayVar(&f.traces, "trace", nil, "generate from the reference trace FILE instead of recording one (repeat for the test's other reference runs)")
	cmd.Flags().StringVar(&f.pattern, "pattern", "", "only PATTERN: intermediate, stale, unobserved, apierror, appfault or user")
	cmd.Flags().StringVar(&f.out, "out", "", "write the plans and counts.json (and recorded reference runs) to DIR")
	cmd.Flags().BoolVar(&f.force, "force", false, forceUsage)
	cmd.Flags().IntVar(&f.maxCandidates, "max-candidates", 0, maxCandidatesUsage())
	cmd.Flags().BoolVar(&f.explain, "explain", false, "list every candidate with the plan it made, or the pass that dropped it and the trace entries that show why")
	cmd.Flags().BoolVar(&f.sieve, "sieve", false, "print each plan as a .sieve plan declaration (grammar.md, plan) instead of its name")
	cmd.Flags().BoolVar(&f.noCache, "no-cache", false, "record the reference runs anew and leave the reference cache alone")
	f.backend.register(cmd)
	return cmd
}

func runPlan(ctx context.Context, g *globals, f *planFlags, file string) error {
	if err := checkPattern(f.pattern); err != nil {
		return usageErr(err)
	}
	if f.pattern == results.ExplorePattern {
		return usageErr(fmt.Errorf("--pattern: explore makes no plan (the explored workload's results: sieve run --pattern explore)"))
	}
	if err := f.backend.check(); err != nil {
		return usageErr(err)
	}
	if f.maxCandidates < 0 {
		return usageErr(fmt.Errorf("--max-candidates: %d (want 0 for the default, or more)", f.maxCandidates))
	}
	if err := absPaths(&file, &f.out, &f.backend.kubeconfig); err != nil {
		return usageErr(err)
	}
	if err := absList(f.traces); err != nil {
		return usageErr(err)
	}
	spec, ds := load.Load(file, f.backend.loadOptions(f.includes))
	if ds.HasErrors() {
		return g.failDiags(ds)
	}
	if err := g.printDiags(ds); err != nil {
		return infraErr(err)
	}
	var refs []*trace.Trace
	for _, p := range f.traces {
		tr, err := trace.Read(p)
		if err != nil {
			return usageErr(err)
		}
		refs = append(refs, tr)
	}
	var first *trace.Trace
	if len(refs) > 0 {
		first = refs[0]
	}
	t, d := load.SelectTest(spec, planTestName(f.test, first, spec))
	if d != nil {
		return g.failDiags(diag.Diagnostics{d})
	}
	if err := sameWorkload(refs, f.traces, t, filepath.Dir(file)); err != nil {
		return usageErr(err)
	}
	if f.out != "" {
		if err := (results.Layout{Root: f.out}).Take(f.force); err != nil {
			return resultsErr("--out", f.out, err)
		}
	}
	if refs == nil {
		var err error
		if refs, err = f.record(ctx, g, file, t); err != nil {
			return err
		}
	}
	set, err := pipeline.Plans(pipeline.Env{}, t, refs, pipeline.Selection{Pattern: ir.Pattern(f.pattern), MaxCandidates: f.maxCandidates})
	if err != nil {
		return usageErr(err)
	}
	if f.out != "" {
		if err := results.WritePlanSet(results.Layout{Root: f.out}, set); err != nil {
			return resultsErr("--out", f.out, err)
		}
	}
	return printPlans(g, f, set)
}

// record records (or reuses) the test's reference runs and returns their
// traces. They are kept under --out, else in a temporary directory
// removed afterwards; the directory is locked meanwhile, as sieve record
// locks its own, and takes the client libraries' log lines.
func (f *planFlags) record(ctx context.Context, g *globals, file string, t *ir.Test) ([]*trace.Trace, error) {
	g.interruptible()
	out := f.out
	if out == "" {
		dir, err := os.MkdirTemp("", "sieve-plan-")
		if err != nil {
			return nil, infraErr(err)
		}
		defer os.RemoveAll(dir)
		out = dir
	}
	unlock, err := lockResults(out) // and the client libraries' log lines go to its client.log
	if err != nil {
		return nil, err
	}
	defer unlock()
	rf := &recordFlags{noCache: f.noCache, backend: f.backend}
	refs, err := recordOne(ctx, g, rf, file, t, out)
	if err != nil {
		if ctx.Err() != nil {
			return nil, interruptedErr(ctx)
		}
		return nil, g.testErr(t, err)
	}
	return refs.Traces, nil
}

// sameWorkload refuses a --trace file recorded for another controller or
// workload than test t's: a trace serves any test whose controller and
// workloads are the same (by content, pipeline.WorkloadHash), a sibling
// test's too. A trace that does not say its workload (recorded before
// headers carried it) serves only the test it was recorded for.
func sameWorkload(refs []*trace.Trace, files []string, t *ir.Test, baseDir string) error {
	want, err := pipeline.WorkloadHash(t, baseDir)
	if err != nil {
		return err
	}
	for i, tr := range refs {
		h := tr.Header
		switch {
		case h.Workload == "" && h.Test != "" && h.Test != t.Name:
			return fmt.Errorf("--trace %s: a reference run of test %s, not of %s, that does not say its workload (record it again, or pass --test %s)",
				files[i], h.Test, t.Name, h.Test)
		case h.Workload != "" && h.Workload != want && h.Test == t.Name:
			return fmt.Errorf("--trace %s: a reference run of test %s with other controller or workloads than the spec now gives it (record its reference runs again)",
				files[i], h.Test)
		case h.Workload != "" && h.Workload != want:
			return fmt.Errorf("--trace %s: a reference run of test %s, whose controller or workloads differ from those of %s (record %s's reference runs, or pass --test %s)",
				files[i], h.Test, t.Name, t.Name, h.Test)
		}
	}
	return nil
}

// checkPattern validates --pattern.
func checkPattern(p string) error {
	if err := pipeline.CheckPattern(ir.Pattern(p)); err != nil {
		return fmt.Errorf("--pattern: %w", err)
	}
	return nil
}

// planTestName picks the test: --test, else the trace's, else the spec's
// only test.
func planTestName(flag string, tr *trace.Trace, spec *ir.Spec) string {
	switch {
	case flag != "":
		return flag
	case tr != nil && tr.Header.Test != "":
		return tr.Header.Test
	case len(spec.Tests) == 1:
		return spec.Tests[0].Name
	}
	return ""
}

// printPlans prints the set: JSON, or the counts table and the names (only
// the names with -q).
func printPlans(g *globals, f *planFlags, set *plan.Set) error {
	if g.output == "json" {
		out := *set
		if !f.explain {
			out.Candidates = nil
		}
		enc := json.NewEncoder(g.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(&out)
	}
	if !g.quiet {
		if err := plan.WriteCounts(g.stdout, set.Counts); err != nil {
			return infraErr(err)
		}
		fmt.Fprintln(g.stdout)
		for _, line := range append(plan.NoPlans(set.Counts), plan.MergeNotes(set.Operations)...) {
			fmt.Fprintf(g.stderr, "sieve: %s\n", line)
		}
	}
	if f.explain {
		if err := plan.WriteExplain(g.stdout, set.Candidates); err != nil {
			return infraErr(err)
		}
		return nil
	}
	if f.sieve {
		return printSievePlans(g, set)
	}
	for _, p := range set.Plans {
		fmt.Fprintln(g.stdout, p.Name)
	}
	if f.out != "" && !g.quiet {
		fmt.Fprintf(g.stderr, "wrote %d plans to %s\n", len(set.Plans), f.out)
	}
	return nil
}

// printSievePlans prints each plan as a .sieve plan declaration, named
// after the plan (an identifier: dashes and dots become underscores), with
// a comment naming the plan and where it came from; a plan the language
// cannot say (an apierror plan's error action) is a comment that says why.
func printSievePlans(g *globals, set *plan.Set) error {
	for _, p := range set.Plans {
		text, err := p.Sieve(sieveIdent(p.Name), fmt.Sprintf("%s (%s, %s)", p.Name, p.Pattern, p.Policy))
		if err != nil {
			fmt.Fprintf(g.stdout, "// %s (%s, %s): no .sieve form: %v\n\n", p.Name, p.Pattern, p.Policy, err)
			continue
		}
		fmt.Fprintln(g.stdout, text)
	}
	return nil
}

// sieveIdent turns a plan name into an identifier.
func sieveIdent(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, name)
}
