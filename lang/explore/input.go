package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/manifest"
)

// Resource is a custom resource to explore: the seed object and the
// schema of its kind at the seed's API version.
type Resource struct {
	// Object is the seed as JSON decodes it (numbers are float64).
	Object map[string]any
	// Schema is the openAPIV3Schema of the seed's version in its CRD.
	Schema map[string]any
	// Namespaced is the CRD's scope; a namespaced seed without a
	// namespace is in "default".
	Namespaced bool
}

// Load reads the seed manifest and finds, among the CRDs of crds, the
// schema of its first object of a kind they define (a manifest may
// create a namespace or a secret before its custom resource) at that
// object's version.
func Load(seed, crds []byte) (*Resource, error) {
	objs, err := decode(seed)
	if err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if len(objs) == 0 {
		return nil, errors.New("seed: no object")
	}
	docs, err := decode(crds)
	if err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	for _, obj := range objs {
		r, err := resource(obj, docs)
		if r != nil || err != nil {
			return r, err
		}
	}
	kind, _ := objs[0]["kind"].(string)
	apiVersion, _ := objs[0]["apiVersion"].(string)
	return nil, fmt.Errorf("crd: no CustomResourceDefinition of kind %s in group and version %s (the seed's apiVersion and kind)", kind, apiVersion)
}

// resource returns obj's resource when a CRD of docs defines its kind.
func resource(obj map[string]any, docs []map[string]any) (*Resource, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	for _, d := range docs {
		schema, namespaced, ok, err := crdSchema(d, apiVersion, kind)
		if err != nil {
			return nil, fmt.Errorf("crd: %w", err)
		}
		if ok {
			return &Resource{Object: obj, Schema: schema, Namespaced: namespaced}, nil
		}
	}
	return nil, nil
}

// decode returns the objects of a manifest, after lang/manifest has
// checked it (YAML, aliases, apiVersion, kind and name).
func decode(src []byte) ([]map[string]any, error) {
	if _, err := manifest.Parse(src); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var out []map[string]any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(stringKeys(v))
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && m != nil {
			out = append(out, m)
		}
	}
}

// stringKeys returns v with the keys of its maps as strings (1: x is
// "1": x), as the API server reads YAML.
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

// crdSchema returns the openAPIV3Schema of version's kind when doc is
// the CRD that defines it.
func crdSchema(doc map[string]any, apiVersion, kind string) (map[string]any, bool, bool, error) {
	var crd struct {
		Kind string
		Spec struct {
			Group    string
			Scope    string
			Names    struct{ Kind string }
			Versions []struct {
				Name   string
				Schema *struct {
					OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
				}
			}
		}
	}
	b, _ := json.Marshal(doc)
	if json.Unmarshal(b, &crd) != nil || crd.Kind != "CustomResourceDefinition" || crd.Spec.Names.Kind != kind {
		return nil, false, false, nil
	}
	group, version, _ := strings.Cut(apiVersion, "/")
	if group != crd.Spec.Group {
		return nil, false, false, nil
	}
	for _, v := range crd.Spec.Versions {
		if v.Name != version {
			continue
		}
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return nil, false, false, fmt.Errorf("%s: version %s has no openAPIV3Schema (nothing to explore)", kind, version)
		}
		return v.Schema.OpenAPIV3Schema, crd.Spec.Scope != "Cluster", true, nil
	}
	return nil, false, false, fmt.Errorf("%s: the CRD of group %s has no version %s (the seed's apiVersion)", kind, group, version)
}

// Key returns the seed's resource key, kind/namespace/name (kind/name for
// a cluster-scoped kind), as workload steps write it.
func (r *Resource) Key() string {
	kind, _ := r.Object["kind"].(string)
	meta, _ := r.Object["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	if !r.Namespaced {
		return strings.ToLower(kind) + "/" + name
	}
	ns, _ := meta["namespace"].(string)
	if ns == "" {
		ns = "default"
	}
	return strings.ToLower(kind) + "/" + ns + "/" + name
}

// LoadFiles reads the seed manifest file seed and the CRD files crds (as
// the checker and `sieve explore` name them: paths from the working
// directory) and returns Load's resource.
func LoadFiles(seed string, crds []string) (*Resource, error) {
	src, err := input.ReadFile(seed, input.ManifestLimit)
	if err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	var all bytes.Buffer
	for _, name := range crds {
		b, err := input.ReadFile(name, input.ManifestLimit)
		if err != nil {
			return nil, fmt.Errorf("crd: %w", err)
		}
		all.WriteString("---\n")
		all.Write(b)
		all.WriteString("\n")
	}
	return Load(src, all.Bytes())
}
