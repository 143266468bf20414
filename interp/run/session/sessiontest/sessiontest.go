package sessiontest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// Shared is an embedded control plane that the tests of one process
// share: started by the first test that needs it (Cluster) and stopped
// by Main. The zero value has none yet.
type Shared struct {
	once    sync.Once
	cluster *embedded.Cluster
	err     error
}

// Main runs the tests of m and stops s's control plane. When the test
// binary is started as the controllers' helper (this executable's
// "internal incluster", which workers start by default), it is the helper
// instead.
func Main(m *testing.M, s *Shared) {
	if len(os.Args) > 2 && os.Args[1] == "internal" && os.Args[2] == "incluster" {
		helperMain(os.Args[3:])
	}
	code := m.Run()
	if s.cluster != nil {
		_ = s.cluster.Stop()
	}
	os.Exit(code)
}

// Cluster returns the shared cluster, reset to its state after start. A
// test that cannot get one is skipped, with the reason.
func (s *Shared) Cluster(t *testing.T) *embedded.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts an embedded control plane; skipped in -short mode")
	}
	bin := embeddedtest.ControlPlane(t)
	s.once.Do(func() {
		c := embedded.New(embedded.Options{Binary: bin})
		if err := c.Start(context.Background()); err != nil {
			_ = c.Stop()
			s.err = err
			return
		}
		s.cluster = c
	})
	if s.err != nil {
		t.Skipf("no embedded control plane: %v", s.err)
	}
	if err := s.cluster.Reset(context.Background()); err != nil {
		t.Fatalf("reset: %v", err)
	}
	return s.cluster
}

// Current is the shared cluster as it is, nil before Cluster started it.
func (s *Shared) Current() *embedded.Cluster { return s.cluster }

// LoadTest compiles test name of spec file.
func LoadTest(t testing.TB, file, name string) *ir.Test {
	t.Helper()
	spec, ds := load.Load(file, load.Options{})
	if ds.HasErrors() {
		t.Fatalf("%s: %v", file, ds)
	}
	test, d := load.SelectTest(spec, name)
	if d != nil {
		t.Fatalf("%s: %v", file, d)
	}
	return test
}

// SettleQuickly is test t with a settle window of 500ms, so that a run
// the test makes directly ends sooner.
func SettleQuickly(t *ir.Test) *ir.Test {
	c := *t
	d := ir.Duration(500 * time.Millisecond)
	c.Settle = &d
	return &c
}

// Position is file:line:col of the first occurrence of text in file.
func Position(t testing.TB, file, text string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), text)
	if i < 0 {
		t.Fatalf("%s does not contain %q", file, text)
	}
	before := string(b[:i])
	line := strings.Count(before, "\n") + 1
	col := i - strings.LastIndex(before, "\n")
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}

// helperMain makes the test binary the controller's helper: args are
// [--dir DIR] [--resolv FILE] -- ARGV...
func helperMain(args []string) {
	var m controller.Mounts
	for len(args) > 1 && args[0] != "--" {
		switch args[0] {
		case "--dir":
			m.ServiceAccount = args[1]
		case "--resolv":
			m.ResolvConf = args[1]
		}
		args = args[2:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	err := controller.HelperMain(m, args)
	fmt.Fprintln(os.Stderr, err)
	os.Exit(3)
}
