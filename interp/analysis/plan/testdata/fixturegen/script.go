package main

import (
	"fmt"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

const crKind = "datastorecluster.example.com"

var (
	crKey    = trace.Key{Kind: crKind, Namespace: "default", Name: "ds"}
	stsKey   = trace.Key{Kind: "statefulset", Namespace: "default", Name: "ds"}
	leaseKey = trace.Key{Kind: "lease", Namespace: "default", Name: "datastore-leader"}
	clientSv = trace.Key{Kind: "service", Namespace: "default", Name: "ds-client"}
)

func meta(name string, extra obj) obj {
	m := obj{"name": name, "namespace": "default"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func (s *sim) owner(k trace.Key, apiVersion, kind string) []any {
	return []any{obj{"apiVersion": apiVersion, "kind": kind, "name": k.Name, "uid": md(s.objs[k])["uid"],
		"controller": true, "blockOwnerDeletion": true}}
}

func (s *sim) script() {
	s.startWatching(4242, crKind, "statefulset", "service", "configmap", "pod")
	s.leaderElection()
	s.tick(300)
	s.applyCR(0)
	s.tick(5)
	s.reconcileCreate("Creating")
	s.tick(200)
	s.statefulSetController(1)
	s.tick(20)
	s.reconcileSettling()
	s.tick(150)
	s.kubelet()
	s.tick(10)
	s.reconcileReady()
	s.tick(1000)
	s.renewLease()
	s.step(1, "wait", "start")
	s.step(1, "wait", "end")
	s.deleteCR(2)
	s.tick(5)
	s.reconcileDelete()
	s.tick(50)
	s.garbageCollect()
	s.tick(20)
	s.read("get", crKey, 404)
	s.step(3, "wait", "start")
	s.tick(500)
	s.step(3, "wait", "end")
	s.renewLease()
	s.tick(300)
	s.applyCR(4)
	s.tick(5)
	s.reconcileCreate("Creating")
	s.tick(200)
	s.statefulSetController(2)
	s.tick(20)
	s.reconcileSettling()
	s.tick(150)
	s.kubelet()
	s.tick(10)
	s.reconcileReady()
	s.tick(800)
	s.podFlap()
	s.step(5, "settle", "start")
	s.tick(1500)
	s.renewLease()
	s.tick(500)
	s.step(5, "settle", "end")
}

func (s *sim) leaderElection() {
	s.read("get", leaseKey, 404)
	s.cCreate("lease", obj{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
		"metadata": meta("datastore-leader", nil),
		"spec": obj{"holderIdentity": "datastore-7c9f", "leaseDurationSeconds": 15,
			"acquireTime": s.now.Format(time.RFC3339Nano), "renewTime": s.now.Format(time.RFC3339Nano)}})
}

func (s *sim) renewLease() {
	s.read("get", leaseKey, 200)
	s.cUpdate(leaseKey, "", func(o obj) {
		o["spec"].(obj)["renewTime"] = s.now.Add(time.Millisecond).Format(time.RFC3339Nano)
	})
}

func (s *sim) applyCR(i int) {
	s.step(i, "apply", "start")
	s.tick(2)
	s.create(crKind, obj{"apiVersion": "example.com/v1", "kind": "DatastoreCluster",
		"metadata": meta("ds", obj{"generation": 1}),
		"spec":     obj{"replicas": 2, "storage": "1Gi", "image": "datastore:3.8"}})
	s.deliver(crKey, "ADDED")
	s.step(i, "apply", "end")
}

func (s *sim) deleteCR(i int) {
	s.step(i, "delete", "start")
	s.tick(2)
	s.remove(crKey)
	s.step(i, "delete", "end")
}

func (s *sim) event(reason string) {
	s.cCreate("event", obj{"apiVersion": "v1", "kind": "Event",
		"metadata":       obj{"generateName": "ds.", "namespace": "default"},
		"involvedObject": obj{"kind": "DatastoreCluster", "name": "ds", "namespace": "default"},
		"reason":         reason, "message": "datastore cluster " + reason, "type": "Normal",
		"firstTimestamp": s.now.Format(time.RFC3339)})
}

func (s *sim) reconcileCreate(phase string) {
	s.cUpdate(crKey, "", func(o obj) { md(o)["finalizers"] = []any{"example.com/pvc-cleanup"} })
	own := s.owner(crKey, "example.com/v1", "DatastoreCluster")
	s.cCreate("configmap", obj{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": meta("ds-config", obj{"ownerReferences": own}),
		"data":     obj{"zoo.cfg": "tickTime=2000\ninitLimit=10\nsyncLimit=5\n"}})
	s.cCreate("service", obj{"apiVersion": "v1", "kind": "Service",
		"metadata": meta("ds-headless", obj{"ownerReferences": own}),
		"spec":     obj{"clusterIP": "None", "selector": obj{"app": "ds"}, "ports": []any{obj{"name": "peer", "port": 2888}}}})
	s.cCreate("service", obj{"apiVersion": "v1", "kind": "Service",
		"metadata": meta("ds-client", obj{"ownerReferences": own}),
		"spec":     obj{"clusterIP": "10.96.12.34", "selector": obj{"app": "ds"}, "ports": []any{obj{"name": "client", "port": 2181}}}})
	s.cCreate("statefulset", obj{"apiVersion": "apps/v1", "kind": "StatefulSet",
		"metadata": meta("ds", obj{"ownerReferences": own, "generation": 1}),
		"spec": obj{"replicas": 2, "serviceName": "ds-headless", "selector": obj{"matchLabels": obj{"app": "ds"}},
			"template":             obj{"metadata": obj{"labels": obj{"app": "ds"}}, "spec": obj{"containers": []any{obj{"name": "datastore", "image": "datastore:3.8"}}}},
			"volumeClaimTemplates": []any{obj{"metadata": obj{"name": "data"}, "spec": obj{"resources": obj{"requests": obj{"storage": "1Gi"}}}}}},
		"status": obj{"replicas": 0}})
	s.event("Created")
	s.cUpdate(crKey, "status", func(o obj) { o["status"] = obj{"phase": phase, "readyReplicas": 0} })
}

// statefulSetController is kube-controller-manager making pods and PVCs.
func (s *sim) statefulSetController(round int) {
	own := s.owner(stsKey, "apps/v1", "StatefulSet")
	for i := range 2 {
		s.tick(3)
		s.create("persistentvolumeclaim", obj{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
			"metadata": meta(fmt.Sprintf("data-ds-%d", i), obj{"labels": obj{"app": "ds"}, "finalizers": []any{"kubernetes.io/pvc-protection"}}),
			"spec":     obj{"accessModes": []any{"ReadWriteOnce"}, "resources": obj{"requests": obj{"storage": "1Gi"}}},
			"status":   obj{"phase": "Pending"}})
		s.tick(2)
		k, _ := s.create("pod", obj{"apiVersion": "v1", "kind": "Pod",
			"metadata": meta(fmt.Sprintf("ds-%d", i), obj{"labels": obj{"app": "ds"}, "ownerReferences": own}),
			"spec":     obj{"nodeName": "sieve-node", "containers": []any{obj{"name": "datastore", "image": "datastore:3.8"}}},
			"status":   obj{"phase": "Pending"}})
		s.deliver(k, "ADDED")
	}
	s.tick(5)
	s.mutate(stsKey, func(o obj) { o["status"] = obj{"replicas": 2, "currentReplicas": 2, "readyReplicas": 0} })
	_ = round
}

// reconcileSettling is the controller reacting to its own creations: a
// no-op StatefulSet update, a conflict on a Service, a no-op status write.
func (s *sim) reconcileSettling() {
	s.cUpdate(stsKey, "", func(o obj) { o["spec"].(obj)["replicas"] = 2 })
	s.cConflict(clientSv, func(o obj) { md(o)["labels"] = obj{"app": "ds"} })
	s.cUpdate(crKey, "status", func(o obj) { o["status"] = obj{"phase": "Creating", "readyReplicas": 0} })
}

// kubelet starts the pods and binds the PVCs.
func (s *sim) kubelet() {
	for i := range 2 {
		s.tick(4)
		pvc := trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: fmt.Sprintf("data-ds-%d", i)}
		s.mutate(pvc, func(o obj) {
			o["spec"].(obj)["volumeName"] = fmt.Sprintf("pv-data-ds-%d", i)
			o["status"] = obj{"phase": "Bound"}
		})
		pod := trace.Key{Kind: "pod", Namespace: "default", Name: fmt.Sprintf("ds-%d", i)}
		s.mutate(pod, func(o obj) {
			o["status"] = obj{"phase": "Running", "podIP": fmt.Sprintf("10.244.0.%d", 10+i),
				"conditions": []any{obj{"type": "Ready", "status": "True"}}}
		})
	}
	s.tick(5)
	s.mutate(stsKey, func(o obj) { o["status"] = obj{"replicas": 2, "currentReplicas": 2, "readyReplicas": 2} })
}

func (s *sim) reconcileReady() {
	s.cUpdate(crKey, "status", func(o obj) { o["status"] = obj{"phase": "Ready", "readyReplicas": 2} })
	s.event("Ready")
}

// reconcileDelete is the controller cleaning up after its CR is marked
// for deletion: it deletes the PVCs, then drops its finalizer.
func (s *sim) reconcileDelete() {
	s.read("list", trace.Key{Kind: "persistentvolumeclaim", Namespace: "default"}, 200)
	for i := range 2 {
		s.cDelete(trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: fmt.Sprintf("data-ds-%d", i)})
	}
	s.event("Deleted")
	s.tick(1)
	start := s.now
	body := copyObj(s.objs[crKey])
	md(body)["finalizers"] = []any{}
	s.change(crKey, "MODIFIED", body) // the last finalizer is gone: the object goes
	out := s.commit(crKey, "DELETED", s.objs[crKey])
	s.deliver(crKey, "DELETED")
	s.request(start, "update", crKey, "", body, 200, out)
}

// garbageCollect is kube-controller-manager deleting what the CR owned,
// then the pods, then the released PVCs.
func (s *sim) garbageCollect() {
	for _, k := range []trace.Key{
		{Kind: "configmap", Namespace: "default", Name: "ds-config"},
		{Kind: "service", Namespace: "default", Name: "ds-headless"},
		clientSv, stsKey,
	} {
		s.tick(3)
		s.remove(k)
	}
	for i := range 2 {
		s.tick(10)
		pod := trace.Key{Kind: "pod", Namespace: "default", Name: fmt.Sprintf("ds-%d", i)}
		s.mutate(pod, func(o obj) {
			md(o)["deletionTimestamp"] = s.now.Format(time.RFC3339)
			md(o)["deletionGracePeriodSeconds"] = 30
		})
		s.tick(40)
		s.remove(pod)
	}
	for i := range 2 {
		s.tick(5)
		pvc := trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: fmt.Sprintf("data-ds-%d", i)}
		s.commit(pvc, "DELETED", s.objs[pvc])
	}
}

// podFlap is pod ds-1 failing its readiness probe for a moment; the
// controller reports it in the CR's status both times.
func (s *sim) podFlap() {
	pod := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-1"}
	ready := func(v string) func(obj) {
		return func(o obj) { o["status"].(obj)["conditions"] = []any{obj{"type": "Ready", "status": v}} }
	}
	s.mutate(pod, ready("False"))
	s.tick(3)
	s.cUpdate(crKey, "status", func(o obj) { o["status"] = obj{"phase": "Degraded", "readyReplicas": 1} })
	s.tick(400)
	s.mutate(pod, ready("True"))
	s.tick(3)
	s.cUpdate(crKey, "status", func(o obj) { o["status"] = obj{"phase": "Ready", "readyReplicas": 2} })
}

// startWatching records the controller's start as process pid, then, for
// each kind, its list and watch of the default namespace.
func (s *sim) startWatching(pid int, kinds ...string) {
	s.add(trace.Entry{Type: trace.Controller, What: "start", PID: pid})
	for _, kind := range kinds {
		s.read("list", trace.Key{Kind: kind, Namespace: "default"}, 200)
		s.tick(1)
		s.add(trace.Entry{Type: trace.Request, Key: &trace.Key{Kind: kind, Namespace: "default"}, Verb: "watch", Code: 200})
	}
}
