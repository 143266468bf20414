package session

import (
	"encoding/json"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// owed follows, from the cluster history, what the cluster's own workload
// controllers (kube-controller-manager's) owe its status: a StatefulSet or
// ReplicaSet whose status.replicas or status.readyReplicas does not count
// its pods as its controller counts them, a Deployment whose does not sum
// its ReplicaSets', or any of them whose status has not yet observed its
// latest spec (status.observedGeneration behind metadata.generation: a
// scale-down not begun). While one does, a status write is due (Owed), and the
// cluster has not settled, however long it has been still: on a loaded
// machine the StatefulSet controller wrote a pod's readiness 750 ms after
// the pod became ready, past the quiet bound, and the run compared the
// state before. The zero value is ready to use.
type owed struct {
	// tested is the history kind whose controller is the one under test
	// (a built-in one, "statefulset"): what it owes is the test's to
	// judge, and a fault may hold it back for good.
	tested   string
	mu       sync.Mutex
	children map[trace.Key]child // pods and ReplicaSets that have a controller
	owners   map[types.UID]child // what each owner's status counts
}

// child is what an owned object adds to its owner's counts; or, for an
// owner's own status, what it counts and whether it is behind its spec.
type child struct {
	owner  types.UID
	count  replicaCount
	behind bool
}

// replicaCount is a number of replicas and how many of them are ready.
type replicaCount struct{ replicas, ready int32 }

// observe takes a history entry into account.
func (o *owed) observe(e trace.Entry) {
	if e.Type != trace.History || e.Key == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.children == nil {
		o.children, o.owners = map[trace.Key]child{}, map[types.UID]child{}
	}
	if e.Key.Kind == o.tested {
		return
	}
	gone := e.Event == "DELETED"
	switch e.Key.Kind {
	case "pod":
		o.child(*e.Key, gone)(podCount(e.Object))
	case "replicaset":
		o.child(*e.Key, gone)(ownedCount(e.Object, rsCount))
		o.owner(gone)(ownedCount(e.Object, rsStatus))
	case "statefulset":
		o.owner(gone)(ownedCount(e.Object, stsStatus))
	case "deployment":
		o.owner(gone)(ownedCount(e.Object, deployStatus))
	}
}

// child returns the function that notes what the object of key k adds
// to its controller's counts (c; ok false when it has none or cannot be
// read).
func (o *owed) child(k trace.Key, gone bool) func(c child, ok bool) {
	return func(c child, ok bool) {
		if gone || !ok {
			delete(o.children, k)
			return
		}
		o.children[k] = c
	}
}

// owner returns the function that notes what an owner's status counts
// (c.count, under c.owner's UID).
func (o *owed) owner(gone bool) func(c child, ok bool) {
	return func(c child, ok bool) {
		switch {
		case !ok:
		case gone:
			delete(o.owners, c.owner)
		default:
			o.owners[c.owner] = c
		}
	}
}

// Owed reports whether an owner's status does not count its children yet.
func (o *owed) Owed() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	sum := map[types.UID]replicaCount{}
	for _, c := range o.children {
		s := sum[c.owner]
		s.replicas += c.count.replicas
		s.ready += c.count.ready
		sum[c.owner] = s
	}
	for uid, status := range o.owners {
		if status.behind || sum[uid] != status.count {
			return true
		}
	}
	return false
}

// ownedCount decodes body as a T and returns what count makes of it.
func ownedCount[T any](body json.RawMessage, count func(*T) (child, bool)) (child, bool) {
	var obj T
	if len(body) == 0 || json.Unmarshal(body, &obj) != nil {
		return child{}, false
	}
	return count(&obj)
}

// podCount is what a pod adds to its StatefulSet's or ReplicaSet's
// counts. A StatefulSet counts each pod that has a phase, ready if it is
// running and ready, being deleted or not; a ReplicaSet only those neither
// being deleted nor ended, ready if ready. So a pod is counted by the
// owner's kind.
func podCount(body json.RawMessage) (child, bool) {
	return ownedCount(body, func(p *corev1.Pod) (child, bool) {
		ref := metav1.GetControllerOf(p)
		if ref == nil {
			return child{}, false
		}
		ready := podReady(p)
		var c replicaCount
		switch ref.Kind {
		case "StatefulSet":
			c = replicaCount{replicas: one(p.Status.Phase != ""), ready: one(p.Status.Phase == corev1.PodRunning && ready)}
		case "ReplicaSet":
			active := p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed
			c = replicaCount{replicas: one(active), ready: one(active && ready)}
		default:
			return child{}, false
		}
		return child{owner: ref.UID, count: c}, true
	})
}

// podReady reports whether the pod's Ready condition is true.
func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func one(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// rsCount is what a ReplicaSet adds to its Deployment's counts: its own.
func rsCount(rs *appsv1.ReplicaSet) (child, bool) {
	ref := metav1.GetControllerOf(rs)
	if ref == nil || ref.Kind != "Deployment" {
		return child{}, false
	}
	return child{owner: ref.UID, count: replicaCount{rs.Status.Replicas, rs.Status.ReadyReplicas}}, true
}

func rsStatus(rs *appsv1.ReplicaSet) (child, bool) {
	return ownerStatus(rs.ObjectMeta, rs.Status.ObservedGeneration, rs.Status.Replicas, rs.Status.ReadyReplicas)
}

func stsStatus(s *appsv1.StatefulSet) (child, bool) {
	return ownerStatus(s.ObjectMeta, s.Status.ObservedGeneration, s.Status.Replicas, s.Status.ReadyReplicas)
}

func deployStatus(d *appsv1.Deployment) (child, bool) {
	return ownerStatus(d.ObjectMeta, d.Status.ObservedGeneration, d.Status.Replicas, d.Status.ReadyReplicas)
}

// ownerStatus is what an owner's status counts, and whether it is behind
// the owner's spec.
func ownerStatus(m metav1.ObjectMeta, observed int64, replicas, ready int32) (child, bool) {
	return child{owner: m.UID, count: replicaCount{replicas, ready}, behind: observed < m.Generation}, m.UID != ""
}
