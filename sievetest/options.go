package sievetest

import (
	"fmt"

	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/ir"
)

// An Option sets one thing about a Run, as a flag of sieve run does.
type Option func(*config)

// config is what the options of a Run set. The zero value is sieve run's
// default but for the results directory (see Out).
type config struct {
	tests    []string
	includes []string
	pattern  string
	parallel int
	maxPlans int
	confirm  int
	out      string
	noCache  bool
	backend  pipeline.Backend
}

// Test runs only the tests of the spec with these names (sieve run
// --test). By default every test of the spec runs, each as a subtest
// named after it.
func Test(names ...string) Option {
	return func(c *config) { c.tests = append(c.tests, names...) }
}

// Include adds directories to the search path of .sieve imports (sieve run
// -I), before those of $SIEVE_PATH.
func Include(dirs ...string) Option {
	return func(c *config) { c.includes = append(c.includes, dirs...) }
}

// Pattern runs only the plans of one fault pattern: "intermediate",
// "stale", "unobserved" or "user" (sieve run --pattern); "explore" only
// the results of an explored workload, and another pattern none of them.
func Pattern(p string) Option {
	return func(c *config) { c.pattern = p }
}

// Parallel runs n plans at once, each on a control plane of its own
// (sieve run --parallel). By default (0) the embedded backend runs one per
// processor, at most four and at most what the machine holds; the other
// backends run one.
func Parallel(n int) Option {
	return func(c *config) { c.parallel = n }
}

// MaxPlans runs at most n of a test's plans, sampled over all of them
// (sieve run --max-plans). By default (0) every plan runs.
func MaxPlans(n int) Option {
	return func(c *config) { c.maxPlans = n }
}

// Confirm runs a failed plan up to n more times; a finding that no rerun
// finds again does not fail the test (sieve run --confirm). The default is
// 1; 0 makes every finding count at once.
func Confirm(n int) Option {
	return func(c *config) { c.confirm = n }
}

// Out keeps the results under dir/TESTNAME, where TESTNAME is the Go
// test's name made safe for a file name. It overrides -sieve.out. By
// default they go to a new temporary directory, removed when the test
// passes and named in its log when it fails.
func Out(dir string) Option {
	return func(c *config) { c.out = dir }
}

// NoCache records the reference runs anew and leaves the reference cache
// alone (sieve run --no-cache). By default reference runs recorded before
// for the same test, controller and sieve build are reused.
func NoCache() Option {
	return func(c *config) { c.noCache = true }
}

// Kind runs on kind clusters, which need Docker or Podman (sieve run
// --backend kind), instead of the embedded control plane.
func Kind() Option {
	return func(c *config) { c.backend.Name = "kind" }
}

// Kubeconfig runs on the existing cluster of a kubeconfig file, in
// context (empty: the file's current context), one plan at a time (sieve
// run --backend kubeconfig).
func Kubeconfig(file, context string) Option {
	return func(c *config) {
		c.backend = pipeline.Backend{Name: "kubeconfig", Kubeconfig: file, Context: context}
	}
}

// newConfig applies the options to the defaults.
func newConfig(opts []Option) *config {
	c := &config{confirm: 1}
	for _, o := range opts {
		o(c)
	}
	return c
}

// check says what is wrong with the options, as sieve run says it of its
// flags.
func (c *config) check() error {
	if err := pipeline.CheckPattern(ir.Pattern(c.pattern)); err != nil {
		return fmt.Errorf("Pattern: %w", err)
	}
	if c.parallel < 0 || c.maxPlans < 0 || c.confirm < 0 {
		return fmt.Errorf("Parallel, MaxPlans and Confirm: %d, %d, %d (want 0 or more)", c.parallel, c.maxPlans, c.confirm)
	}
	return pipeline.CheckBackend(c.backend)
}
