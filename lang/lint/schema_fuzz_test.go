package lint

import (
	"cmp"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/manifest"
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
		objs, err := manifest.Parse(b)
		if err != nil {
			return
		}
		for _, o := range objs {
			if o.CRD == nil {
				continue
			}
			kind := cmp.Or(o.CRD.Singular, strings.ToLower(o.CRD.Kind))
			sh, ok := s.crdDoc(o.CRD, kind)
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
