package manifest

import (
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/kinds"
)

// Kinds is the set of kinds a cluster serves, as "apiVersion kind": the
// built-in ones and those defined by CRDs.
type Kinds map[string]bool

// NewKinds returns the built-in kinds and those that the
// CustomResourceDefinitions among crds define, in each of their versions.
func NewKinds(crds []Object) Kinds {
	k := Kinds{}
	for _, s := range kinds.Builtin().Served {
		k[s] = true
	}
	for _, o := range crds {
		if o.CRD == nil {
			continue
		}
		for _, v := range o.CRD.Versions {
			k[o.CRD.Group+"/"+v.Name+" "+o.CRD.Kind] = true
		}
	}
	return k
}

// Unknown says, for an object whose kind k does not hold, why and what
// was likely meant (why is "" when k holds it): a kind served under
// another apiVersion, or a near-miss of a kind's name.
func (k Kinds) Unknown(o Object) (why, hint string) {
	if k[o.APIVersion+" "+o.Kind] {
		return "", ""
	}
	var versions, names []string
	for s := range k {
		v, kind, _ := strings.Cut(s, " ")
		if kind == o.Kind {
			versions = append(versions, v)
		}
		names = append(names, kind)
	}
	if len(versions) > 0 {
		slices.Sort(versions)
		return "kind " + o.Kind + " is not served as " + o.APIVersion, "it is as " + strings.Join(versions, ", ")
	}
	why = "kind " + o.Kind + " (" + o.APIVersion + ") is neither built in nor defined by the test's crds"
	if hint = spell.Hint(o.Kind, slices.Compact(slices.Sorted(slices.Values(names)))); hint != "" {
		return why, hint
	}
	return why, "fine if the controller installs its CRD itself"
}
