package oracle

import (
	"reflect"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// shape says how the lists at one place of an object compare: by the values
// of their merge keys, as sets of scalars, or (the zero shape, and any place
// the oracle knows nothing about) by index. It follows the object down,
// through the Go type of a built-in kind or the OpenAPI schema of a custom
// resource.
type shape struct {
	// t is the Go type of the value here, for a built-in kind.
	t reflect.Type
	// schema is the OpenAPI schema of the value here, for a custom resource.
	schema map[string]any
	// keys are the merge keys of the list here; set says it is a set.
	keys []string
	set  bool
}

// listKeys knows the shapes of objects. Built-in kinds come from the Go
// types of k8s.io/api: the strategic-merge patchMergeKey and patchStrategy
// tags, plus the few lists whose list-map keys are more than their
// patchMergeKey. Custom resources come from the x-kubernetes-list-type and
// x-kubernetes-list-map-keys of their CRD schemas, as the reference run
// recorded them. Lists named "conditions" whose shape says nothing are keyed
// by "type", as nearly every Kubernetes API and operator defines them. It
// is safe for concurrent use.
type listKeys struct {
	builtin map[schema.GroupVersionKind]reflect.Type
	// byKind maps a built-in trace kind to its Go type, preferring v1, for
	// objects that do not say their apiVersion.
	byKind map[string]reflect.Type
	// crds maps kind/version of a custom resource to its schema, and its
	// kind alone to its storage version's, for objects that do not say
	// their apiVersion.
	crds map[string]map[string]any
	// fields caches, per struct type, the shapes of its fields by JSON name.
	fields sync.Map
}

// newListKeys indexes the built-in types and the CRDs present in r.
func newListKeys(r *run) *listKeys {
	l := &listKeys{builtin: scheme.Scheme.AllKnownTypes(), byKind: map[string]reflect.Type{},
		crds: map[string]map[string]any{}}
	for gvk, t := range l.builtin {
		k := trace.KindName(gvk.Group, gvk.Kind)
		if _, ok := l.byKind[k]; !ok || gvk.Version == "v1" {
			l.byKind[k] = t
		}
	}
	for k, obj := range r.end {
		if k.Kind == "customresourcedefinition" {
			l.addCRD(obj)
		}
	}
	return l
}

// addCRD indexes the schema of each version of a CRD.
func (l *listKeys) addCRD(crd map[string]any) {
	spec, _ := crd["spec"].(map[string]any)
	group, _ := spec["group"].(string)
	names, _ := spec["names"].(map[string]any)
	kind, _ := names["kind"].(string)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		v, _ := v.(map[string]any)
		name, _ := v["name"].(string)
		s, _ := v["schema"].(map[string]any)
		schema, ok := s["openAPIV3Schema"].(map[string]any)
		if !ok || kind == "" {
			continue
		}
		k := trace.KindName(group, kind)
		l.crds[k+"/"+name] = schema
		if _, seen := l.crds[k]; !seen || v["storage"] == true {
			l.crds[k] = schema
		}
	}
}

// root returns the shape of object obj of kind k.
func (l *listKeys) root(k trace.Key, obj map[string]any) shape {
	if l == nil {
		return shape{}
	}
	apiVersion, _ := obj["apiVersion"].(string)
	gv, _ := schema.ParseGroupVersion(apiVersion)
	if s, ok := l.crds[k.Kind+"/"+gv.Version]; ok {
		return shape{schema: s}
	}
	if s, ok := l.crds[k.Kind]; ok && apiVersion == "" {
		return shape{schema: s}
	}
	kind, _ := obj["kind"].(string)
	if t, ok := l.builtin[gv.WithKind(kind)]; ok && apiVersion != "" {
		return shape{t: t}
	}
	if t, ok := l.byKind[k.Kind]; ok && trace.BuiltinGroup(gv.Group) {
		return shape{t: t}
	}
	return shape{}
}

// field returns the shape of the member name of the map here.
func (l *listKeys) field(s shape, name string) shape {
	switch {
	case s.schema != nil:
		if props, ok := s.schema["properties"].(map[string]any); ok {
			if p, ok := props[name].(map[string]any); ok {
				return schemaShape(p)
			}
		}
		if p, ok := s.schema["additionalProperties"].(map[string]any); ok {
			return schemaShape(p)
		}
	case s.t != nil && s.t.Kind() == reflect.Map:
		return shape{t: deref(s.t.Elem())}
	case s.t != nil && s.t.Kind() == reflect.Struct:
		return l.structFields(s.t)[name]
	}
	return shape{}
}

// elem returns the shape of the elements of the list here.
func (l *listKeys) elem(s shape) shape {
	switch {
	case s.schema != nil:
		if p, ok := s.schema["items"].(map[string]any); ok {
			return schemaShape(p)
		}
	case s.t != nil && s.t.Kind() == reflect.Slice:
		return shape{t: deref(s.t.Elem())}
	}
	return shape{}
}

// schemaShape is the shape of a value with OpenAPI schema p.
func schemaShape(p map[string]any) shape {
	s := shape{schema: p}
	switch p["x-kubernetes-list-type"] {
	case "map":
		for _, k := range asList(p["x-kubernetes-list-map-keys"]) {
			if k, ok := k.(string); ok {
				s.keys = append(s.keys, k)
			}
		}
	case "set":
		s.set = true
	}
	return s
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// structFields returns the shapes of the fields of struct type t by JSON
// name, fields of inlined embedded structs included.
func (l *listKeys) structFields(t reflect.Type) map[string]shape {
	if m, ok := l.fields.Load(t); ok {
		return m.(map[string]shape)
	}
	m := map[string]shape{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		ft := deref(f.Type)
		if name == "" && f.Anonymous && ft.Kind() == reflect.Struct {
			for n, s := range l.structFields(ft) {
				m[n] = s
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = fieldShape(ft, f.Tag)
	}
	l.fields.Store(t, m)
	return m
}

// fieldShape is the shape of a struct field of type t with tag tag: a
// list with a patchMergeKey is keyed (by more keys where listMapKeys says
// so), a list of scalars with patchStrategy merge is a set.
func fieldShape(t reflect.Type, tag reflect.StructTag) shape {
	s := shape{t: t}
	if t.Kind() != reflect.Slice {
		return s
	}
	elem := deref(t.Elem())
	if k := tag.Get("patchMergeKey"); k != "" {
		s.keys = listMapKeys(elem, k)
	} else if strings.Contains(tag.Get("patchStrategy"), "merge") && elem.Kind() != reflect.Struct {
		s.set = true
	}
	return s
}

// listMapKeys returns the keys of a built-in list of elem with
// patchMergeKey key: the lists whose +listMapKey markers name more keys
// than their patchMergeKey (a port is one per protocol), else key.
func listMapKeys(elem reflect.Type, key string) []string {
	if elem.PkgPath() == "k8s.io/api/core/v1" {
		switch elem.Name() {
		case "ContainerPort":
			return []string{"containerPort", "protocol"}
		case "ServicePort":
			return []string{"port", "protocol"}
		case "TopologySpreadConstraint":
			return []string{"topologyKey", "whenUnsatisfiable"}
		}
	}
	return []string{key}
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
