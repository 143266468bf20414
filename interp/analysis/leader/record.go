package leader

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"time"
)

// Annotation is the annotation that carries the record of a ConfigMap or
// Endpoints lock.
const Annotation = "control-plane.alpha.kubernetes.io/leader"

// Record is a leader-election record: who holds the lock, for how long
// each renewal holds it, and when it was acquired and last renewed.
type Record struct {
	Holder   string
	Duration time.Duration
	Acquire  time.Time
	Renew    time.Time
}

// Lockable reports whether objects of kind (trace.KindName) can be
// leader-election locks: Leases, ConfigMaps and Endpoints.
func Lockable(kind string) bool {
	return kind == "lease" || kind == "configmap" || kind == "endpoints"
}

// IsLock reports whether obj, an object of kind decoded from JSON, is a
// leader-election lock: a Lease, or a ConfigMap or Endpoints that carries
// the Annotation.
func IsLock(kind string, obj map[string]any) bool {
	switch kind {
	case "lease":
		return obj != nil
	case "configmap", "endpoints":
		meta, _ := obj["metadata"].(map[string]any)
		ann, _ := meta["annotations"].(map[string]any)
		_, ok := ann[Annotation]
		return ok
	}
	return false
}

// wireRecord is a record as both lock shapes write it.
type wireRecord struct {
	Holder   string    `json:"holderIdentity"`
	Duration int64     `json:"leaseDurationSeconds"`
	Acquire  time.Time `json:"acquireTime"`
	Renew    time.Time `json:"renewTime"`
}

// Read returns the record that obj, an object of kind as JSON, carries;
// false when it carries none (or kind is no lock).
func Read(kind string, obj []byte) (Record, bool) {
	raw, ok := rawRecord(kind, obj)
	if !ok {
		return Record{}, false
	}
	var w wireRecord
	if json.Unmarshal(raw, &w) != nil {
		return Record{}, false
	}
	return Record{Holder: w.Holder, Duration: leaseDuration(w.Duration), Acquire: w.Acquire, Renew: w.Renew}, true
}

// leaseDuration is a record's leaseDurationSeconds as a Duration, within
// what the Lease API holds (0 to an int32 of seconds). A negative one is
// none. A larger one is the longest, since it would wrap around to a
// negative Duration and end the wait for the lock at once.
func leaseDuration(seconds int64) time.Duration {
	return time.Duration(min(max(seconds, 0), math.MaxInt32)) * time.Second
}

// rawRecord returns the JSON of the record obj carries: a Lease's spec,
// the annotation of a ConfigMap or Endpoints. Keys match exactly, as
// withoutRenewal reads them (encoding/json's structs would take
// "METADATA" for "metadata").
func rawRecord(kind string, obj []byte) ([]byte, bool) {
	switch kind {
	case "lease":
		spec, ok := field(obj, "spec")
		return spec, ok && len(spec) > 0
	case "configmap", "endpoints":
		if !bytes.Contains(obj, []byte(Annotation)) {
			return nil, false // most are no locks: skip the parse
		}
		meta, _ := field(obj, "metadata")
		anns, _ := field(meta, "annotations")
		var ann map[string]string
		if json.Unmarshal(anns, &ann) != nil {
			return nil, false
		}
		a, ok := ann[Annotation]
		return []byte(a), ok
	}
	return nil, false
}

// field returns the JSON of the field name of the JSON object obj.
func field(obj []byte, name string) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return nil, false
	}
	v, ok := m[name]
	return v, ok
}

// Heartbeat reports whether the change of a lock object of kind from old
// to new (both JSON) is a heartbeat. Both must carry a record that the
// same process holds. Nothing else may change but the record's renew and
// acquire times and the object's resourceVersion and managedFields. A
// change of holder (a new leader), of anything else of the object (a
// ConfigMap's data), or of an object that carries no record is progress.
func Heartbeat(kind string, old, new []byte) bool {
	ro, ok1 := Read(kind, old)
	rn, ok2 := Read(kind, new)
	if !ok1 || !ok2 || ro.Holder == "" || ro.Holder != rn.Holder {
		return false
	}
	o, ok1 := withoutRenewal(kind, old)
	n, ok2 := withoutRenewal(kind, new)
	return ok1 && ok2 && reflect.DeepEqual(o, n)
}

// withoutRenewal decodes obj and takes out of it what a renewal changes:
// metadata.resourceVersion and managedFields, and the record's renew and
// acquire times.
func withoutRenewal(kind string, obj []byte) (map[string]any, bool) {
	var m map[string]any
	if json.Unmarshal(obj, &m) != nil {
		return nil, false
	}
	meta, _ := m["metadata"].(map[string]any)
	delete(meta, "resourceVersion")
	delete(meta, "managedFields")
	if kind == "lease" {
		spec, _ := m["spec"].(map[string]any)
		delete(spec, "renewTime")
		delete(spec, "acquireTime")
		return m, true
	}
	ann, _ := meta["annotations"].(map[string]any)
	a, _ := ann[Annotation].(string)
	var rec map[string]any
	if json.Unmarshal([]byte(a), &rec) != nil {
		return nil, false
	}
	delete(rec, "renewTime")
	delete(rec, "acquireTime")
	ann[Annotation] = rec
	return m, true
}
