package oracle

import (
	"strings"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// leftovers reports, over the whole history of t, which objects a run
// before this one left behind: an object whose owner reference names an
// object that this history holds only under other UIDs. The reset between
// plans deletes the earlier run's objects, but a controller of the control
// plane whose cache has not yet seen a deletion can still create a child
// of what it deleted (the StatefulSet controller a pod of a StatefulSet
// just deleted), which the garbage collector then deletes. The run did not
// make it, and however long the reset waited, a loaded machine could delay
// the controller longer still: the UIDs tell, not the time. An owner the
// history never names (a kind sieve does not watch) proves nothing.
func leftovers(t *trace.Trace) func(map[string]any) bool {
	uids := map[string]bool{}
	names := map[ownerName]bool{}
	var children []child
	eachMeta(t, func(k trace.Key, m objectMeta) {
		uids[m.UID] = true
		names[nameOf(k)] = true
		if len(m.OwnerReferences) > 0 {
			children = append(children, child{m.UID, k.Namespace, m.OwnerReferences})
		}
	})
	left := map[string]bool{}
	for _, c := range children {
		for _, r := range c.refs {
			if uids[r.UID] {
				continue
			}
			// The owner is in its child's namespace, or cluster-scoped.
			kind := strings.ToLower(r.Kind)
			left[c.uid] = left[c.uid] || names[ownerName{kind, c.namespace, r.Name}] || names[ownerName{kind, "", r.Name}]
		}
	}
	return func(obj map[string]any) bool {
		meta, _ := obj["metadata"].(map[string]any)
		uid, _ := meta["uid"].(string)
		return left[uid]
	}
}

// child is an object of the history with owner references.
type child struct {
	uid, namespace string
	refs           []ownerRef
}

// ownerName names an object as an owner reference does: its kind in lower
// case without its group, its namespace and its name.
type ownerName struct {
	kind, namespace, name string
}

// nameOf is the ownerName of a history key: kind "statefulset", or "ring"
// for the custom resource "ring.ring.sieve.dev".
func nameOf(k trace.Key) ownerName {
	kind, _, _ := strings.Cut(k.Kind, ".")
	return ownerName{kind: kind, namespace: k.Namespace, name: k.Name}
}
