package sievetest

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// Run runs the tests of the spec file through record, plans, inject and
// compare, as sieve run does, and returns the results directory.
//
// Each plan is a subtest of t named by the plan's name (of several
// tests, a subtest per test holds them), so go test -run 'TestX/stale-.*'
// runs only those plans. A test whose workloads explore gets the Explore
// stage's two results too, as subtests before its plans (explored,
// explored-direct). A plan whose run found something fails with the
// findings; a plan whose fault never fired is skipped with the reason; a
// plan whose run could not be done fails saying so. In -short mode only
// the reference runs are made, and every plan is skipped. A spec that
// does not check, or whose fault-free run fails, fails t with its
// file:line:col diagnostics.
func Run(t *testing.T, file string, opts ...Option) string {
	t.Helper()
	c := newConfig(opts)
	if err := c.check(); err != nil {
		t.Fatalf("sievetest: %v", err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatalf("sievetest: %v", err)
	}
	tests := loadTests(t, abs, c)
	root := resultsDir(t, c)
	if len(tests) == 1 {
		runTest(t, c, abs, tests[0], take(t, root))
		return root
	}
	take(t, root)
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			runTest(t, c, abs, tt, take(t, filepath.Join(root, results.SafeName(tt.Name))))
		})
	}
	return root
}

// take makes dir a results directory of sieve's (results' Take: absent,
// empty or sieve's own); any other fails t, as sieve run refuses it.
func take(t *testing.T, dir string) results.Layout {
	t.Helper()
	l := results.Layout{Root: dir}
	if err := l.Take(false); err != nil {
		t.Fatalf("sievetest: %v", err)
	}
	return l
}

// loadTests loads the spec and picks the tests c names (all when none);
// the spec's diagnostics, or a name it lacks, fail t.
func loadTests(t *testing.T, file string, c *config) []*ir.Test {
	t.Helper()
	dirs := load.SearchPath(c.includes, os.Getenv("SIEVE_PATH"))
	spec, ds := load.Load(file, load.Options{SearchPath: dirs, Includes: c.includes})
	if ds.HasErrors() {
		t.Fatalf("sievetest: %s does not check:\n%s", relPath(file), diagText(ds))
	}
	if len(ds) > 0 {
		t.Logf("sievetest: %s:\n%s", relPath(file), diagText(ds))
	}
	if len(c.tests) == 0 {
		if len(spec.Tests) == 0 {
			t.Fatalf("sievetest: %s: the spec defines no test", relPath(file))
		}
		return spec.Tests
	}
	var tests []*ir.Test
	var missing diag.Diagnostics
	for _, name := range c.tests {
		tt, d := load.SelectTest(spec, name)
		if d != nil {
			missing = append(missing, d)
			continue
		}
		tests = append(tests, tt)
	}
	if len(missing) > 0 {
		t.Fatalf("sievetest: Test:\n%s", diagText(missing))
	}
	return tests
}

// diagText renders diagnostics as sieve check does, without colour, with
// paths relative to the working directory.
func diagText(ds diag.Diagnostics) string {
	wd, _ := os.Getwd()
	var b strings.Builder
	if err := diag.WriteText(&b, ds, diag.RenderOptions{WorkDir: wd, Source: load.Source}); err != nil {
		return ds.Error()
	}
	return strings.TrimRight(b.String(), "\n")
}

// relPath is path relative to the working directory when it is below it.
func relPath(path string) string {
	wd, _ := os.Getwd()
	return diag.RelPath(path, wd)
}

// runTest runs one test of the spec into out: the reference runs and
// plans, the Explore stage of a test that explores, then each plan as a
// subtest of t.
func runTest(t *testing.T, c *config, file string, tt *ir.Test, out results.Layout) {
	t.Helper()
	if tt.Controller.Kubeconfig.InCluster && !planes.sharing() {
		t.Fatalf("sievetest: test %s: controller %s runs in-cluster, which needs the helper sievetest.Main runs (add func TestMain(m *testing.M) { sievetest.Main(m) })", tt.Name, tt.Controller.Name)
	}
	n, notes := pipeline.WorkerCount(c.backend, c.parallel, c.maxPlans)
	for _, note := range notes {
		t.Logf("sievetest: %s", note)
	}
	if testing.Short() {
		n = 1 // the reference runs only
	}
	env, release := startEnv(t, c, file, tt, n)
	defer release()
	o := pipeline.Options{
		References: pipeline.RefOptions{Cache: cache(c)},
		Select:     pipeline.Selection{Pattern: ir.Pattern(c.pattern), MaxPlans: c.maxPlans},
		Run:        pipeline.RunOptions{Confirm: c.confirm},
	}
	p, err := pipeline.Prepare(t.Context(), env, tt, out, o)
	if err != nil {
		failPrepare(t, tt, err)
		return
	}
	if o.Select.Explores() {
		runExplore(t, env, p, out)
	}
	runPlans(t, env, p, out, o.Run)
	if err := pipeline.Finish(out, p.Run); err != nil {
		t.Errorf("sievetest: %v", err)
	}
}

// cache is the reference cache c asks for.
func cache(c *config) *pipeline.Cache {
	if c.noCache {
		return nil
	}
	return &pipeline.Cache{}
}

// startEnv takes n workers for the test's controller from the pool and
// returns the stages' Env; release gives the workers back.
func startEnv(t *testing.T, c *config, file string, tt *ir.Test, n int) (pipeline.Env, func()) {
	t.Helper()
	base := filepath.Dir(file)
	b := c.backend.For(tt)
	key := poolKey(b, tt.Controller, base)
	ws, shared, err := planes.acquire(t.Context(), key, b, tt.Controller, n)
	if err != nil {
		t.Fatalf("sievetest: test %s: %v", tt.Name, err)
	}
	t.Logf("sievetest: test %s: %d %s control plane(s), %d shared with earlier tests", tt.Name, n, backendName(c.backend), shared)
	h, err := helper()
	if err != nil {
		t.Fatalf("sievetest: %v", err)
	}
	for _, w := range ws {
		// The helper sets up a private network's resolv.conf too; without
		// Main there is none, so controllers share the host's network.
		w.Helper, w.HostNetwork = h, w.HostNetwork || !planes.sharing()
	}
	release := func() {
		if err := planes.release(key, ws); err != nil {
			t.Errorf("sievetest: stopping the control planes: %v", err)
		}
	}
	return pipeline.Env{Spec: file, BaseDir: base, Workers: ws, Progress: logWriter{t}}, release
}

func backendName(b pipeline.Backend) string {
	if b.Name == "" {
		return "embedded"
	}
	return b.Name
}

// failPrepare fails t with what stopped the stages before the plans: the
// spec mistakes the reference runs show, as sieve run prints them, or
// else the error.
func failPrepare(t *testing.T, tt *ir.Test, err error) {
	t.Helper()
	var es pipeline.SpecErrors
	if !errors.As(err, &es) {
		t.Fatalf("sievetest: test %s: %v", tt.Name, err)
	}
	ds := make(diag.Diagnostics, len(es))
	for i, e := range es {
		d := diag.Errorf(e.Src, "reference", "test %s: %s", tt.Name, e.Summary())
		d.Detail = pipeline.Hint
		ds[i] = d
	}
	t.Fatalf("sievetest: the fault-free reference run fails:\n%s", diagText(ds))
}

// logWriter logs each line of pipeline progress to a test.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(b []byte) (int, error) {
	w.t.Log("sieve: " + strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

var _ io.Writer = logWriter{}

// resultsDir is where Run keeps its results: Out or -sieve.out, joined
// with the test's name, or else a temporary directory that is removed if
// the test passes and named in its log if it fails.
func resultsDir(t *testing.T, c *config) string {
	t.Helper()
	dir := c.out
	if dir == "" {
		dir = *outFlag
	}
	if dir != "" {
		root, err := filepath.Abs(filepath.Join(dir, results.SafeName(t.Name())))
		if err != nil {
			t.Fatalf("sievetest: %v", err)
		}
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("sievetest: the results are in %s", relPath(root))
			}
		})
		return root
	}
	root, err := os.MkdirTemp("", "sievetest-")
	if err != nil {
		t.Fatalf("sievetest: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("sievetest: the results are kept in %s (set -sieve.out DIR to choose where)", root)
			return
		}
		if err := os.RemoveAll(root); err != nil {
			t.Logf("sievetest: removing %s: %v", root, err)
		}
	})
	return root
}

// outFlag is -sieve.out: a flag of the test binary, as the -update flags
// of golden tests are.
var outFlag = flag.String("sieve.out", "", "keep sievetest results under `DIR`/TESTNAME (default: a temporary directory, kept only when the test fails)")
