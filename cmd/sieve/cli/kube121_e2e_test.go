package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/interp/trace"
)

// TestRunOnKubernetes121 runs sieve run on a controller that writes
// policy/v1beta1 PodDisruptionBudgets (testdata/kube121), which the
// default control plane refuses, and whose test chooses Kubernetes 1.21
// (kubernetes "1.21"): the reference runs record its create answered 201,
// and the run exits 0.
func TestRunOnKubernetes121(t *testing.T) {
	embeddedtest.NeedKubernetes121(t)
	bin := embeddedtest.Binary(t)
	out := t.TempDir()
	cmd := exec.Command(bin, "run", "testdata/kube121/pdb.sieve", "--max-plans", "3", "--no-cache", "-o", out)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	err := cmd.Run()
	t.Logf("sieve run:\n%s", log.String())
	if code := processExit(err); code != exitOK {
		t.Fatalf("exit %d, want 0", code)
	}
	tr, err := trace.Read(filepath.Join(report.Layout{Root: out}.ReferenceDir(1), report.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tr.Entries {
		if e.Type == trace.Request && e.Verb == "create" && e.Key != nil && strings.Contains(e.Key.Kind, "poddisruptionbudget") &&
			e.Code == 201 && bytes.Contains(e.Body, []byte(`"policy/v1beta1"`)) {
			return
		}
	}
	t.Error("the reference trace has no policy/v1beta1 PodDisruptionBudget created (201)")
}
