package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/lint"
)

// twoVersions is a CRD whose versions declare different fields, one of
// them a list of objects.
const twoVersions = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.dev}
spec:
  group: example.dev
  names: {kind: Gizmo, plural: gizmos, singular: gizmo}
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, description: how big}
  - name: v2
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts:
                type: array
                description: what it is made of
                items:
                  type: object
                  properties:
                    name: {type: string, description: the part's name}
`

// TestSchemasFields checks what an editor is told of a CRD's fields: those
// of every version with their types and descriptions, through a list to
// its elements, and nothing for an unknown kind or a scalar; a built-in
// kind's fields with the descriptions of the k8s.io/api types.
func TestSchemasFields(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), []byte(twoVersions), 0o644); err != nil {
		t.Fatal(err)
	}
	sc := lint.NewSchemas(dir, []string{"crd.yaml"})
	for _, c := range []struct{ kind, path, want string }{
		{"gizmo", "spec", `[{parts []object what it is made of} {size integer how big}]`},
		{"gizmo", "spec.parts", `[{name string the part's name}]`},
		{"gizmo", "spec.parts[0]", `[{name string the part's name}]`},
		{"gizmo", "spec.size", `[]`},
		{"widget", "spec", `[]`},
	} {
		p, err := ir.ParsePath(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(sc.Fields(c.kind, p)); got != c.want {
			t.Errorf("Fields(%s, %s) = %s, want %s", c.kind, c.path, got, c.want)
		}
	}
	// A built-in kind's field, through a list, with its type and the
	// description of lang/kinds.FieldDocs.
	p, _ := ir.ParsePath("metadata.ownerReferences")
	if got, want := fmt.Sprint(sc.Fields("configmap", p)), "{controller  If true, this reference points to the managing controller.}"; !strings.Contains(got, want) {
		t.Errorf("Fields(configmap, metadata.ownerReferences) = %s, want %s among them", got, want)
	}
	p, _ = ir.ParsePath("spec")
	if got, want := fmt.Sprint(sc.Fields("statefulset", p)), "{template core/v1.PodTemplateSpec template is the object"; !strings.Contains(got, want) {
		t.Errorf("Fields(statefulset, spec) = %s, want %s among them", got, want)
	}
	if got := fmt.Sprint(sc.CRDKinds()); got != "[gizmo]" {
		t.Errorf("CRDKinds() = %s, want [gizmo]", got)
	}
}
