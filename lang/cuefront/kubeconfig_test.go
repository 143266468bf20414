package cuefront

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/lang/ir"
)

// TestKubeconfigObject checks the struct form defaults as the .sieve
// checker does: KUBECONFIG unless a flag or in-cluster emulation is chosen,
// or env is false.
func TestKubeconfigObject(t *testing.T) {
	cases := map[string]ir.Kubeconfig{
		`"env"`:                     {Env: true},
		`{incluster: false}`:        {Env: true},
		`{incluster: true}`:         {InCluster: true},
		`{flag: "--kc"}`:            {Flag: "--kc"},
		`{env: true, flag: "--kc"}`: {Env: true, Flag: "--kc"},
		`{env: false}`:              {},
	}
	dir := t.TempDir()
	for form, want := range cases {
		src := "package p\n\ncontrollers: c: {command: \"true\", kubeconfig: " + form + "}\n" +
			"workload: w: steps: [{settle: true}]\n" +
			"test: t: {controller: controllers.c, workloads: [workload.w]}\n"
		file := filepath.Join(dir, "spec.cue")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		spec, ds := Load(file, Options{})
		if ds.HasErrors() {
			t.Errorf("kubeconfig %s: %v", form, ds)
			continue
		}
		if got := spec.Tests[0].Controller.Kubeconfig; got != want {
			t.Errorf("kubeconfig %s: got %+v, want %+v", form, got, want)
		}
	}
}
