package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// idle is a backend that is never reached: the runs of these tests fail
// at their first write.
type idle struct{}

func (idle) Start(context.Context) error { return nil }
func (idle) RESTConfig() *rest.Config    { return &rest.Config{} }
func (idle) Kubeconfig() string          { return "" }
func (idle) Reset(context.Context) error { return nil }
func (idle) Stop() error                 { return nil }

// fullDisk creates a trace as trace.Create does on a full disk: its
// header's write fails with ENOSPC.
func fullDisk(path string, _ trace.Header) (*trace.Writer, error) {
	return nil, fmt.Errorf("trace: %w", &fs.PathError{Op: "write", Path: path, Err: syscall.ENOSPC})
}

// TestDiskFullStopsTheRun: plans whose traces cannot be written for want
// of space (fullDisk) stop the run with one error, for two workers, that
// says "no space left on device in DIR" first and once, names the file and
// gives the hint; the later plans are not run.
func TestDiskFullStopsTheRun(t *testing.T) {
	out := results.Layout{Root: t.TempDir()}
	env := Env{Workers: []*session.Worker{{Backend: idle{}, CreateTrace: fullDisk}, {Backend: idle{}, CreateTrace: fullDisk}}}
	refs := &Refs{Test: &ir.Test{Name: "t"}}
	var plans []*planfile.Plan
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		plans = append(plans, &planfile.Plan{Name: name, Pattern: ir.Intermediate})
	}
	got, err := RunPlans(context.Background(), env, refs, plans, out, RunOptions{})
	var d *DiskFullError
	switch {
	case !errors.As(err, &d) || !errors.Is(err, syscall.ENOSPC):
		t.Fatalf("run on a full disk: %v, want a DiskFullError", err)
	case strings.Count(err.Error(), "no space left on device") != 1:
		t.Errorf("run on a full disk: %q, want \"no space left on device\" once", err)
	case !strings.HasPrefix(err.Error(), "no space left on device in "+out.Root+"/plans/") || !strings.Contains(err.Error(), "/"+results.TraceFile) || !strings.Contains(err.Error(), "(free some space"):
		t.Errorf("run on a full disk: %q, want it said first, in the plan's directory, with the file and the hint", err)
	}
	if n := len(got); n != 0 {
		t.Errorf("%d results, want none", n)
	}
	started := 0
	for _, p := range plans {
		if _, err := os.Stat(filepath.Join(out.PlanDir(p.Name), results.PlanFile)); err == nil {
			started++
		}
	}
	if started > 4 { // each of the two workers may take one more plan as the first fails
		t.Errorf("%d of 6 plans were started, want the run stopped at the first failure", started)
	}
}

func TestJoinOnce(t *testing.T) {
	errs := []error{errors.New("a"), errors.New("b"), errors.New("a")}
	if got := joinOnce(errs).Error(); got != "a\nb" {
		t.Errorf("joinOnce: %q, want %q", got, "a\nb")
	}
}
