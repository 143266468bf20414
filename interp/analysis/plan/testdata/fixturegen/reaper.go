package main

import (
	"fmt"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

func podKey(i int) trace.Key {
	return trace.Key{Kind: "pod", Namespace: "default", Name: fmt.Sprintf("web-%d", i)}
}

func pvcKey(i int) trace.Key {
	return trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: fmt.Sprintf("data-web-%d", i)}
}

var webKey = trace.Key{Kind: "statefulset", Namespace: "default", Name: "web"}

// reaperScript: the StatefulSet is scaled 2 → 1 → 2; the controller marks
// each pod it sees, and deletes a pod's PVC when it sees the pod's
// deletionTimestamp.
func (s *sim) reaperScript() {
	s.startWatching(5151, "pod")
	s.tick(200)
	s.step(0, "apply", "start")
	s.create("statefulset", obj{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": meta("web", nil),
		"spec": obj{"replicas": 2, "selector": obj{"matchLabels": obj{"app": "web"}}}})
	s.step(0, "apply", "end")
	for i := range 2 {
		s.startPod(i, 1)
	}
	s.tick(500)
	s.scale(1, 1)
	s.tick(80)
	s.podGone(1)
	s.tick(400)
	s.read("list", trace.Key{Kind: "persistentvolumeclaim", Namespace: "default"}, 200)
	s.scale(3, 2)
	s.startPod(1, 2)
	s.tick(300)
	s.step(4, "settle", "start")
	s.tick(2000)
	s.step(4, "settle", "end")
}

// startPod is the StatefulSet controller making pod i and its PVC, the
// kubelet starting it, and the controller marking the pod.
func (s *sim) startPod(i, round int) {
	own := s.owner(webKey, "apps/v1", "StatefulSet")
	s.tick(5)
	s.create("persistentvolumeclaim", obj{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
		"metadata": meta(pvcKey(i).Name, obj{"labels": obj{"app": "web"}, "finalizers": []any{"kubernetes.io/pvc-protection"}}),
		"spec":     obj{"resources": obj{"requests": obj{"storage": "1Gi"}}}})
	s.tick(2)
	k, _ := s.create("pod", obj{"apiVersion": "v1", "kind": "Pod",
		"metadata": meta(podKey(i).Name, obj{"labels": obj{"app": "web"}, "ownerReferences": own}),
		"spec":     obj{"containers": []any{obj{"name": "web", "image": "nginx:1.27"}}, "volumes": []any{obj{"name": "data", "persistentVolumeClaim": obj{"claimName": pvcKey(i).Name}}}},
		"status":   obj{"phase": "Pending"}})
	s.deliver(k, "ADDED")
	s.tick(3)
	s.cPatch(k, func(o obj) { md(o)["annotations"] = obj{"reaper.sieve.dev/seen": "true"} })
	s.tick(150)
	s.mutate(k, func(o obj) {
		o["status"] = obj{"phase": "Running", "podIP": fmt.Sprintf("10.244.0.%d", 20+i+10*round),
			"startTime": s.now.Format(time.RFC3339)}
	})
	s.tick(3)
	// The controller marks the pod again on every event: a no-op.
	s.cPatch(k, func(o obj) { md(o)["annotations"] = obj{"reaper.sieve.dev/seen": "true"} })
}

// scale is a workload step scaling the StatefulSet to n.
func (s *sim) scale(step, n int) {
	s.step(step, "scale", "start")
	s.mutate(webKey, func(o obj) { o["spec"].(obj)["replicas"] = n })
	s.step(step, "scale", "end")
	if n < 2 {
		s.tick(10)
		s.mutate(podKey(1), func(o obj) {
			md(o)["deletionTimestamp"] = s.now.Add(30 * time.Second).Format(time.RFC3339)
			md(o)["deletionGracePeriodSeconds"] = 30
		})
		s.tick(4)
		s.cDelete(pvcKey(1))
		s.tick(2)
		// A second informer event for the same pod: the controller tries
		// again and gets NotFound... for a PVC already going away it
		// gets 200 with the same object; here the kubelet updates status.
		s.mutate(podKey(1), func(o obj) { o["status"].(obj)["phase"] = "Terminating" })
		s.tick(3)
		s.cDeleteMissing(pvcKey(1))
	}
}

// podGone is the kubelet finishing the pod and the PVC going with it.
func (s *sim) podGone(i int) {
	s.remove(podKey(i))
	s.tick(10)
	s.commit(pvcKey(i), "DELETED", s.objs[pvcKey(i)])
}

// cPatch is the controller patching an object (a merge patch made by f).
func (s *sim) cPatch(k trace.Key, f func(obj)) {
	s.tick(1)
	start := s.now
	patch := obj{"metadata": obj{}}
	f(patch)
	out, _ := s.mutate(k, f)
	s.request(start, "patch", k, "", patch, 200, out)
}

// cDeleteMissing is the controller deleting an object that is already
// being deleted: the API server answers 200 with the object unchanged, or,
// as here after the protection finalizer went, 404.
func (s *sim) cDeleteMissing(k trace.Key) {
	s.tick(1)
	start := s.now
	status := obj{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404}
	if o, ok := s.objs[k]; ok && md(o)["deletionTimestamp"] != nil {
		s.request(start, "delete", k, "", nil, 200, o)
		return
	}
	s.request(start, "delete", k, "", nil, 404, status)
}
