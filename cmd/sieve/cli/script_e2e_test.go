package cli

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestScriptE2E runs testdata/e2e/*.txtar: scripts whose sieve starts real
// embedded control planes. They run the sieve binary that embeddedtest
// builds ($SIEVE, with its control plane), through `exits CODE $SIEVE ARGS...`, which also checks
// the exit status.
func TestScriptE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("starts embedded control planes (minutes); not in -short")
	}
	bin, cp := embeddedtest.Binary(t), embeddedtest.ControlPlane(t)
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/e2e",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"exits": cmdExits},
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("SIEVE", bin)
			// HOME is the script's own, so its user cache is empty: the
			// control plane is the one built for the tests.
			e.Setenv("SIEVE_CONTROLPLANE", cp)
			return nil
		},
	})
}
