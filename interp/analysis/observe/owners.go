package observe

import (
	"encoding/json"
	"strings"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// ownerRef is the part of an ownerReference sieve uses.
type ownerRef struct {
	apiVersion, kind, name string
	controller             bool
}

// ownerRefs returns an object's owner references.
func ownerRefs(obj map[string]any) []ownerRef {
	md, _ := obj["metadata"].(map[string]any)
	list, _ := md["ownerReferences"].([]any)
	var out []ownerRef
	for _, x := range list {
		m, _ := x.(map[string]any)
		r := ownerRef{}
		r.apiVersion, _ = m["apiVersion"].(string)
		r.kind, _ = m["kind"].(string)
		r.name, _ = m["name"].(string)
		r.controller, _ = m["controller"].(bool)
		if r.kind != "" && r.name != "" {
			out = append(out, r)
		}
	}
	return out
}

// Owners returns the keys of the owners that the ownerReferences of obj,
// an object of key k, name (in k's namespace).
func Owners(k trace.Key, obj map[string]any) []trace.Key {
	var out []trace.Key
	for _, r := range ownerRefs(obj) {
		out = append(out, r.key(k.Namespace))
	}
	return out
}

// OwnerKeys is Owners for a JSON object, written as key k.
func OwnerKeys(k trace.Key, body json.RawMessage) []trace.Key {
	var obj map[string]any
	if len(body) == 0 || json.Unmarshal(body, &obj) != nil {
		return nil
	}
	return Owners(k, obj)
}

// ControllingOwner returns the key of the controlling owner (or, if none
// is marked, the first owner) of obj, an object of key k, in k's
// namespace.
func ControllingOwner(k trace.Key, obj map[string]any) (trace.Key, bool) {
	refs := ownerRefs(obj)
	if len(refs) == 0 {
		return trace.Key{}, false
	}
	ref := refs[0]
	for _, r := range refs {
		if r.controller {
			ref = r
			break
		}
	}
	return ref.key(k.Namespace), true
}

// key returns the trace key of the owner in a namespace.
func (r ownerRef) key(namespace string) trace.Key {
	group, _, ok := strings.Cut(r.apiVersion, "/")
	if !ok {
		group = ""
	}
	return trace.Key{Kind: trace.KindName(group, r.kind), Namespace: namespace, Name: r.name}
}
