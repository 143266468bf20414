package check_test

import (
	"testing"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/ir"
)

// TestKubeconfigObject checks the defaults of the object form: KUBECONFIG
// is set unless a flag or in-cluster emulation is chosen, or env is false.
func TestKubeconfigObject(t *testing.T) {
	cases := map[string]ir.Kubeconfig{
		`env`:                                {Env: true},
		`incluster`:                          {InCluster: true},
		`"--kubeconfig"`:                     {Flag: "--kubeconfig"},
		`{ incluster: false }`:               {Env: true},
		`{ incluster: true }`:                {InCluster: true},
		`{ flag: "--kc" }`:                   {Flag: "--kc"},
		`{ env: true, flag: "--kc" }`:        {Env: true, Flag: "--kc"},
		`{ env: false }`:                     {},
		`{ env: true, incluster: true }`:     {Env: true, InCluster: true},
		`{ incluster: false, flag: "--kc" }`: {Flag: "--kc"},
	}
	for form, want := range cases {
		src := "controller c {\n  command \"true\"\n  kubeconfig " + form + "\n}\nworkload w { settle }\ntest t {\n  controller c\n  workloads [w]\n}\n"
		spec, ds := check.File("in.sieve", []byte(src), check.Options{})
		if ds.HasErrors() {
			t.Errorf("kubeconfig %s: %v", form, ds)
			continue
		}
		if got := spec.Tests[0].Controller.Kubeconfig; got != want {
			t.Errorf("kubeconfig %s: got %+v, want %+v", form, got, want)
		}
	}
}
