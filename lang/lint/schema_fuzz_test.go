package lint

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/celenv"
)

// FuzzCRDSchema feeds arbitrary CRD files to the reader of their
// openAPIV3Schema (the field lint's shapes of custom resources), seeded
// with the example specs' CRD files: it must never panic, and the shape it
// reads is finite and keeps apiVersion, kind and metadata, which every
// resource has.
func FuzzCRDSchema(f *testing.F) {
	hostile.Seeds(f, 8<<10, "../../specs/*/crd.yaml", "../cuefront/testdata/parity/*/crd.yaml")
	s := newSchemas("")
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, doc := range docSeparator.Split(string(b), -1) {
			var names struct {
				Spec struct {
					Names struct{ Kind, Singular string }
				}
			}
			if yaml.Unmarshal([]byte(doc), &names) != nil {
				continue
			}
			kind := names.Spec.Names.Singular
			if kind == "" {
				kind = strings.ToLower(names.Spec.Names.Kind)
			}
			sh, ok := s.crdDoc(doc, kind)
			if !ok || sh == nil {
				continue
			}
			for _, f := range []string{"apiVersion", "kind", "metadata"} {
				if _, ok := sh.Fields[f]; !ok {
					t.Fatalf("the shape of %s lacks %s", kind, f)
				}
			}
			delete(sh.Fields, "metadata") // the table's ObjectMeta, not the file's
			if n := shapeSize(sh, 0); n > len(b)+10 {
				t.Fatalf("a shape of %d nodes from %d bytes", n, len(b))
			}
		}
	})
}

// shapeSize counts the nodes of a shape below depth 100 (a deeper one
// fails the size check).
func shapeSize(sh *celenv.Shape, depth int) int {
	if sh == nil || depth > 100 {
		return 1
	}
	n := 1 + shapeSize(sh.Elem, depth+1)
	for _, f := range sh.Fields {
		n += shapeSize(f, depth+1)
	}
	return n
}
