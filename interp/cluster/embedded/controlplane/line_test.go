package controlplane

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
)

// TestLines holds the lines the embedded backend has equal to the ones a
// spec may choose (ir.KubernetesLines). Each has its module in the
// repository and the version it names in its go.mod. The default line's
// name (kinds.DefaultKubernetes) must equal the default binary's.
func TestLines(t *testing.T) {
	if got := LineVersions(); !slices.Equal(got, ir.KubernetesLines) {
		t.Errorf("controlplane.Lines %v, ir.KubernetesLines %v: want the same", got, ir.KubernetesLines)
	}
	for _, l := range Lines {
		mod, err := os.ReadFile(filepath.Join("..", "..", "..", "..", l.Dir, "go.mod"))
		if err != nil {
			t.Errorf("Kubernetes %s: %v", l.Version, err)
			continue
		}
		if !strings.Contains(string(mod), "k8s.io/kubernetes v"+l.Version+".") {
			t.Errorf("Kubernetes %s: %s/go.mod does not require k8s.io/kubernetes v%s.x", l.Version, l.Dir, l.Version)
		}
	}
	mod, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "controlplane", "go.mod"))
	if err != nil || !strings.Contains(string(mod), "k8s.io/kubernetes v"+kinds.DefaultKubernetes+".") {
		t.Errorf("controlplane/go.mod does not require k8s.io/kubernetes v%s.x, the default line kinds.DefaultKubernetes (%v)", kinds.DefaultKubernetes, err)
	}
	if _, err := LookupLine("1.20"); err == nil || !strings.Contains(err.Error(), "1.21") {
		t.Errorf("LookupLine(1.20): %v, want an error naming the lines there are", err)
	}
}
