package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// runFlags are the flags of `sieve run`.
type runFlags struct {
	includes []string
	tests    []string
	pattern  string
	parallel int
	maxPlans int
	// maxCandidates bounds each pattern's candidates before pruning
	// (0: plan.DefaultMaxCandidates).
	maxCandidates int
	shard         string         // --shard as given
	part          pipeline.Shard // and as check parsed it
	confirm       int
	reusePrefix   bool
	out           string
	force         bool
	noCache       bool
	report        reportFlags
	backend       backendFlags
	// refsFrom and binary are for a campaign's workers (sieve internal
	// worker): the campaign's reference runs, and the controller its
	// image carries.
	refsFrom string
	binary   string
	cluster  clusterFlags
}

func newRunCmd(g *globals) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run SPEC [--test NAME]",
		Short: "Run the whole pipeline: record, generate and prune plans, inject, compare, report",
		Long: "Run records fault-free reference runs of each test, learns what differs between\n" +
			"them, generates and prunes the fault plans its policies ask for, runs each plan\n" +
			"with its fault injected, and compares every run with the reference. Results are\n" +
			"written to the results directory as each plan finishes. A plan that fails is run\n" +
			"again (--confirm): a finding that no rerun finds again is reported as unconfirmed\n" +
			"and does not count, and a plan left with none is flaky. Ctrl-C (SIGINT, SIGTERM,\n" +
			"SIGHUP, SIGQUIT, or SIGPIPE from a closed output) stops cleanly at any moment,\n" +
			"removes what the run made and reports the plans that finished. Exit status: 0 no\n" +
			"findings, 1 findings, 2 spec or usage errors, 3 infrastructure errors, 128 + the\n" +
			"signal's number interrupted without findings (130 Ctrl-C, 143 SIGTERM).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd.Context(), g, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	fl.StringArrayVar(&f.tests, "test", nil, "run only the test `NAME` (repeatable; default every test)")
	fl.StringVar(&f.pattern, "pattern", "", "only plans of `PATTERN`: intermediate, stale, unobserved, apierror, appfault or user; explore: only the explored workload's results")
	fl.IntVar(&f.parallel, "parallel", 0, "run `N` plans at once, each on its own control plane (0, the default: on the embedded backend, one per processor up to 4; otherwise 1); at most what the machine holds and the number of plans")
	fl.IntVar(&f.maxPlans, "max-plans", 0, "run at most `N` plans per test, spread over all of them")
	fl.IntVar(&f.maxCandidates, "max-candidates", 0, maxCandidatesUsage())
	fl.StringVar(&f.shard, "shard", "", "run only part `I/N` of each test's plans, to split a run across N CI jobs (a plan's part comes from its name)")
	fl.IntVar(&f.confirm, "confirm", 1, "run a failed plan up to `N` more times; a finding no rerun finds again is reported as unconfirmed and does not count (0: every finding counts)")
	fl.BoolVar(&f.reusePrefix, "reuse-prefix", false, "run the plans of an explored operation that has several from a checkpoint after the operation before it, judged against suffix references recorded from there, instead of replaying the operations before it (embedded backend; not with --shard or --max-plans)")
	fl.StringVarP(&f.out, "out", "o", "sieve-results", "the results `DIR`")
	fl.BoolVar(&f.force, "force", false, forceUsage)
	fl.BoolVar(&f.noCache, "no-cache", false, "record the reference runs anew and leave the reference cache alone")
	fl.StringVar(&f.report.junit, "junit", "", "also write JUnit XML to `FILE`")
	fl.StringVar(&f.report.html, "html", "", "also write an HTML report into `DIR`")
	fl.StringVar(&f.refsFrom, "references", "", "reuse the reference runs of the results `DIR` instead of recording them")
	fl.StringVar(&f.binary, "controller-binary", "", "run the controller `FILE` instead of building the test's Go package")
	_ = fl.MarkHidden("references")
	_ = fl.MarkHidden("controller-binary")
	f.backend.register(cmd)
	f.cluster.register(cmd)
	return cmd
}

func runRun(ctx context.Context, g *globals, f *runFlags, file string) error {
	if err := f.check(); err != nil {
		return usageErr(err)
	}
	if err := absPaths(&file, &f.out, &f.report.junit, &f.report.html, &f.backend.kubeconfig, &f.refsFrom, &f.binary); err != nil {
		return usageErr(err)
	}
	tests, err := loadTests(g, file, f.backend.loadOptions(f.includes), f.tests)
	if err != nil {
		return err
	}
	g.interruptible()
	if f.cluster.on != "" {
		return runOnCluster(ctx, g, f, file, tests)
	}
	unlock, err := takeResults("-o", f.out, f.force, tests)
	if err != nil {
		return err
	}
	defer unlock()
	var outcomes []*pipeline.TestOutcome
	for _, t := range tests {
		out := testDir(f.out, t, len(tests))
		o, err := runOne(ctx, g, f, file, t, out)
		if o != nil {
			outcomes = append(outcomes, o)
		}
		if err != nil && ctx.Err() == nil {
			return g.testErr(t, err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return finish(ctx, g, &f.report, f.out, outcomes)
}

func (f *runFlags) check() error {
	if err := checkPattern(f.pattern); err != nil {
		return err
	}
	if f.parallel < 0 {
		return fmt.Errorf("--parallel: %d (want 1 or more, or 0 for the default)", f.parallel)
	}
	if f.maxPlans < 0 {
		return fmt.Errorf("--max-plans: %d (want 0 for no cap, or more)", f.maxPlans)
	}
	if f.maxCandidates < 0 {
		return fmt.Errorf("--max-candidates: %d (want 0 for the default, or more)", f.maxCandidates)
	}
	if f.shard != "" {
		part, err := pipeline.ParseShard(f.shard)
		if err != nil {
			return fmt.Errorf("--shard: %w", err)
		}
		f.part = part
	}
	if err := f.checkReusePrefix(); err != nil {
		return err
	}
	if f.cluster.on != "" {
		// --kubeconfig and --context name the cluster the Job goes to;
		// the pods run their plans on the embedded backend.
		return f.cluster.check(f)
	}
	if err := f.cluster.check(f); err != nil {
		return err
	}
	if f.confirm < 0 {
		return fmt.Errorf("--confirm: %d (want 0 for no reruns, or more)", f.confirm)
	}
	return f.backend.check()
}

// checkReusePrefix says what --reuse-prefix does not go with: the plans
// from a checkpoint are generated again, after --shard and --max-plans
// would have chosen, and only the embedded backend takes checkpoints.
func (f *runFlags) checkReusePrefix() error {
	switch {
	case !f.reusePrefix:
		return nil
	case f.cluster.on != "":
		return fmt.Errorf("--reuse-prefix: not with --on (a campaign's workers run their plans from the start)")
	case f.shard != "" || f.maxPlans > 0:
		return fmt.Errorf("--reuse-prefix: not with --shard or --max-plans (the plans from a checkpoint are generated again, after they would choose)")
	case f.backend.backend != "" && f.backend.backend != "embedded":
		return fmt.Errorf("--reuse-prefix: the %s backend takes no checkpoints (use the embedded backend)", f.backend.backend)
	}
	return nil
}

// forceUsage is the help of --force, on the verbs that write a results
// directory.
const forceUsage = "take the results `DIR` even if it is not empty and sieve did not make it (sieve still removes only what its layout names there)"

// loadTests loads a spec and selects tests by name (all when none given).
func loadTests(g *globals, file string, opts load.Options, names []string) ([]*ir.Test, error) {
	spec, ds := load.Load(file, opts)
	if ds.HasErrors() {
		return nil, g.failDiags(ds)
	}
	if err := g.printDiags(ds); err != nil {
		return nil, infraErr(err)
	}
	if len(names) == 0 {
		if len(spec.Tests) == 0 {
			return nil, usageErr(fmt.Errorf("%s: the spec defines no test", file))
		}
		return spec.Tests, nil
	}
	var tests []*ir.Test
	for _, n := range names {
		t, d := load.SelectTest(spec, n)
		if d != nil {
			return nil, g.failDiags(diag.Diagnostics{d})
		}
		tests = append(tests, t)
	}
	return tests, nil
}

// testDir is a test's results directory: the results root itself for a
// single test, ROOT/<test> for several.
func testDir(root string, t *ir.Test, n int) string {
	if n == 1 {
		return root
	}
	return filepath.Join(root, results.SafeName(t.Name))
}

// workerCount is the number of plans to run at once
// (pipeline.WorkerCount); asking for more than is used says why.
func (f *runFlags) workerCount(g *globals) int {
	n, notes := pipeline.WorkerCount(f.backend.of(), f.parallel, f.maxPlans)
	for _, note := range notes {
		g.note("%s", note)
	}
	return n
}

// runOne runs one test's pipeline on fresh backends.
func runOne(ctx context.Context, g *globals, f *runFlags, file string, t *ir.Test, out string) (*pipeline.TestOutcome, error) {
	n := f.workerCount(g)
	g.note("test %s: starting %d %s control plane(s)", t.Name, n, f.backend.backend)
	workers, stopBackends, err := f.backend.workers(ctx, t, n)
	defer func() {
		if err := stopBackends(); err != nil {
			g.note("stopping control planes: %v", err)
		}
	}()
	if err != nil {
		return nil, err
	}
	disp := newProgress(g)
	defer disp.end()
	env := pipeline.Env{Spec: file, BaseDir: filepath.Dir(file), Workers: workers, Progress: disp}
	o := pipeline.Options{
		References: pipeline.RefOptions{Cache: cacheFor(f.noCache), From: f.refsFrom, Binary: f.binary},
		Select:     pipeline.Selection{Pattern: ir.Pattern(f.pattern), Shard: f.part, MaxPlans: f.maxPlans, MaxCandidates: f.maxCandidates},
		Run:        pipeline.RunOptions{Confirm: f.confirm, OnResult: disp.result},
		Planned: func(set *plan.Set) {
			for _, line := range plan.NoPlans(set.Counts) {
				fmt.Fprintf(disp, "test %s: %s\n", t.Name, line)
			}
			n := len(set.Plans)
			disp.planned(n)
			stopSpare(g, workers[min(max(n, 1), len(workers)):])
		},
		ReusePrefix: f.reusePrefix,
	}
	return pipeline.Test(ctx, env, t, results.Layout{Root: out}, o)
}

// finish prints the counts, timings and the summary of the results, and
// turns them into the exit status.
func finish(ctx context.Context, g *globals, rf *reportFlags, root string, outcomes []*pipeline.TestOutcome) error {
	pauseAt(ctx, g, "report")
	if g.output != "json" {
		for _, o := range outcomes {
			printStats(g.stdout, o)
		}
	}
	s, err := results.Load(relPath(root)) // reproduce commands as the user would type them
	if err != nil && ctx.Err() != nil {
		g.note("interrupted before any result was written")
		return interruptedErr(ctx)
	}
	if err != nil {
		return infraErr(err)
	}
	if err := writeReportFiles(g, rf, root, s); err != nil {
		return infraErr(err)
	}
	if err := printSummary(g, s); err != nil {
		return infraErr(err)
	}
	code := s.ExitCode()
	if ctx.Err() != nil {
		g.note("interrupted: the results of the finished plans are in %s", root)
		if code == exitOK {
			code = interruptCode(ctx)
		}
	}
	if code != exitOK {
		return printedErr(code)
	}
	return nil
}

// printStats prints the plan counts per pattern (generated, after each
// pruning pass, run), the median seconds per plan and where the runs'
// time went.
func printStats(w io.Writer, o *pipeline.TestOutcome) {
	if len(o.Counts) > 0 {
		fmt.Fprintln(w, "plans left after each pruning pass (-: does not apply, off: switched off):")
		_ = plan.WriteCounts(w, o.Counts)
	}
	ran := map[plan.Pattern]int{}
	for _, r := range o.Results {
		ran[plan.Pattern(r.Pattern)]++
	}
	var pats []string
	for p := range ran {
		pats = append(pats, string(p))
	}
	sort.Strings(pats)
	for _, p := range pats {
		fmt.Fprintf(w, "%s: %d plans run\n", p, ran[plan.Pattern(p)])
	}
	fmt.Fprintf(w, "%d reference runs, %d plans run, median %.1fs per plan\n", o.References, len(o.Results), median(seconds(o.Results)))
	report.WriteTimeWent(w, "plan", results.Timings(o.Results))
	report.WriteTimeWent(w, "reference run", o.ReferenceRuns)
	if o.Suffix != nil {
		fmt.Fprintln(w, o.Suffix)
	}
	printRetried(w, o.Results)
	fmt.Fprintln(w)
}

// printRetried says how many plans ran again on a new control plane, and
// why their first attempt proved nothing.
func printRetried(w io.Writer, rs []*results.Result) {
	var retried []*results.Result
	for _, r := range rs {
		if r.Retried != "" {
			retried = append(retried, r)
		}
	}
	if len(retried) == 0 {
		return
	}
	fmt.Fprintf(w, "%d plan(s) retried on a new control plane after an infrastructure failure:\n", len(retried))
	for _, r := range retried {
		why, _, _ := strings.Cut(r.Retried, "\n")
		fmt.Fprintf(w, "  %s: %s\n", r.Plan, why)
	}
}

// seconds are the durations of the plan runs.
func seconds(rs []*results.Result) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.Seconds
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// printSummary prints the results summary as JSON, or as text with the
// paths below the working directory relative to it (relText).
func printSummary(g *globals, s *results.Summary) error {
	if g.output == "json" {
		return report.JSON(g.stdout, s)
	}
	color := !g.noColor && os.Getenv("NO_COLOR") == "" && isTerminal(g.stdout)
	var b strings.Builder
	if err := report.Text(&b, s, report.TextOptions{Color: color, Verbose: g.verbose}); err != nil {
		return err
	}
	_, err := io.WriteString(g.stdout, relText(b.String()))
	return err
}

// note prints a progress line to stderr unless -q.
func (g *globals) note(format string, args ...any) {
	if !g.quiet {
		fmt.Fprint(g.stderr, termText(fmt.Sprintf("sieve: "+format+"\n", args...)))
	}
}

// progress is where pipeline progress goes: stderr, or nowhere with -q.
func (g *globals) progress() io.Writer {
	if g.quiet {
		return io.Discard
	}
	return prefixWriter{g.stderr}
}

// prefixWriter prefixes each write with "sieve: ", names the paths below
// the working directory relative to it and escapes control characters
// (termText).
type prefixWriter struct{ w io.Writer }

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, "sieve: "+termText(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// stopSpare stops the control planes of workers that no plan needs.
func stopSpare(g *globals, spare []*session.Worker) {
	for _, w := range spare {
		if err := w.Backend.Stop(); err != nil {
			g.note("stopping a spare control plane: %v", err)
		}
	}
}
