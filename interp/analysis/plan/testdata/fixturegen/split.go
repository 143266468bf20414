package main

import (
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// The keeper scenarios are one controller recorded twice: on an idle
// machine, and on a loaded one where a pause inside one reconcile is long
// enough to split its requests in two (issue 38).

var (
	keeperKey   = trace.Key{Kind: "keeper.example.com", Namespace: "default", Name: "kp"}
	keeperPVC   = trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-kp"}
	settingsKey = trace.Key{Kind: "configmap", Namespace: "default", Name: "keeper-settings"}
)

// keeperScript: a controller that keeps PVC data-kp for Keeper kp and,
// when kp is being deleted, records phase Deleting, deletes the PVC and
// removes its finalizer. Every reconcile of a deletion first reads its
// settings with a live get; the machine is busy, so it begins 600 ms after
// the deletion arrived. pause is how long that reconcile computes between
// recording Deleting and deleting the PVC: 5 ms idle, 161 ms loaded (more
// than the 100 ms burst gap of the old rule, less than twice the 100 ms
// the controller took to react to kp's creation, its learned pace). The
// workload creates kp, deletes it, and creates it again.
//
// With busy, another actor labels data-kp in the middle of the pause: a
// change from outside, which could have begun another reconcile, so the
// trace cannot tell whether the delete is still the same one.
//
// True plan: stale view at kp's deletionTimestamp when data-kp comes back;
// the restarted controller sees kp being deleted and deletes the new PVC
// (the shape of the datastore bug).
func (s *sim) keeperScript(pause int, busy bool) {
	s.startWatching(8181, keeperKey.Kind, "persistentvolumeclaim")
	s.tick(200)
	s.applyKeeper(0)
	s.tick(300)
	s.step(1, "delete", "start")
	s.mutate(keeperKey, func(o obj) {
		md(o)["deletionTimestamp"] = s.now.Format(time.RFC3339)
		md(o)["deletionGracePeriodSeconds"] = 0
	})
	s.step(1, "delete", "end")
	s.tick(600)
	s.read("get", settingsKey, 200)
	s.cPatch(keeperKey, func(o obj) { o["status"] = obj{"phase": "Deleting"} })
	s.tick(pause / 2)
	if busy {
		s.mutate(keeperPVC, func(o obj) { md(o)["labels"] = obj{"backup": "done"} })
	}
	s.tick(pause - pause/2)
	s.cDelete(keeperPVC)
	s.cPatch(keeperKey, func(o obj) { md(o)["finalizers"] = []any{} })
	s.remove(keeperKey)
	s.tick(300)
	s.applyKeeper(2)
	s.step(3, "settle", "start")
	s.tick(2000)
	s.step(3, "settle", "end")
}

// applyKeeper is a workload step creating kp, and the reconcile that
// makes its PVC (100 ms after kp arrived) and records phase Ready.
func (s *sim) applyKeeper(step int) {
	s.step(step, "apply", "start")
	s.create(keeperKey.Kind, obj{"apiVersion": "example.com/v1", "kind": "Keeper",
		"metadata": meta("kp", obj{"finalizers": []any{"keeper.example.com/cleanup"}}), "spec": obj{"size": "1Gi"}})
	s.deliver(keeperKey, "ADDED")
	s.step(step, "apply", "end")
	s.tick(100)
	s.cCreate("persistentvolumeclaim", obj{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
		"metadata": meta("data-kp", obj{"ownerReferences": s.owner(keeperKey, "example.com/v1", "Keeper")}),
		"spec":     obj{"resources": obj{"requests": obj{"storage": "1Gi"}}}})
	s.cPatch(keeperKey, func(o obj) { o["status"] = obj{"phase": "Ready"} })
}
