package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
)

// TestReproduceVerdict checks what sieve reproduce says and exits with for
// an original result and a rerun's.
func TestReproduceVerdict(t *testing.T) {
	pvc := &oracle.Finding{Check: "field", Key: "pvc/default/data-0", Path: "status.phase", Message: "pvc changed"}
	sts := &oracle.Finding{Check: "count", Key: "statefulset/default/ds", Message: "sts deleted"}
	inv := &oracle.Finding{Check: "invariant", Invariant: "data_kept", Message: "data lost"}
	cases := []struct {
		name       string
		orig       []*oracle.Finding
		unfinished bool
		rerun      []*oracle.Finding
		status     results.Status
		code       int
		lines      []string
	}{
		{"reproduced", []*oracle.Finding{pvc, inv}, false, []*oracle.Finding{inv}, results.Failed, exitFindings,
			[]string{"not reproduced: pvc changed", "reproduced:     data lost"}},
		{"gone", []*oracle.Finding{sts}, false, nil, results.Passed, exitOK, []string{"not reproduced: sts deleted"}},
		{"only new", []*oracle.Finding{sts}, false, []*oracle.Finding{pvc}, results.Failed, exitOK,
			[]string{"not reproduced: sts deleted", "new:            pvc changed"}},
		{"none before, one now", nil, false, []*oracle.Finding{pvc}, results.Failed, exitFindings, []string{"new:            pvc changed"}},
		{"unfinished original", nil, true, nil, results.Passed, exitOK, []string{"did not finish"}},
		{"rerun error", []*oracle.Finding{sts}, false, nil, results.Errored, exitInfra, []string{"not reproduced: sts deleted"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			g := &globals{stdout: &out, stderr: &out}
			orig := &results.PlanRun{Plan: &planfile.Plan{Name: "p"}}
			if !c.unfinished {
				orig.Result = &results.Result{Findings: c.orig}
			}
			err := verdict(g, orig, &results.Result{Status: c.status, Findings: c.rerun}, "dir")
			if code := exitCode(err); code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, out.String())
			}
			for _, l := range c.lines {
				if !strings.Contains(out.String(), l) {
					t.Errorf("output lacks %q:\n%s", l, out.String())
				}
			}
		})
	}
}

func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if err != nil {
		return -1
	}
	return exitOK
}
