package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	sievecluster "github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
	"github.com/sievetool/sieve/lang/ir"
)

// suffixSpec and suffixTest name the explored workload whose suffix
// TestSuffixReplay replays by default: the datastore example's three
// operations.
const (
	suffixSpec = "../../specs/testdata/datastore_explore_e2e.sieve"
	suffixTest = "explored"
)

// TestSuffixReplay measures whether the operations after a checkpoint
// replay the same way (docs/explore.md, "What a sound reuse would take").
// It records an explored test's whole workload SIEVE_SUFFIX_WHOLE times
// (default 2), then its prefix up to operation K (SIEVE_SUFFIX_AFTER,
// default 1) once, takes a checkpoint (embedded.Cluster.Snapshot), and
// SIEVE_SUFFIX_RUNS times resets to it, starts the controller afresh and
// runs operations K+1 to the end. The test is suffixTest of suffixSpec, or
// SIEVE_SUFFIX_TEST of SIEVE_SUFFIX_SPEC (relative to this directory). It
// fails when the suffix runs differ in what the differential oracle
// compares (end states, creations and deletions per object), under the
// spec's masks and those learned from the whole runs, or when a suffix run
// ends otherwise than the whole runs; it logs what differs and where the
// time went. SIEVE_SUFFIX_DIR keeps the runs' directories. A measurement
// of some minutes, not a check of the suite: it runs only with
// SIEVE_SUFFIX_RUNS set.
func TestSuffixReplay(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SIEVE_SUFFIX_RUNS"))
	if n < 2 {
		t.Skip("a measurement of some minutes: set SIEVE_SUFFIX_RUNS=N (at least 2) to run it")
	}
	after, _ := strconv.Atoi(envOr("SIEVE_SUFFIX_AFTER", "1"))
	wholes, _ := strconv.Atoi(envOr("SIEVE_SUFFIX_WHOLE", "2"))
	spec, name := envOr("SIEVE_SUFFIX_SPEC", suffixSpec), envOr("SIEVE_SUFFIX_TEST", suffixTest)
	test := sessiontest.LoadTest(t, spec, name)
	prefix, suffix, err := pipeline.SplitAfter(test, after)
	if err != nil {
		t.Fatal(err)
	}
	b := cluster(t)
	w := &session.Worker{Backend: b}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	dir := envOr("SIEVE_SUFFIX_DIR", t.TempDir())
	var cp sievecluster.Checkpoint // nil: runs from the start
	run := func(name string, tt *ir.Test) (*trace.Trace, results.Timing) {
		t.Helper()
		return suffixRun(ctx, t, w, tt, cp, spec, filepath.Join(dir, name))
	}
	var full []*trace.Trace
	var fullTimes []results.Timing
	for i := range max(wholes, 1) {
		tr, tm := run(fmt.Sprintf("full-%d", i+1), test)
		full, fullTimes = append(full, tr), append(fullTimes, tm)
	}
	prefixTrace, prefixTime := run("prefix", prefix)
	start := time.Now()
	if cp, err = b.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("snapshot after operation %d: %v", after, time.Since(start).Round(time.Millisecond))
	var suffixes []*trace.Trace
	var suffixTimes []results.Timing
	for i := range n {
		tr, tm := run(fmt.Sprintf("suffix-%d", i+1), suffix)
		suffixes, suffixTimes = append(suffixes, tr), append(suffixTimes, tm)
	}
	logTimes(t, "whole runs", fullTimes)
	logTimes(t, fmt.Sprintf("prefix (operations 1 to %d)", after), []results.Timing{prefixTime})
	logTimes(t, fmt.Sprintf("suffix runs (operations %d to the end)", after+1), suffixTimes)
	compareSuffixes(t, test, full, suffixes, prefixTrace)
}

// suffixRun runs tt on w in dir, from checkpoint from (nil: the start),
// and returns its trace and timing; a failed workload step fails the
// test.
func suffixRun(ctx context.Context, t *testing.T, w *session.Worker, tt *ir.Test, from sievecluster.Checkpoint, spec, dir string) (*trace.Trace, results.Timing) {
	t.Helper()
	out, err := w.Execute(ctx, session.Run{Test: tt, BaseDir: filepath.Dir(spec), Dir: dir, From: from,
		Header: trace.Header{Test: tt.Name, Spec: spec}})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(dir), err)
	}
	if out.WorkloadErr != nil {
		t.Fatalf("%s: %v", filepath.Base(dir), out.WorkloadErr)
	}
	tr, err := trace.Read(out.Trace)
	if err != nil {
		t.Fatal(err)
	}
	return tr, out.Timing()
}

// logTimes logs the mean seconds of runs' phases, by phase.
func logTimes(t *testing.T, what string, runs []results.Timing) {
	t.Helper()
	sums := results.SumPhases(runs)
	var parts []string
	total := 0.0
	for _, p := range []string{results.PhaseReset, results.PhaseSetup, results.PhaseStart, "apply", "patch", results.PhaseSettle, results.PhaseStop} {
		if s, ok := sums[p]; ok {
			parts = append(parts, fmt.Sprintf("%s %.2fs", p, s/float64(len(runs))))
		}
	}
	for _, s := range sums {
		total += s
	}
	t.Logf("%s (%d): %.1fs each: %s", what, len(runs), total/float64(len(runs)), strings.Join(parts, ", "))
}

// compareSuffixes checks that the suffix runs agree with each other, and
// end as the whole runs do, under test's masks and those learned from
// the whole runs. It logs how the prefix run ends otherwise than the
// whole runs: what the comparison sees of the operations after K.
func compareSuffixes(t *testing.T, test *ir.Test, full, suffixes []*trace.Trace, prefix *trace.Trace) {
	t.Helper()
	masks, err := pipeline.Masks(test)
	if err != nil {
		t.Fatal(err)
	}
	opts := oracle.Options{Masks: masks.Oracle}
	learned, err := oracle.Learn(full, opts)
	if err != nil {
		t.Fatal(err)
	}
	logRules(t, "the whole runs differ (learned masks)", learned)
	amongSuffixes, err := oracle.Learn(suffixes, opts)
	if err != nil {
		t.Fatal(err)
	}
	logRules(t, "the suffix runs differ", amongSuffixes)
	withLearned := oracle.Options{Masks: append(masks.Oracle, &ir.Mask{Name: "learned", Rules: learned}), NoLearn: true}
	first, err := oracle.New(suffixes[:1], withLearned)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := oracle.New(full[:1], withLearned)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := whole.Check(prefix)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if endCheck(f.Check) {
			t.Logf("the prefix run against the whole run: %s", f.Message)
		}
	}
	for i, s := range suffixes {
		if i > 0 {
			fs, err := first.Check(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				t.Errorf("suffix run %d against suffix run 1: %s", i+1, f.Message)
			}
		}
		fs, err := whole.Check(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if endCheck(f.Check) {
				t.Errorf("suffix run %d against the whole run: %s", i+1, f.Message)
			} else {
				t.Logf("suffix run %d against the whole run (history, expected: the suffix has not the prefix's): %s", i+1, f.Message)
			}
		}
	}
}

// endCheck reports whether check compares end states.
func endCheck(c oracle.Check) bool {
	switch c {
	case oracle.CheckMissing, oracle.CheckExtra, oracle.CheckField:
		return true
	}
	return false
}

func logRules(t *testing.T, what string, rules []*ir.MaskRule) {
	t.Helper()
	if len(rules) == 0 {
		t.Logf("%s: in nothing", what)
		return
	}
	b, err := oracle.FormatMask("differ", nil, rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s in:\n%s", what, b)
}

// envOr is the value of environment variable name, or def if it is empty.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// reuseSpec is the explored test TestReusePrefix runs: the settings
// controller's replicas, four operations, the intermediate pattern.
const reuseSpec = "../../specs/testdata/settings_suffix_e2e.sieve"

// reuseEnv names the variable that runs TestReusePrefix.
const reuseEnv = "SIEVE_REUSE_PREFIX_TEST"

// TestReusePrefix runs an explored test with Options.ReusePrefix and
// without. With it, the suffix stage takes a checkpoint after an
// operation, records two suffix references from it (each trace starts
// with the controller's start and the next operation's patch, none of the
// seed), and runs that operation's plans from there, each naming its
// checkpoint; one of them runs again as sieve reproduce runs it. Without
// it, every plan runs from the start. Both runs come to the same
// verdicts: the same statuses, and the same findings.
func TestReusePrefix(t *testing.T) {
	// --reuse-prefix is off by default and, on the examples, no faster
	// (docs/explore.md): its two runs of some 15 plans, some 200 s, are
	// left out of the suite.
	if os.Getenv(reuseEnv) == "" {
		t.Skipf("two runs of an explored test's plans (minutes): set %s=1 to run it", reuseEnv)
	}
	test := sessiontest.LoadTest(t, reuseSpec, "fixed")
	env := pipeline.Env{Spec: reuseSpec, BaseDir: filepath.Dir(reuseSpec), Workers: []*session.Worker{{Backend: cluster(t)}}, Progress: logWriter{t}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	run := func(reuse bool) (*pipeline.TestOutcome, results.Layout) {
		out := results.Layout{Root: t.TempDir()}
		o, err := pipeline.Test(ctx, env, test, out, pipeline.Options{ReusePrefix: reuse, Run: pipeline.RunOptions{Confirm: 1}})
		if err != nil {
			t.Fatalf("reuse-prefix %v: %v", reuse, err)
		}
		return o, out
	}
	with, out := run(true)
	c := with.Suffix
	if c == nil || len(c.After) == 0 || c.References != 2*len(c.After) || c.Plans == 0 || c.Runs <= c.Replays {
		t.Fatalf("suffix stage: %v, want checkpoints, two suffix references each, plans from them and replays saved", c)
	}
	t.Log(c)
	for _, k := range c.After {
		assertSuffixTrace(t, out.Suffix(k).ReferenceTrace(1), k)
	}
	fromCheckpoint := 0
	for _, p := range with.Plans {
		if p.Checkpoint != nil {
			fromCheckpoint++
		}
	}
	if fromCheckpoint != c.Plans {
		t.Errorf("%d plans name a checkpoint, want %d", fromCheckpoint, c.Plans)
	}
	reproduceFromCheckpoint(ctx, t, env, test, out, with.Plans)
	without, _ := run(false)
	if without.Suffix != nil {
		t.Errorf("without ReusePrefix: suffix stage %v", without.Suffix)
	}
	if got, want := verdicts(with.Results), verdicts(without.Results); got != want {
		t.Errorf("verdicts from checkpoints:\n%s\nwant those from the start:\n%s", got, want)
	}
}

// reproduceFromCheckpoint runs the first of plans that names a
// checkpoint again, as sieve reproduce does: the reference runs and suffix
// references of out reused (RefOptions.From, ReuseSuffix), the checkpoint
// taken again. The plan passes again, its run from the checkpoint.
func reproduceFromCheckpoint(ctx context.Context, t *testing.T, env pipeline.Env, test *ir.Test, out results.Layout, plans []*planfile.Plan) {
	t.Helper()
	i := slices.IndexFunc(plans, func(p *planfile.Plan) bool { return p.Checkpoint != nil })
	if i < 0 {
		t.Fatal("no plan from a checkpoint")
	}
	p := plans[i]
	again := results.Layout{Root: t.TempDir()}
	refs, err := pipeline.References(ctx, env, test, again, pipeline.RefOptions{From: out.Root})
	if err != nil {
		t.Fatal(err)
	}
	if err := pipeline.ReuseSuffix(refs, out, again, p.Checkpoint.After); err != nil {
		t.Fatal(err)
	}
	rs, err := pipeline.RunPlans(ctx, env, refs, []*planfile.Plan{p}, again, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Status != results.Passed {
		t.Fatalf("plan %s reproduced: %+v, want passed", p.Name, rs)
	}
	assertSuffixTrace(t, filepath.Join(again.PlanDir(p.Name), results.TraceFile), p.Checkpoint.After)
}

// assertSuffixTrace checks that the run in file (a suffix reference, or a
// plan's) starts from the checkpoint after operation k: its first
// workload step is operation k+1's patch, after the controller's start.
func assertSuffixTrace(t *testing.T, file string, k int) {
	t.Helper()
	tr, err := trace.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	started := false
	for _, e := range tr.Entries {
		switch {
		case e.Type == trace.Controller && e.What == "start":
			started = true
		case e.Type == trace.Step:
			if e.What != "patch" || !started {
				t.Errorf("suffix reference after operation %d: first step %s (controller started: %v), want operation %d's patch after the controller's start", k, e.What, started, k+1)
			}
			return
		}
	}
	t.Errorf("suffix reference after operation %d: no step", k)
}

// verdicts lists the results' statuses by pattern, counted, and their
// findings, each once: what two runs of the same plans agree on whatever
// their plans are named. A flaky plan, whose findings no rerun found
// again, counts as passed, as it does in the exit status (one plan of 15
// was flaky in one run of the test).
func verdicts(rs []*results.Result) string {
	count := map[string]int{}
	findings := map[string]bool{}
	for _, r := range rs {
		status := r.Status
		if status == results.Flaky {
			status = results.Passed
		}
		count[r.Pattern+" "+string(status)]++
		for _, f := range r.Findings {
			findings[fmt.Sprintf("%s %s %s", f.Check, f.Key, f.Path)] = true
		}
	}
	var lines []string
	for k, n := range count {
		lines = append(lines, fmt.Sprintf("%s: %d", k, n))
	}
	for f := range findings {
		lines = append(lines, "finding "+f)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
