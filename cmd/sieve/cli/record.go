package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/ir"
)

// recordFlags are the flags of `sieve record`.
type recordFlags struct {
	includes []string
	tests    []string
	runs     int
	out      string
	force    bool
	noCache  bool
	backend  backendFlags
}

func newRecordCmd(g *globals) *cobra.Command {
	f := &recordFlags{}
	cmd := &cobra.Command{
		Use:   "record SPEC [--test NAME] [--runs N]",
		Short: "Record the fault-free reference runs of a test and learn what differs between them",
		Long: "Record runs each test's workloads without any fault, --runs times (default: the\n" +
			"test's runs, 2 unless the spec says otherwise), and writes the traces and the\n" +
			"masks learned from what differs between the runs. The masks are a .sieve file\n" +
			"(learned.sieve, a mask named \"learned\") to review, commit and import into the\n" +
			"spec. Reference runs are cached in the user cache directory (sieve/references),\n" +
			"keyed by the test, the files it reads, the controller binary and the sieve build,\n" +
			"and sieve run and record reuse them; --no-cache records them anew.\n" +
			"Exit status: 0 recorded, 2 spec or usage errors, 3 infrastructure errors,\n" +
			"128 + the signal's number interrupted (130 Ctrl-C, 143 SIGTERM).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRecord(cmd.Context(), g, f, args[0]) },
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.includes, "include", "I", nil, includeUsage)
	fl.StringArrayVar(&f.tests, "test", nil, "record only the test `NAME` (repeatable; default every test)")
	fl.IntVar(&f.runs, "runs", 0, "record `N` reference runs (default: the test's runs)")
	fl.StringVarP(&f.out, "out", "o", "sieve-record", "the output `DIR`")
	fl.BoolVar(&f.force, "force", false, forceUsage)
	fl.BoolVar(&f.noCache, "no-cache", false, "record the reference runs anew and leave the reference cache alone")
	f.backend.register(cmd)
	return cmd
}

func runRecord(ctx context.Context, g *globals, f *recordFlags, file string) error {
	if f.runs < 0 {
		return usageErr(fmt.Errorf("--runs: %d (want 1 or more)", f.runs))
	}
	if err := f.backend.check(); err != nil {
		return usageErr(err)
	}
	if err := absPaths(&file, &f.out, &f.backend.kubeconfig); err != nil {
		return usageErr(err)
	}
	tests, err := loadTests(g, file, f.backend.loadOptions(f.includes), f.tests)
	if err != nil {
		return err
	}
	g.interruptible()
	unlock, err := takeResults("-o", f.out, f.force, tests)
	if err != nil {
		return err
	}
	defer unlock()
	for _, t := range tests {
		if f.runs > 0 {
			cp := *t
			cp.Runs = f.runs
			t = &cp
		}
		out := testDir(f.out, t, len(tests))
		if _, err := recordOne(ctx, g, f, file, t, out); err != nil {
			if ctx.Err() != nil {
				g.note("interrupted: nothing complete was recorded for test %s", t.Name)
				return interruptedErr(ctx)
			}
			return g.testErr(t, err)
		}
		printRecorded(g, t, out)
	}
	return nil
}

// recordOne records one test's reference runs on a fresh backend into
// the results directory out, and returns them.
func recordOne(ctx context.Context, g *globals, f *recordFlags, file string, t *ir.Test, out string) (*pipeline.Refs, error) {
	g.note("test %s: starting a control plane (%s)", t.Name, f.backend.backend)
	workers, stopBackends, err := f.backend.workers(ctx, t, 1)
	defer func() {
		if err := stopBackends(); err != nil {
			g.note("stopping control planes: %v", err)
		}
	}()
	if err != nil {
		return nil, err
	}
	env := pipeline.Env{Spec: file, BaseDir: filepath.Dir(file), Workers: workers, Progress: g.progress()}
	l := results.Layout{Root: out}
	run, refs, err := references(ctx, env, t, l, pipeline.RefOptions{Cache: cacheFor(f.noCache)})
	if err != nil {
		return nil, err
	}
	return refs, pipeline.Finish(l, run)
}

// references starts the results directory out and records the test's
// reference runs into it (or reuses them, opts): the stages sieve record,
// plan and reproduce begin with.
func references(ctx context.Context, env pipeline.Env, t *ir.Test, out results.Layout, opts pipeline.RefOptions) (*results.TestRun, *pipeline.Refs, error) {
	run, err := pipeline.Start(out, env, t, opts, pipeline.Shard{})
	if err != nil {
		return nil, nil, err
	}
	refs, err := pipeline.References(ctx, env, t, out, opts)
	if refs != nil {
		run.ReferenceRuns = refs.Timings
	}
	return run, refs, err
}

// cacheFor is the reference cache, or nil with --no-cache.
func cacheFor(noCache bool) *pipeline.Cache {
	if noCache {
		return nil
	}
	return &pipeline.Cache{}
}

// printRecorded tells where the traces and the learned masks are.
func printRecorded(g *globals, t *ir.Test, out string) {
	l := results.Layout{Root: relPath(out)}
	n := results.Layout{Root: out}.References()
	fmt.Fprintf(g.stdout, "test %s: %d reference runs\n", t.Name, n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(g.stdout, "  trace:   %s\n", l.ReferenceTrace(i))
	}
	fmt.Fprintf(g.stdout, "  masks:   %s\n", l.Learned())
	fmt.Fprintf(g.stdout, "  to use the masks: review the file, copy it next to the spec, add `import \"./%s\"`\n", results.LearnedFile)
	fmt.Fprintf(g.stdout, "  and learned.learned to the test's masks\n")
}
