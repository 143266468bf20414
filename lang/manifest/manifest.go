package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
)

// Object is what the check needs of one object of a manifest.
type Object struct {
	APIVersion, Kind, Name string
	Line                   int // 1-based line of the document's first key
	// CRD is what a CustomResourceDefinition declares (nil for another
	// kind).
	CRD *CRD
	// Fields are the document's top-level keys (apiVersion, kind,
	// metadata, spec ...), in order.
	Fields []string
}

// CRD is what a CustomResourceDefinition declares: its kind's names, its
// group and scope, and its versions.
type CRD struct {
	Kind, Singular, Group string
	Namespaced            bool
	Versions              []CRDVersion
}

// CRDVersion is a version of a CRD, with its openAPIV3Schema as JSON
// decodes it (nil when it has none).
type CRDVersion struct {
	Name   string
	Schema map[string]any
}

// MaxAliasNodes bounds the nodes that the YAML aliases of one manifest
// expand to. An alias repeats a whole subtree, so a few lines of aliases
// to aliases can stand for billions of nodes (a "billion laughs" bomb);
// real manifests use a few aliases, if any.
const MaxAliasNodes = 100_000

// ReadFile reads and checks the manifest file name (within
// input.ManifestLimit). Errors name the file and, where YAML knows it,
// the line.
func ReadFile(name string) ([]Object, error) {
	b, err := input.ReadFile(name, input.ManifestLimit)
	if err != nil {
		return nil, err
	}
	objs, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return objs, nil
}

// Parse checks the documents of a manifest and returns its objects, or
// the first problem.
func Parse(src []byte) ([]Object, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var objs []Object
	for doc := 1; ; doc++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("invalid YAML: %s", diag.Quote(strings.TrimPrefix(err.Error(), "yaml: ")))
		}
		if aliasNodes(&n) > MaxAliasNodes {
			return nil, fmt.Errorf("line %d: YAML aliases expand to more than %d nodes (the limit)", n.Line, MaxAliasNodes)
		}
		o, ok, err := object(&n)
		if err != nil {
			return nil, fmt.Errorf("line %d: document %d: %w", n.Line, doc, err)
		}
		if ok {
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 {
		return nil, errors.New("no objects")
	}
	return objs, nil
}

// object reads one document; ok is false for an empty one.
func object(doc *yaml.Node) (o Object, ok bool, err error) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	switch {
	case root.Kind == 0, root.Kind == yaml.DocumentNode, root.Tag == "!!null":
		return o, false, nil
	case root.Kind != yaml.MappingNode:
		return o, false, fmt.Errorf("want an object (a mapping), got %s", describe(root))
	case len(root.Content) == 0:
		return o, false, nil
	}
	o = Object{Line: root.Line, APIVersion: scalar(root, "apiVersion"), Kind: scalar(root, "kind"),
		Name: scalar(lookup(root, "metadata"), "name")}
	if o.APIVersion == "" || o.Kind == "" || o.Name == "" {
		return o, false, errors.New("needs apiVersion, kind and metadata.name")
	}
	if k := badKey(root, 0); k != nil {
		return o, false, fmt.Errorf("the mapping key at line %d is not a string, a number or a bool (JSON, which the API server reads, has no other)", k.Line)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		o.Fields = append(o.Fields, root.Content[i].Value)
	}
	if o.Kind == "CustomResourceDefinition" {
		o.CRD = crd(lookup(root, "spec"))
	}
	return o, true, nil
}

// crd reads the spec of a CustomResourceDefinition.
func crd(spec *yaml.Node) *CRD {
	names := lookup(spec, "names")
	c := &CRD{Kind: scalar(names, "kind"), Singular: scalar(names, "singular"), Group: scalar(spec, "group"),
		Namespaced: scalar(spec, "scope") != "Cluster"}
	if vs := lookup(spec, "versions"); vs != nil && vs.Kind == yaml.SequenceNode {
		for _, v := range vs.Content {
			schema, _ := jsonValue(lookup(lookup(v, "schema"), "openAPIV3Schema")).(map[string]any)
			c.Versions = append(c.Versions, CRDVersion{Name: scalar(v, "name"), Schema: schema})
		}
	}
	return c
}

// Decode checks the documents of a manifest as Parse does and returns
// its objects as JSON decodes them, as the API server reads them.
func Decode(src []byte) ([]map[string]any, error) {
	if _, err := Parse(src); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var out []map[string]any
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if m, ok := jsonValue(&n).(map[string]any); ok {
			out = append(out, m)
		}
	}
}

// jsonValue is the value of node n as JSON decodes it (numbers as
// float64), its keys as strings (1: x is "1": x) as the API server reads
// YAML; nil for a nil node or one that does not decode.
func jsonValue(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	var v any
	if n.Decode(&v) != nil {
		return nil
	}
	return JSON(stringKeys(v))
}

// JSON returns v as JSON decodes it once encoded: a deep copy, numbers
// as float64; nil when v does not encode.
func JSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// stringKeys returns v with the keys of its maps as strings.
func stringKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = stringKeys(x)
		}
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = stringKeys(x)
		}
		return m
	case []any:
		for i, x := range t {
			t[i] = stringKeys(x)
		}
	}
	return v
}

// lookup returns the value of key in mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	if m.Kind == yaml.AliasNode {
		m = m.Alias
	}
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// scalar returns the string value of key in mapping m, or "".
func scalar(m *yaml.Node, key string) string {
	v := lookup(m, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

// badKey returns the first mapping key under n that is no scalar JSON
// can hold as a key (a list, a mapping, null, binary), or nil. Aliases
// are not followed: what they name is walked where it is defined.
func badKey(n *yaml.Node, depth int) *yaml.Node {
	if depth > maxDepth {
		return nil
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			k := c
			if k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode || k.Tag == "!!null" || k.Tag == "!!binary" {
				return c
			}
		}
		if b := badKey(c, depth+1); b != nil {
			return b
		}
	}
	return nil
}

// maxDepth bounds the nesting badKey walks; yaml.v3 refuses deeper
// documents already.
const maxDepth = 10_000

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", diag.Quote(n.Value))
	}
	return "an alias"
}

// aliasNodes counts the nodes that the aliases under n add when expanded,
// without expanding them: the size of each subtree is computed once. It
// stops counting past MaxAliasNodes.
func aliasNodes(n *yaml.Node) int64 {
	sizes := map[*yaml.Node]int64{}
	var size func(n *yaml.Node) int64
	size = func(n *yaml.Node) int64 {
		if s, ok := sizes[n]; ok {
			return s
		}
		sizes[n] = MaxAliasNodes + 1 // an alias to its own ancestor has no end
		s := int64(1)
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			s += size(n.Alias)
		}
		for _, c := range n.Content {
			s = min(s+size(c), 1<<40)
		}
		sizes[n] = s
		return s
	}
	var added int64
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if added > MaxAliasNodes {
			return
		}
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			added += size(n.Alias)
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return added
}

// CheckFile reads and checks the manifest file name, as an applied
// manifest or, when crds is true, as a CRD file whose every object must be
// a CustomResourceDefinition.
func CheckFile(name string, crds bool) error {
	objs, err := ReadFile(name)
	if err != nil || !crds {
		return err
	}
	for _, o := range objs {
		if o.Kind != "CustomResourceDefinition" {
			return fmt.Errorf("%s: line %d: %s %s is not a CustomResourceDefinition", name, o.Line, o.Kind, o.Name)
		}
	}
	return nil
}
