package oracle

import (
	"encoding/json"
	"slices"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// ownership extends own, over the whole history of t, to what belongs to
// the controller's own objects and changes with each of its restarts. That
// is objects whose owner references chain to an own object: a
// leader-election lock owned by the controller's pod, or a metrics Service
// it owns and, through that, the Service's EndpointSlices. It is also the
// Endpoints of an own Service, which carry its name and no owner
// reference. The whole history is read first, so that a child the history
// recorded before its owner is still left out.
func ownership(t *trace.Trace, own func(trace.Key) bool) func(trace.Key, map[string]any) bool {
	owners := map[string]map[string]bool{} // uid -> the uids its owner references name
	ownUID := map[string]bool{}
	keys := map[string]trace.Key{}
	eachMeta(t, func(k trace.Key, m objectMeta) {
		keys[m.UID] = k
		ownUID[m.UID] = ownUID[m.UID] || own(k)
		for _, r := range m.OwnerReferences {
			if owners[m.UID] == nil {
				owners[m.UID] = map[string]bool{}
			}
			owners[m.UID][r.UID] = true
		}
	})
	chain(ownUID, owners)
	services := map[trace.Key]bool{}
	for uid, isOwn := range ownUID {
		if k := keys[uid]; isOwn && k.Kind == "service" {
			services[trace.Key{Kind: "endpoints", Namespace: k.Namespace, Name: k.Name}] = true
		}
	}
	return func(k trace.Key, obj map[string]any) bool {
		meta, _ := obj["metadata"].(map[string]any)
		uid, _ := meta["uid"].(string)
		return own(k) || ownUID[uid] || services[k]
	}
}

// chain marks own every uid whose owner references lead to an own one.
func chain(own map[string]bool, owners map[string]map[string]bool) {
	for changed := true; changed; {
		changed = false
		for uid, os := range owners {
			if own[uid] {
				continue
			}
			for o := range os {
				if own[o] {
					own[uid], changed = true, true
					break
				}
			}
		}
	}
}

// objectMeta is the part of an object's metadata ownership and leftovers
// read.
type objectMeta struct {
	UID             string     `json:"uid"`
	OwnerReferences []ownerRef `json:"ownerReferences"`
}

// ownerRef is an owner reference, as ownership and leftovers read it.
type ownerRef struct {
	UID  string `json:"uid"`
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// eachMeta calls f with the key and the metadata of each history entry of
// t whose object has a UID, in order.
func eachMeta(t *trace.Trace, f func(trace.Key, objectMeta)) {
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Type != trace.History || e.Key == nil {
			continue
		}
		if m, ok := metaOf(e.Object); ok && m.UID != "" {
			f(*e.Key, m)
		}
	}
}

// metaOf decodes the metadata of a history entry's object.
func metaOf(raw json.RawMessage) (objectMeta, bool) {
	var o struct {
		Metadata objectMeta `json:"metadata"`
	}
	err := json.Unmarshal(raw, &o)
	return o.Metadata, err == nil
}

// dropOwnEndpoints leaves out of an Endpoints or EndpointSlice the entries
// of the controller's own pods: a Service of the user's that selects the
// emulated pod lists it, with a new UID and address at every restart. The
// object itself stays, since it is the Service's; only the pod's entries,
// which exist because of the pod, are left out (a subset left with no
// address goes too, as the Endpoints controller writes none).
func dropOwnEndpoints(k trace.Key, obj map[string]any, own func(trace.Key) bool) map[string]any {
	ownRef := func(a any) bool {
		m, _ := a.(map[string]any)
		ref, _ := m["targetRef"].(map[string]any)
		kind, _ := ref["kind"].(string)
		ns, _ := ref["namespace"].(string)
		name, _ := ref["name"].(string)
		return kind == "Pod" && own(trace.Key{Kind: "pod", Namespace: ns, Name: name})
	}
	switch k.Kind {
	case "endpoints":
		subsets, ok := obj["subsets"].([]any)
		if !ok {
			return obj
		}
		kept := slices.DeleteFunc(slices.Clone(subsets), func(s any) bool {
			m, _ := s.(map[string]any)
			return m != nil && dropEntries(m, ownRef, "addresses", "notReadyAddresses")
		})
		if len(kept) < len(subsets) {
			setOrDelete(obj, "subsets", kept)
		}
	case "endpointslice":
		dropEntries(obj, ownRef, "endpoints")
	}
	return obj
}

// dropEntries removes the entries of m's lists (by field) that drop
// accepts, and a list they leave empty, and reports whether it removed
// some and the lists are now all empty.
func dropEntries(m map[string]any, drop func(any) bool, fields ...string) bool {
	removed, left := false, 0
	for _, f := range fields {
		list, _ := m[f].([]any)
		kept := slices.DeleteFunc(slices.Clone(list), drop)
		left += len(kept)
		if len(kept) < len(list) {
			removed = true
			setOrDelete(m, f, kept)
		}
	}
	return removed && left == 0
}

// setOrDelete sets m[f] to list, or deletes it when list is empty.
func setOrDelete(m map[string]any, f string, list []any) {
	if len(list) == 0 {
		delete(m, f)
		return
	}
	m[f] = list
}
