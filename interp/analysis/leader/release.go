package leader

import "encoding/json"

// Release returns obj, a lock of kind as JSON, with its record let go as
// client-go's leader election lets a lock go when it stops
// (ReleaseOnCancel): no holder and a lease of one second, the rest of the
// object kept (its resourceVersion too, so that an update of it fails if
// the lock changed meanwhile). It returns false when obj carries no
// record that holder holds.
func Release(kind string, obj []byte, holder string) ([]byte, bool) {
	if rec, ok := Read(kind, obj); !ok || holder == "" || rec.Holder != holder {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal(obj, &m) != nil {
		return nil, false
	}
	if kind == "lease" {
		spec, ok := m["spec"].(map[string]any)
		if !ok {
			return nil, false
		}
		letGo(spec)
	} else {
		meta, _ := m["metadata"].(map[string]any)
		anns, _ := meta["annotations"].(map[string]any)
		raw, _ := anns[Annotation].(string)
		var rec map[string]any
		if json.Unmarshal([]byte(raw), &rec) != nil || rec == nil {
			return nil, false
		}
		letGo(rec)
		b, err := json.Marshal(rec)
		if err != nil {
			return nil, false
		}
		anns[Annotation] = string(b)
	}
	out, err := json.Marshal(m)
	return out, err == nil
}

// letGo empties a record's holder and shortens its lease to one second.
func letGo(rec map[string]any) {
	rec["holderIdentity"] = ""
	rec["leaseDurationSeconds"] = 1
}
