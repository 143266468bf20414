package ir

import (
	"strings"

	"github.com/sievetool/sieve/lang/kinds"
)

// alias maps kubectl's short names and plural resource names of built-in
// kinds to the lowercase singular kind that resource keys use.
func alias(k string) string {
	if a, ok := kinds.Builtin().Aliases[k]; ok {
		return a
	}
	return k
}

// CanonicalKind returns the kind as resource keys spell it: lowercase, and
// a built-in kind's short name or plural ("sts", "pods") replaced by its
// singular ("statefulset", "pod"). Other kinds are only lowercased. Both
// front ends apply it to every resource key.
func CanonicalKind(kind string) string {
	return alias(strings.ToLower(kind))
}

// Unrecorded reports whether objects of kind (as resource keys and
// objects() name it: "event", "event.events.k8s.io") are left out of a
// run's recorded history, as events are: they are not cluster state worth
// comparing, so an invariant sees none of them.
func Unrecorded(kind string) bool {
	k := CanonicalKind(kind)
	return k == "event" || k == "event.events.k8s.io"
}
