package explore

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

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
	objs, err := manifest.Decode(seed)
	if err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if len(objs) == 0 {
		return nil, errors.New("seed: no object")
	}
	defs, err := manifest.Parse(crds)
	if err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	for _, obj := range objs {
		r, err := resource(obj, defs)
		if r != nil || err != nil {
			return r, err
		}
	}
	kind, _ := objs[0]["kind"].(string)
	apiVersion, _ := objs[0]["apiVersion"].(string)
	return nil, fmt.Errorf("crd: no CustomResourceDefinition of kind %s in group and version %s (the seed's apiVersion and kind)", kind, apiVersion)
}

// resource returns obj's resource when a CRD of defs defines its kind.
func resource(obj map[string]any, defs []manifest.Object) (*Resource, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, version, _ := strings.Cut(apiVersion, "/")
	for _, d := range defs {
		crd := d.CRD
		if crd == nil || crd.Kind != kind || crd.Group != group {
			continue
		}
		for _, v := range crd.Versions {
			if v.Name != version {
				continue
			}
			if v.Schema == nil {
				return nil, fmt.Errorf("crd: %s: version %s has no openAPIV3Schema (nothing to explore)", kind, version)
			}
			return &Resource{Object: obj, Schema: v.Schema, Namespaced: crd.Namespaced}, nil
		}
		return nil, fmt.Errorf("crd: %s: the CRD of group %s has no version %s (the seed's apiVersion)", kind, group, version)
	}
	return nil, nil
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
