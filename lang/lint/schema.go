package lint

import (
	"cmp"
	"maps"
	"strings"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
	"github.com/sievetool/sieve/lang/manifest"
)

// schemas finds the shapes of kinds for the field lint: built-in kinds
// from lang/kinds, custom resources from their CRD's openAPIV3Schema.
type schemas struct {
	baseDir string
	kinds   map[string]string                  // kind → type name
	types   map[string]map[string]string       // type name → field → type
	shapes  map[string]*celenv.Shape           // by type name, as built
	crds    map[string]*celenv.Shape           // by CRD file list and kind
	fields  map[*celenv.Shape]map[string]Field // what a schema says of an object's fields
	names   map[*celenv.Shape]string           // type names of the kinds table, by shape
}

func newSchemas(baseDir string) *schemas {
	t := kinds.Builtin()
	return &schemas{baseDir: baseDir, kinds: t.Kinds, types: t.Types, shapes: map[string]*celenv.Shape{}, crds: map[string]*celenv.Shape{},
		fields: map[*celenv.Shape]map[string]Field{}, names: map[*celenv.Shape]string{}}
}

// forTest returns the shape of a kind (as a spec writes it) in test t: a
// built-in kind's, else that of the custom resource a CRD of t's
// controller defines; nil when neither is known or its fields are open.
func (s *schemas) forTest(t *ir.Test) func(kind string) *celenv.Shape {
	var crds []string
	if t.Controller != nil {
		crds = t.Controller.CRDs
	}
	return s.forCRDs(crds)
}

// forCRDs is forTest for a test whose controller's CRD files are crds.
func (s *schemas) forCRDs(crds []string) func(kind string) *celenv.Shape {
	return func(kind string) *celenv.Shape {
		kind = ir.CanonicalKind(kind)
		if name, ok := s.kinds[kind]; ok {
			return s.typeShape(name)
		}
		if len(crds) == 0 {
			return nil
		}
		key := strings.Join(crds, "\x00") + "\x00\x00" + kind
		if sh, ok := s.crds[key]; ok {
			return sh
		}
		sh := s.crdShape(crds, kind)
		s.crds[key] = sh
		return sh
	}
}

// typeShape returns the shape of a type of the kinds table: "" (a scalar) and
// "{}" (open) are nil, "[]T" a list of T.
func (s *schemas) typeShape(t string) *celenv.Shape {
	if elem, ok := strings.CutPrefix(t, "[]"); ok {
		return &celenv.Shape{List: true, Elem: s.typeShape(elem)}
	}
	fields, ok := s.types[t]
	if !ok {
		return nil
	}
	if sh, ok := s.shapes[t]; ok {
		return sh
	}
	sh := &celenv.Shape{Fields: make(map[string]*celenv.Shape, len(fields))}
	s.shapes[t] = sh // before the fields: types may refer to themselves
	info := make(map[string]Field, len(fields))
	for f, ft := range fields {
		sh.Fields[f] = s.typeShape(ft)
		info[f] = Field{Name: f, Type: ft}
	}
	s.fields[sh], s.names[sh] = info, t
	return sh
}

// objectMeta is the type name of metadata in the kinds table.
const objectMeta = "meta/v1.ObjectMeta"

// crdShape returns the shape of kind (lowercase singular, optionally with
// its group) that the openAPIV3Schema of its CRD among files declares
// (every version's fields, merged), or nil when no CRD defines kind or a
// version's schema leaves its fields open.
func (s *schemas) crdShape(files []string, kind string) *celenv.Shape {
	for _, f := range files {
		// The front end has checked each file (size, YAML, aliases) already.
		objs, err := manifest.ReadFile(ir.OSPath(s.baseDir, f))
		if err != nil {
			continue
		}
		for _, o := range objs {
			if sh, ok := s.crdDoc(o.CRD, kind); ok {
				return sh
			}
		}
	}
	return nil
}

// crdDoc returns the shape of kind when crd (nil for another kind of
// object) defines it.
func (s *schemas) crdDoc(crd *manifest.CRD, kind string) (*celenv.Shape, bool) {
	if crd == nil {
		return nil, false
	}
	singular := cmp.Or(crd.Singular, strings.ToLower(crd.Kind))
	if kind != singular && kind != singular+"."+crd.Group {
		return nil, false
	}
	var out *celenv.Shape
	for i, v := range crd.Versions {
		if v.Schema == nil {
			return nil, true
		}
		sh := s.resourceShape(v.Schema)
		if i == 0 {
			out = sh
		} else {
			out = s.mergeShapes(out, sh)
		}
		if out == nil {
			return nil, true
		}
	}
	return out, true
}

// resourceShape is openAPIShape for an object at the top of a resource:
// apiVersion, kind and metadata are always there, metadata as ObjectMeta.
func (s *schemas) resourceShape(schema map[string]any) *celenv.Shape {
	sh := s.openAPIShape(schema)
	if sh == nil || sh.Fields == nil {
		return nil
	}
	sh.Fields["apiVersion"], sh.Fields["kind"] = nil, nil
	sh.Fields["metadata"] = s.typeShape(objectMeta)
	info := s.fields[sh]
	for _, f := range []string{"apiVersion", "kind"} {
		if _, ok := info[f]; !ok {
			info[f] = Field{Name: f, Type: "string"}
		}
	}
	info["metadata"] = Field{Name: "metadata", Type: objectMeta}
	return sh
}

// openAPIShape returns the shape a structural OpenAPI v3 schema declares:
// nil (open) where it keeps unknown fields, has additionalProperties (a
// map), combines schemas, or declares no properties. It records each
// field's type and description (s.fields).
func (s *schemas) openAPIShape(schema map[string]any) *celenv.Shape {
	for _, k := range []string{"x-kubernetes-preserve-unknown-fields", "additionalProperties", "anyOf", "oneOf", "allOf", "x-kubernetes-int-or-string"} {
		if v, ok := schema[k]; ok && v != false {
			return nil
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		return &celenv.Shape{List: true, Elem: s.openAPIShape(items)}
	}
	props, _ := schema["properties"].(map[string]any)
	if len(props) == 0 {
		return nil
	}
	sh := &celenv.Shape{Fields: make(map[string]*celenv.Shape, len(props))}
	info := make(map[string]Field, len(props))
	for name, p := range props {
		ps, _ := p.(map[string]any)
		sh.Fields[name] = s.openAPIShape(ps)
		doc, _ := ps["description"].(string)
		info[name] = Field{Name: name, Type: openAPIType(ps), Doc: doc}
	}
	s.fields[sh] = info
	if schema["x-kubernetes-embedded-resource"] == true {
		for _, f := range []string{"apiVersion", "kind", "metadata"} {
			if _, ok := sh.Fields[f]; !ok {
				sh.Fields[f] = nil
			}
		}
	}
	return sh
}

// mergeShapes returns a shape with the fields of both a and b (those of
// two versions of a CRD); nil when either is open. What a's schema says
// of a field comes first.
func (s *schemas) mergeShapes(a, b *celenv.Shape) *celenv.Shape {
	if a == nil || b == nil || a.List != b.List {
		return nil
	}
	if a.List {
		return &celenv.Shape{List: true, Elem: s.mergeShapes(a.Elem, b.Elem)}
	}
	out := &celenv.Shape{Fields: map[string]*celenv.Shape{}}
	info := maps.Clone(s.fields[b])
	if info == nil {
		info = map[string]Field{}
	}
	maps.Copy(info, s.fields[a])
	for f, sa := range a.Fields {
		out.Fields[f] = sa
		if sb, ok := b.Fields[f]; ok {
			out.Fields[f] = s.mergeShapes(sa, sb)
		}
	}
	for f, sb := range b.Fields {
		if _, ok := a.Fields[f]; !ok {
			out.Fields[f] = sb
		}
	}
	s.fields[out] = info
	return out
}

// openAPIType names the type an OpenAPI schema declares, as a field's
// Type: "string", "[]integer", "int-or-string", "" when it says none.
func openAPIType(schema map[string]any) string {
	if schema["x-kubernetes-int-or-string"] == true {
		return "int-or-string"
	}
	t, _ := schema["type"].(string)
	if items, ok := schema["items"].(map[string]any); ok && t == "array" {
		return "[]" + openAPIType(items)
	}
	return t
}

// pathMiss walks the field path p down from
// root and returns the index of the first element root's shape says
// cannot be there, with the shape that lacks it; -1 when every element
// may be there or the shapes stop being known.
func pathMiss(root *celenv.Shape, p ir.Path) (int, *celenv.Shape) {
	sh := root
	for i, e := range p {
		switch {
		case sh == nil:
			return -1, nil
		case sh.List:
			sh = sh.Elem // any element or an index
		case e.Kind != ir.PathField || sh.Fields == nil:
			return -1, nil
		default:
			next, ok := sh.Fields[e.Name]
			if !ok {
				return i, sh
			}
			sh = next
		}
	}
	return -1, nil
}
