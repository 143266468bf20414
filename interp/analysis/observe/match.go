package observe

import (
	"path"
	"strings"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// MatchRef reports whether a reference (globs allowed; a custom kind may
// leave out its group) matches key parts. A nil reference matches
// everything.
func MatchRef(r *ir.Ref, kind, namespace, name string) bool {
	return r == nil || MatchKey(r.Kind, r.Namespace, r.Name, trace.Key{Kind: kind, Namespace: namespace, Name: name})
}

// MatchKey reports whether a key matches the globs of a kind, namespace
// and name written in a spec: an empty glob matches everything, and a
// kind without globs may leave out the group of a custom resource
// ("datastore" matches "datastore.example.com").
func MatchKey(kind, namespace, name string, k trace.Key) bool {
	return kindGlob(kind, k.Kind) && glob(namespace, k.Namespace) && glob(name, k.Name)
}

// glob matches a shell pattern; the empty pattern matches everything.
func glob(pattern, s string) bool {
	if pattern == "" || pattern == "*" {
		return true
	}
	ok, err := path.Match(pattern, s)
	return err == nil && ok
}

// kindGlob matches a kind written in a spec against a key's kind: a glob,
// or a kind that may leave out the group of a custom resource.
func kindGlob(pattern, kind string) bool {
	if strings.ContainsAny(pattern, "*?[") {
		return glob(pattern, kind)
	}
	return pattern == "" || trace.KindMatches(pattern, kind)
}
