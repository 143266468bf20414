//go:build linux

package session_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/internal/proctree/proctreetest"
	"github.com/sievetool/sieve/lang/ir"
)

// TestDaemonsEndWithRun runs the crash plan with a controller that starts
// a daemon (setsid) at each start: neither the daemon of the killed
// process nor that of the restarted one outlives the run.
func TestDaemonsEndWithRun(t *testing.T) {
	if err := proctree.Check(); err != nil {
		t.Skipf("no PID namespaces here: %v", err)
	}
	dir := t.TempDir()
	t.Cleanup(func() { proctreetest.KillAll(dir) })
	t.Setenv("SIEVE_TEST_DAEMON_DIR", dir)
	p := &planfile.Plan{Name: "crash-out-a", Pattern: ir.Intermediate, Actions: []*planfile.Action{
		{Kind: ir.ActCrash, Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "create", Target: ref("configmap", "out-a")}},
	}}
	r := execute(t, "crash", p)
	r.mustSucceed(t)
	up, _ := os.ReadFile(filepath.Join(dir, "up"))
	if n := strings.Count(string(up), "up\n"); n != 2 {
		t.Fatalf("daemons started: %d, want one per controller process (2)", n)
	}
	proctreetest.CheckGone(t, dir, 0)
}
