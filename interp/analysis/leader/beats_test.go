package leader

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// lease is a Lease held by holder, renewed at renew, at resourceVersion rv.
func lease(holder, renew, rv string) []byte {
	return []byte(fmt.Sprintf(`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease",
		"metadata":{"name":"op-lock","namespace":"ops","resourceVersion":%q,
			"managedFields":[{"manager":"op","time":%q}]},
		"spec":{"holderIdentity":%q,"leaseDurationSeconds":15,"acquireTime":"2026-12-06T10:00:00.000000Z",
			"renewTime":%q,"leaseTransitions":0}}`, rv, renew, holder, renew))
}

// annotated is a ConfigMap or Endpoints lock (kind) held by holder,
// renewed at renew, with data.
func annotated(kind, holder, renew, rv, data string) []byte {
	rec, _ := json.Marshal(map[string]any{"holderIdentity": holder, "leaseDurationSeconds": 15,
		"acquireTime": "2026-12-06T10:00:00Z", "renewTime": renew, "leaderTransitions": 1})
	o := map[string]any{"apiVersion": "v1", "kind": kind,
		"metadata": map[string]any{"name": "op-lock", "namespace": "ops", "resourceVersion": rv,
			"annotations": map[string]any{Annotation: string(rec)}}}
	if data != "" {
		o["data"] = map[string]any{"k": data}
	}
	b, _ := json.Marshal(o)
	return b
}

const (
	t1 = "2026-12-06T10:00:02Z"
	t2 = "2026-12-06T10:00:04Z"
)

// TestHeartbeat tells a renewal by the same holder, of each lock shape,
// from progress: a changed ConfigMap, a new holder, an object with no
// record.
func TestHeartbeat(t *testing.T) {
	for _, c := range []struct {
		name     string
		kind     string
		old, new []byte
		want     bool
	}{
		{"lease renewed", "lease", lease("op-a", t1, "10"), lease("op-a", t2, "11"), true},
		{"configmap lock renewed", "configmap", annotated("ConfigMap", "op-a", t1, "10", ""), annotated("ConfigMap", "op-a", t2, "11", ""), true},
		{"endpoints lock renewed", "endpoints", annotated("Endpoints", "op-a", t1, "10", ""), annotated("Endpoints", "op-a", t2, "11", ""), true},
		{"lease taken over", "lease", lease("op-a", t1, "10"), lease("op-b", t2, "11"), false},
		{"configmap lock taken over", "configmap", annotated("ConfigMap", "op-a", t1, "10", ""), annotated("ConfigMap", "op-b", t2, "11", ""), false},
		{"configmap data changed", "configmap", annotated("ConfigMap", "op-a", t1, "10", "x"), annotated("ConfigMap", "op-a", t1, "11", "y"), false},
		{"renewed and data changed", "configmap", annotated("ConfigMap", "op-a", t1, "10", "x"), annotated("ConfigMap", "op-a", t2, "11", "y"), false},
		{"no record", "configmap", []byte(`{"metadata":{"name":"c"},"data":{"k":"x"}}`), []byte(`{"metadata":{"name":"c"},"data":{"k":"x"}}`), false},
		{"released", "lease", lease("op-a", t1, "10"), lease("", t2, "11"), false},
		{"not a lock kind", "secret", lease("op-a", t1, "10"), lease("op-a", t2, "11"), false},
	} {
		if got := Heartbeat(c.kind, c.old, c.new); got != c.want {
			t.Errorf("%s: Heartbeat = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBeatsHistory follows a ConfigMap lock through the history: its
// creation is progress, its renewals heartbeats, a change of its data
// progress, its deletion and re-creation progress.
func TestBeatsHistory(t *testing.T) {
	key := &trace.Key{Kind: "configmap", Namespace: "ops", Name: "op-lock"}
	entry := func(event string, obj []byte) trace.Entry {
		return trace.Entry{Type: trace.History, Key: key, Event: event, Object: obj}
	}
	var b Beats
	for i, c := range []struct {
		e    trace.Entry
		want bool
	}{
		{entry("ADDED", annotated("ConfigMap", "op-a", t1, "10", "")), false},
		{entry("MODIFIED", annotated("ConfigMap", "op-a", t2, "11", "")), true},
		{entry("MODIFIED", annotated("ConfigMap", "op-a", t2, "12", "x")), false},
		{entry("MODIFIED", annotated("ConfigMap", "op-a", "2026-12-06T10:00:06Z", "13", "x")), true},
		{entry("DELETED", annotated("ConfigMap", "op-a", "2026-12-06T10:00:06Z", "14", "x")), false},
		{entry("ADDED", annotated("ConfigMap", "op-a", "2026-12-06T10:00:08Z", "15", "x")), false},
		{trace.Entry{Type: trace.Request, Key: key, Verb: "update", Body: annotated("ConfigMap", "op-a", "2026-12-06T10:00:10Z", "16", "x")}, false},
	} {
		if got := b.Entry(c.e); got != c.want {
			t.Errorf("entry %d (%s): heartbeat %v, want %v", i, c.e.Event, got, c.want)
		}
	}
}
