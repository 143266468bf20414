package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestRunOnKubernetes121 runs sieve run on a controller
// (testdata/kube121) that the default control plane refuses. It watches a
// custom resource whose CRD is written as apiextensions.k8s.io/v1beta1,
// and writes policy/v1beta1 PodDisruptionBudgets. Its test chooses
// Kubernetes 1.21 (kubernetes "1.21"). The reference run must record the
// custom resource delivered to the controller's watch, its status
// written, and the PDB created (201); and the run exits 0.
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
	tr, err := trace.Read(filepath.Join(results.Layout{Root: out}.ReferenceDir(1), results.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	var delivered, status, pdb bool
	for _, e := range tr.Entries {
		switch {
		case e.Key == nil:
		case e.Type == trace.Delivery && e.Key.Kind == "webapp.example.com" && e.Key.Name == "web":
			delivered = true
		case e.Type == trace.Request && e.Verb == "update" && e.Subresource == "status" && e.Key.Kind == "webapp.example.com" && e.Code == 200:
			status = true
		case e.Type == trace.Request && e.Verb == "create" && strings.Contains(e.Key.Kind, "poddisruptionbudget") &&
			e.Code == 201 && bytes.Contains(e.Body, []byte(`"policy/v1beta1"`)):
			pdb = true
		}
	}
	if !delivered || !status || !pdb {
		t.Errorf("reference trace: WebApp delivered to the controller %v, its status updated (200) %v, a policy/v1beta1 PDB created (201) %v; want all three", delivered, status, pdb)
	}
}
