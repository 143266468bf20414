package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/results"
)

// sieveCmd runs the sieve binary and returns its exit status, stdout and
// stderr.
func sieveCmd(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// TestRecordRunReproduce records the quick spec's reference runs (twice:
// the second time from the reference cache), runs one plan, and
// reproduces it into a new directory, leaving the original intact.
func TestRecordRunReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts control planes and runs a controller several times (minutes); not in -short")
	}
	t.Parallel() // beside the interrupt matrix's cells and the campaign: its own directories and processes
	bin := embeddedtest.Binary(t)
	spec, err := filepath.Abs(filepath.Join("testdata", "sigint", "echo.sieve"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	rec := filepath.Join(tmp, "rec")
	code, out, errOut := sieveCmd(t, bin, "record", spec, "-o", rec)
	if code != 0 {
		t.Fatalf("sieve record: exit %d\n%s%s", code, out, errOut)
	}
	learned, err := os.ReadFile(filepath.Join(rec, results.LearnedFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(learned), "mask learned {") || !strings.Contains(out, results.LearnedFile) {
		t.Errorf("learned.sieve is not a mask declaration, or record did not name it:\n%s\n%s", learned, out)
	}
	code, _, errOut = sieveCmd(t, bin, "record", spec, "-o", filepath.Join(tmp, "rec2"))
	if code != 0 || !strings.Contains(errOut, "reusing reference runs from") {
		t.Errorf("second sieve record: exit %d, want 0 and the cache reused:\n%s", code, errOut)
	}

	res := filepath.Join(tmp, "res")
	code, out, errOut = sieveCmd(t, bin, "run", spec, "-o", res, "--max-plans", "1")
	if code != 0 {
		t.Fatalf("sieve run: exit %d\n%s%s", code, out, errOut)
	}
	plans, _ := filepath.Glob(filepath.Join(res, "plans", "*"))
	if len(plans) != 1 {
		t.Fatalf("want one plan directory, got %v", plans)
	}
	before, err := os.ReadFile(filepath.Join(plans[0], results.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut = sieveCmd(t, bin, "reproduce", plans[0])
	if code != 0 || !strings.Contains(out, "rerun passed") || !strings.Contains(errOut, "reusing 2 reference run(s)") {
		t.Errorf("sieve reproduce: exit %d, want 0, a passed rerun and the references reused:\n%s%s", code, out, errOut)
	}
	name := filepath.Base(plans[0])
	if _, err := os.Stat(filepath.Join(res, "reproduce", name+"-1", "plans", name, results.ResultFile)); err != nil {
		t.Errorf("the rerun's result is not in RESULTS/reproduce/PLAN-1: %v", err)
	}
	after, err := os.ReadFile(filepath.Join(plans[0], results.ResultFile))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the original result changed (%v)", err)
	}
}
