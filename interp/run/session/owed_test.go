package session

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
)

// history is a history entry of the object obj (JSON), of key kind/name
// in namespace default.
func history(kind, name, event, obj string) trace.Entry {
	return trace.Entry{Type: trace.History, Key: &trace.Key{Kind: kind, Namespace: "default", Name: name},
		Event: event, Object: json.RawMessage(obj)}
}

// workloadObj is a workload object of kind and uid whose status counts
// replicas and ready.
func workloadObj(kind, uid string, replicas, ready int) string {
	return fmt.Sprintf(`{"kind":%q,"metadata":{"name":"web","uid":%q},"status":{"replicas":%d,"readyReplicas":%d}}`,
		kind, uid, replicas, ready)
}

// ownedPod is a pod controlled by the kind/uid given, in phase, Ready or not,
// being deleted or not.
func ownedPod(kind, uid, phase string, ready, deleting bool) string {
	del := ""
	if deleting {
		del = `,"deletionTimestamp":"2026-01-01T00:00:00Z"`
	}
	return fmt.Sprintf(`{"kind":"Pod","metadata":{"name":"p","ownerReferences":[{"apiVersion":"apps/v1","kind":%q,"name":"web","uid":%q,"controller":true}]%s},`+
		`"status":{"phase":%q,"conditions":[{"type":"Ready","status":%q}]}}`, kind, uid, del, phase, map[bool]string{true: "True", false: "False"}[ready])
}

// TestOwed: a workload object whose status does not count its children
// as its controller in kube-controller-manager counts them owes a status
// write, until the history shows it. The StatefulSet case is the one seen
// on a loaded machine: its fifth pod ready 750 ms before the StatefulSet
// said so, and the settle of an explored operation ended between the two.
func TestOwed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []trace.Entry
		want    bool
	}{
		{"no workload", nil, false},
		{"statefulset counts its ready pod", []trace.Entry{
			history("statefulset", "web", "ADDED", workloadObj("StatefulSet", "s1", 1, 1)),
			history("pod", "web-0", "ADDED", ownedPod("StatefulSet", "s1", "Running", true, false)),
		}, false},
		{"statefulset behind its pod's readiness", []trace.Entry{
			history("statefulset", "web", "ADDED", workloadObj("StatefulSet", "s1", 1, 0)),
			history("pod", "web-0", "ADDED", ownedPod("StatefulSet", "s1", "Running", true, false)),
		}, true},
		{"statefulset behind a new pod", []trace.Entry{
			history("statefulset", "web", "ADDED", workloadObj("StatefulSet", "s1", 0, 0)),
			history("pod", "web-0", "ADDED", ownedPod("StatefulSet", "s1", "Pending", false, false)),
		}, true},
		{"statefulset counts its terminating ready pod", []trace.Entry{
			history("statefulset", "web", "ADDED", workloadObj("StatefulSet", "s1", 1, 1)),
			history("pod", "web-0", "ADDED", ownedPod("StatefulSet", "s1", "Running", true, true)),
		}, false},
		{"statefulset caught up with a deleted pod", []trace.Entry{
			history("statefulset", "web", "ADDED", workloadObj("StatefulSet", "s1", 1, 1)),
			history("pod", "web-0", "ADDED", ownedPod("StatefulSet", "s1", "Running", true, false)),
			history("pod", "web-0", "DELETED", ownedPod("StatefulSet", "s1", "Running", true, true)),
			history("statefulset", "web", "MODIFIED", workloadObj("StatefulSet", "s1", 0, 0)),
		}, false},
		{"replicaset leaves out its terminating pod", []trace.Entry{
			history("replicaset", "web", "ADDED", workloadObj("ReplicaSet", "r1", 0, 0)),
			history("pod", "web-x", "ADDED", ownedPod("ReplicaSet", "r1", "Running", true, true)),
		}, false},
		{"replicaset behind its pod", []trace.Entry{
			history("replicaset", "web", "ADDED", workloadObj("ReplicaSet", "r1", 1, 0)),
			history("pod", "web-x", "ADDED", ownedPod("ReplicaSet", "r1", "Running", true, false)),
		}, true},
		{"deployment behind its replicaset", []trace.Entry{
			history("deployment", "web", "ADDED", workloadObj("Deployment", "d1", 0, 0)),
			history("replicaset", "web-1", "ADDED", `{"metadata":{"uid":"r1","ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"d1","controller":true}]},"status":{"replicas":1}}`),
		}, true},
		{"owner gone", []trace.Entry{
			history("statefulset", "web", "ADDED", workloadObj("StatefulSet", "s1", 0, 0)),
			history("pod", "web-0", "ADDED", ownedPod("StatefulSet", "s1", "Running", true, false)),
			history("statefulset", "web", "DELETED", workloadObj("StatefulSet", "s1", 0, 0)),
		}, false},
		{"statefulset behind its spec", []trace.Entry{
			history("statefulset", "web", "MODIFIED", `{"metadata":{"uid":"s1","generation":3},"status":{"observedGeneration":2}}`),
		}, true},
		{"statefulset has observed its spec", []trace.Entry{
			history("statefulset", "web", "MODIFIED", `{"metadata":{"uid":"s1","generation":3},"status":{"observedGeneration":3}}`),
		}, false},
		{"pod of another kind of owner", []trace.Entry{
			history("pod", "web-0", "ADDED", ownedPod("Job", "j1", "Running", true, false)),
		}, false},
	} {
		var o owed
		for _, e := range tc.entries {
			o.observe(e)
		}
		if got := o.Owed(); got != tc.want {
			t.Errorf("%s: owed %v, want %v", tc.name, got, tc.want)
		}
		tested := owed{tested: "statefulset"}
		for _, e := range tc.entries {
			tested.observe(e)
		}
		if tested.Owed() && len(tc.entries) > 0 && tc.entries[0].Key.Kind == "statefulset" {
			t.Errorf("%s: owed with the StatefulSet controller under test, want its status left to the test", tc.name)
		}
	}
}

// TestSettleWaitsForOwedStatus: a controller and a cluster quiet for the
// quiet bound have not settled while a StatefulSet's status does not
// count its pod's readiness (kube-controller-manager has yet to write it),
// and have once the history shows the write.
func TestSettleWaitsForOwedStatus(t *testing.T) {
	s := &session{px: quietProxy(t)}
	s.owed.observe(history("statefulset", "web", "ADDED", workloadObj("StatefulSet", "s1", 1, 0)))
	s.owed.observe(history("pod", "web-0", "MODIFIED", ownedPod("StatefulSet", "s1", "Running", true, false)))
	b := proxy.Bounds{Quiet: 100 * time.Millisecond, Window: time.Hour}
	later := time.Now().Add(time.Minute) // quiet for a minute, by then
	if s.settled(later, b) {
		t.Error("settled while the StatefulSet's status did not count its ready pod")
	}
	s.owed.observe(history("statefulset", "web", "MODIFIED", workloadObj("StatefulSet", "s1", 1, 1)))
	if !s.settled(later, b) {
		t.Error("not settled, quiet for a minute with the StatefulSet's status up to date")
	}
}
