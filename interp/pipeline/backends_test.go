package pipeline

import (
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
)

// TestBackendKubernetes: a test's Kubernetes line applies on the embedded
// backend unless --kubernetes names one (the default line too), and
// CheckBackend refuses a line
// there is none of, or one on a backend that runs its own Kubernetes.
func TestBackendKubernetes(t *testing.T) {
	old := &ir.Test{Kubernetes: "1.21"}
	if got := (Backend{}).For(old).Kubernetes; got != "1.21" {
		t.Errorf("embedded backend, test of 1.21: line %q, want 1.21", got)
	}
	if got := (Backend{Kubernetes: "1.21"}).For(&ir.Test{}).Kubernetes; got != "1.21" {
		t.Errorf("--kubernetes 1.21, test of the default: line %q, want 1.21 (the command line wins)", got)
	}
	var warn strings.Builder
	if got := (Backend{Name: "kubeconfig", Kubeconfig: "k", Progress: &warn}).For(old).Kubernetes; got != "" {
		t.Errorf("kubeconfig backend: line %q, want none (the cluster runs its own)", got)
	}
	if !strings.Contains(warn.String(), `kubernetes "1.21" applies to the embedded backend`) {
		t.Errorf("kubeconfig backend, test of 1.21: told %q, want a warning", warn.String())
	}
	for _, tc := range []struct {
		b    Backend
		want string
	}{
		{Backend{Kubernetes: "1.20"}, "no Kubernetes 1.20 control plane"},
		{Backend{Name: "kind", Kubernetes: "1.21"}, "--kubernetes goes with --backend embedded"},
		{Backend{Name: "kubeconfig", Kubeconfig: "k", Kubernetes: "1.21"}, "--kubernetes goes with --backend embedded"},
	} {
		if err := CheckBackend(tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckBackend(%+v): %v, want %q", tc.b, err, tc.want)
		}
	}
	if err := CheckBackend(Backend{Kubernetes: "1.21"}); err != nil {
		t.Errorf("CheckBackend(--kubernetes 1.21): %v", err)
	}
	if err := CheckBackend(Backend{Kubernetes: kinds.DefaultKubernetes}); err != nil {
		t.Errorf("CheckBackend(--kubernetes %s, the default line): %v", kinds.DefaultKubernetes, err)
	}
	if got := (Backend{Kubernetes: kinds.DefaultKubernetes}).For(old).Kubernetes; got != "" {
		t.Errorf("--kubernetes %s, test of 1.21: line %q, want the default (the command line wins)", kinds.DefaultKubernetes, got)
	}
}
