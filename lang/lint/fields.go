package lint

import (
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
)

// Field is what a kind's schema says of one field of an object, for an
// editor: its name, its type (a type name of lang/kinds' table or "[]T"
// for a built-in kind, "{}" for any value there; an OpenAPI type such as
// "integer" for a custom resource; "" when the schema names none) and its
// description (lang/kinds.FieldDocs for a built-in kind, the CRD's).
type Field struct{ Name, Type, Doc string }

// Schemas answers an editor's questions about kinds' fields from the
// schemas the field lint reads: built-in kinds from lang/kinds, custom
// resources from the openAPIV3Schema of a controller's CRD files.
type Schemas struct {
	s       *schemas
	baseDir string
	crds    []string
	kinds   func(string) *celenv.Shape
}

// NewSchemas returns the schemas of the built-in kinds and of the custom
// resources that the CRD files crds (a controller's crds, relative to
// baseDir) define.
func NewSchemas(baseDir string, crds []string) *Schemas {
	s := newSchemas(baseDir)
	return &Schemas{s: s, baseDir: baseDir, crds: crds, kinds: s.forCRDs(crds)}
}

// Fields returns the fields, sorted by name, of the value at path p in an
// object of kind (as a resource key spells it; an empty p is the object
// itself). A list element is passed through whatever the path gives for
// it. It returns nil when the kind's schema is not known, p leaves it, or
// the value there is open (a map) or no object.
func (x *Schemas) Fields(kind string, p ir.Path) []Field {
	sh := x.kinds(kind)
	for _, e := range p {
		if sh != nil && sh.List && e.Kind != ir.PathField {
			sh = sh.Elem // an index or *
			continue
		}
		sh = listElem(sh)
		if sh == nil || e.Kind != ir.PathField {
			return nil
		}
		sh = sh.Fields[e.Name]
	}
	sh = listElem(sh)
	if sh == nil || sh.Fields == nil {
		return nil
	}
	out := make([]Field, 0, len(sh.Fields))
	info := x.s.fields[sh]
	var docs map[string]string
	if name, ok := x.s.names[sh]; ok {
		docs = kinds.FieldDocs()[name]
	}
	for f := range sh.Fields {
		fi, ok := info[f]
		if !ok {
			fi = Field{Name: f}
		}
		if fi.Doc == "" {
			fi.Doc = docs[f]
		}
		out = append(out, fi)
	}
	slices.SortFunc(out, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// listElem is the shape of a list's elements, or sh when it is no list.
func listElem(sh *celenv.Shape) *celenv.Shape {
	for sh != nil && sh.List {
		sh = sh.Elem
	}
	return sh
}

// CRDKinds returns the kinds that the CRD files define, as resource keys
// spell them (lowercase singular), sorted.
func (x *Schemas) CRDKinds() []string {
	var out []string
	for _, o := range crdObjects(x.baseDir, &ir.Controller{CRDs: x.crds}) {
		if o.CRD != nil && o.CRD.Kind != "" {
			out = append(out, strings.ToLower(o.CRD.Kind))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
