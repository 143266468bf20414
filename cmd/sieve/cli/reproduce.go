package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/ir"
)

// reproduceFlags are the flags of `sieve reproduce`.
type reproduceFlags struct {
	includes []string
	spec     string
	backend  backendFlags
}

func newReproduceCmd(g *globals) *cobra.Command {
	f := &reproduceFlags{}
	cmd := &cobra.Command{
		Use:   "reproduce RESULTS/plans/PLAN",
		Short: "Run one plan of a results directory again and say whether its findings reproduce",
		Long: "Reproduce reruns one plan that `sieve run` wrote, against the reference runs of\n" +
			"the same results directory (they are not recorded again), and says for each of\n" +
			"the plan's findings whether the rerun found it again (same check, object and\n" +
			"field). A plan from a checkpoint (sieve run --reuse-prefix) is judged against\n" +
			"the suffix references of the same results directory, its prefix replayed and the\n" +
			"checkpoint taken again. The rerun goes into RESULTS/reproduce/PLAN-N; the\n" +
			"original results are left as they are. The spec and test come from\n" +
			"RESULTS/summary.json (--spec overrides the spec file when the results were\n" +
			"moved). Exit status: 1 a finding reproduced (or, for a plan without findings,\n" +
			"the rerun found one), 0 none did, 2 spec or usage errors, 3 infrastructure\n" +
			"errors, 128 + the signal's number interrupted (130 Ctrl-C, 143 SIGTERM).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReproduce(cmd.Context(), g, f, args[0])
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	fl.StringVar(&f.spec, "spec", "", "the spec `FILE` (default: the one in RESULTS/summary.json)")
	f.backend.register(cmd)
	return cmd
}

func runReproduce(ctx context.Context, g *globals, f *reproduceFlags, planDir string) error {
	if err := f.backend.check(); err != nil {
		return usageErr(err)
	}
	orig, err := results.ReadPlanRun(planDir)
	if err != nil {
		return usageErr(err)
	}
	if cp := orig.Plan.Checkpoint; cp != nil && orig.Layout.Suffix(cp.After).References() == 0 {
		return usageErr(fmt.Errorf("plan %s: it runs from the checkpoint after explored operation %d, and %s holds no suffix references there (%s: run the test again with --reuse-prefix)",
			orig.Plan.Name, cp.After, orig.Layout.Root, orig.Layout.Suffix(cp.After).ReferenceTrace(1)))
	}
	spec := orig.Run.Spec // absolute, unless sieve run was older than this rule
	if f.spec != "" {
		spec = f.spec
	}
	if err := absPaths(&spec, &orig.Layout.Root, &f.backend.kubeconfig); err != nil {
		return usageErr(err)
	}
	if _, err := os.Stat(spec); err != nil {
		return usageErr(fmt.Errorf("spec %s: %w (run from the directory sieve run ran in, or give --spec FILE)", spec, err))
	}
	tests, err := loadTests(g, spec, f.backend.loadOptions(f.includes), []string{orig.Run.Test})
	if err != nil {
		return err
	}
	g.interruptible()
	unlock, err := lockResults(orig.Layout.Root)
	if err != nil {
		return err
	}
	defer unlock()
	out, err := orig.Layout.NewReproduceDir(orig.Plan.Name)
	if err != nil {
		return resultsErr("", orig.Layout.Root, err)
	}
	res, err := rerun(ctx, g, f, spec, tests[0], orig, out)
	if ctx.Err() != nil {
		g.note("interrupted: the plan did not finish")
		return interruptedErr(ctx)
	}
	if err != nil {
		return infraErr(err)
	}
	return verdict(g, orig, res, out)
}

// rerun runs the plan again on a fresh backend, reusing the references.
func rerun(ctx context.Context, g *globals, f *reproduceFlags, spec string, t *ir.Test, orig *results.PlanRun, out string) (*results.Result, error) {
	g.note("reproducing %s of test %s into %s", orig.Plan.Name, t.Name, out)
	workers, stopBackends, err := f.backend.workers(ctx, t, 1)
	defer func() {
		if err := stopBackends(); err != nil {
			g.note("stopping control planes: %v", err)
		}
	}()
	if err != nil {
		return nil, err
	}
	env := pipeline.Env{Spec: spec, BaseDir: filepath.Dir(spec), Workers: workers, Progress: g.progress()}
	l := results.Layout{Root: out}
	run, refs, err := references(ctx, env, t, l, pipeline.RefOptions{From: orig.Layout.Root})
	if err != nil {
		return nil, err
	}
	if cp := orig.Plan.Checkpoint; cp != nil {
		// The plan runs from the checkpoint, taken again here, against
		// the original run's suffix references.
		if err := pipeline.ReuseSuffix(refs, orig.Layout, l, cp.After); err != nil {
			return nil, err
		}
	}
	run.Planned = 1
	if err := results.WriteRun(l, run); err != nil {
		return nil, err
	}
	results, err := pipeline.RunPlans(ctx, env, refs, []*planfile.Plan{orig.Plan}, l, pipeline.RunOptions{})
	if err != nil {
		return nil, err
	}
	if len(results) != 1 {
		return nil, fmt.Errorf("plan %s: no result", orig.Plan.Name)
	}
	return results[0], pipeline.Finish(l, run)
}

// verdict prints, for each original finding, whether the rerun found it
// again, then the rerun's new findings, and returns the exit status.
func verdict(g *globals, orig *results.PlanRun, res *results.Result, out string) error {
	again := map[oracle.Identity]bool{}
	for _, f := range res.Findings {
		again[f.Identity()] = true
	}
	w := g.stdout
	fmt.Fprintf(w, "plan %s: rerun %s (%s, %.1fs)\n", orig.Plan.Name, res.Status, relPath(out), res.Seconds)
	if res.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", res.Error)
	}
	if res.NotFired != nil {
		fmt.Fprintf(w, "  nothing was tested: %s\n", res.NotFired)
	}
	if res.Unreleased != nil {
		fmt.Fprintf(w, "  the release never came: %s\n", res.Unreleased)
	}
	reproduced, seen := 0, map[oracle.Identity]bool{}
	if orig.Result == nil {
		fmt.Fprintf(w, "  the original run of this plan did not finish: nothing to compare with\n")
	} else {
		for _, f := range append(slices.Clip(orig.Result.Findings), orig.Result.Unconfirmed...) {
			seen[f.Identity()] = true
			if again[f.Identity()] {
				reproduced++
				fmt.Fprintf(w, "  reproduced:     %s\n", f.Message)
			} else {
				fmt.Fprintf(w, "  not reproduced: %s\n", f.Message)
			}
		}
	}
	for _, f := range res.Findings {
		if !seen[f.Identity()] {
			fmt.Fprintf(w, "  new:            %s\n", f.Message)
		}
	}
	return reproduceExit(orig, res, reproduced)
}

func reproduceExit(orig *results.PlanRun, res *results.Result, reproduced int) error {
	switch {
	case res.Status == results.Errored:
		return printedErr(exitInfra)
	case reproduced > 0:
		return printedErr(exitFindings)
	case (orig.Result == nil || len(orig.Result.Findings) == 0) && len(res.Findings) > 0:
		return printedErr(exitFindings)
	}
	return nil
}
