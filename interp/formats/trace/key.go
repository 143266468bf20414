package trace

import "strings"

// KindName is the kind part of a Key for an API group and kind: the
// lowercase kind for Kubernetes' own groups ("statefulset", "lease"), and
// lowercase kind + "." + group for the rest ("datastore.example.com").
func KindName(group, kind string) string {
	k := strings.ToLower(kind)
	if BuiltinGroup(group) {
		return k
	}
	return k + "." + group
}

// BuiltinGroup reports whether group is one of Kubernetes' own: the core
// group, the unqualified groups (apps, batch, ...) and *.k8s.io.
func BuiltinGroup(group string) bool {
	return !strings.Contains(group, ".") || strings.HasSuffix(group, ".k8s.io")
}

// KindMatches reports whether a kind written in a spec matches a key's
// kind. A spec may leave out the group of a custom resource:
// "datastore" matches "datastore.example.com".
func KindMatches(spec, kind string) bool {
	spec = strings.ToLower(spec)
	return spec == kind || (!strings.Contains(spec, ".") && strings.HasPrefix(kind, spec+"."))
}
