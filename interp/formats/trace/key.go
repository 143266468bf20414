package trace

import (
	"strings"

	"github.com/sievetool/sieve/lang/ir"
)

// KindName is the kind part of a Key for an API group and kind
// (ir.KindName): the lowercase kind for Kubernetes' own groups
// ("statefulset", "lease"), and lowercase kind + "." + group for the rest
// ("datastore.example.com").
func KindName(group, kind string) string { return ir.KindName(group, kind) }

// BuiltinGroup reports whether group is one of Kubernetes' own
// (ir.BuiltinGroup).
func BuiltinGroup(group string) bool { return ir.BuiltinGroup(group) }

// KindMatches reports whether a kind written in a spec matches a key's
// kind. A spec may leave out the group of a custom resource:
// "datastore" matches "datastore.example.com".
func KindMatches(spec, kind string) bool {
	spec = strings.ToLower(spec)
	return spec == kind || (!strings.Contains(spec, ".") && strings.HasPrefix(kind, spec+"."))
}
