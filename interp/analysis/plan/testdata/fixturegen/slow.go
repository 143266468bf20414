package main

import (
	"github.com/sievetool/sieve/interp/formats/trace"
)

// The certs and retry scenarios are controllers that compute between
// reading their cache and their first request, which the proxy cannot
// see: the shapes that made causality pruning drop true plans (issue 21).

var (
	certKey   = trace.Key{Kind: "certificate.example.com", Namespace: "default", Name: "web"}
	secretKey = trace.Key{Kind: "secret", Namespace: "default", Name: "web-tls"}
	poolKey   = trace.Key{Kind: "pool.example.com", Namespace: "default", Name: "db"}
)

// certsScript: a controller that keeps Secret web-tls holding a
// certificate for the commonName of Certificate web. Every reconcile
// reads the Certificate from its cache and generates the certificate
// first (200 ms), then compares: a Secret for another name is deleted (the
// next reconcile creates the new one), a missing one is created, and the
// status records the name. The workload renames the certificate twice in
// quick succession, so the second rename arrives while the reconcile that
// read the first is still generating: its delete is based on the state
// before the second rename, which the controller received before the
// delete was sent.
//
// True plan: stale view at the first rename (cn=b) when web-tls comes back
// (made for cn=c); the restarted controller deletes it and makes one for
// cn=b, then, once the view is lifted, again for cn=c: web-tls created 4
// and deleted 3 times, 2 and 1 in the reference.
func (s *sim) certsScript() {
	s.startWatching(6161, certKey.Kind, "secret")
	s.tick(200)
	s.step(0, "apply", "start")
	s.create(certKey.Kind, obj{"apiVersion": "example.com/v1", "kind": "Certificate",
		"metadata": meta("web", nil), "spec": obj{"commonName": "a.example.com"}})
	s.deliver(certKey, "ADDED")
	s.step(0, "apply", "end")
	s.certReconcile(0)
	s.tick(600)
	s.rename(1, "b.example.com")
	s.tick(3)
	// The reconcile reads cn=b from its cache and starts generating; the
	// second rename arrives 120 ms later.
	s.tick(120)
	s.rename(2, "c.example.com")
	s.tick(80)
	s.cDelete(secretKey)
	s.tick(3)
	s.certReconcile(0)
	s.step(3, "settle", "start")
	s.tick(2000)
	s.step(3, "settle", "end")
}

// certReconcile is a reconcile that finds web-tls missing: it generates
// the certificate, creates the Secret and records the name; then the
// reconcile the Secret's creation triggers, which finds nothing to do.
func (s *sim) certReconcile(int) {
	cn := s.objs[certKey]["spec"].(obj)["commonName"]
	s.tick(200)
	own := s.owner(certKey, "example.com/v1", "Certificate")
	s.cCreate("secret", obj{"apiVersion": "v1", "kind": "Secret",
		"metadata": meta("web-tls", obj{"ownerReferences": own, "annotations": obj{"example.com/cn": cn}}),
		"type":     "kubernetes.io/tls", "data": obj{"tls.crt": "Y2VydA==", "tls.key": "a2V5"}})
	s.cUpdate(certKey, "status", func(o obj) { o["status"] = obj{"commonName": cn, "phase": "Ready"} })
	s.tick(200)
	s.cUpdate(certKey, "status", func(o obj) { o["status"] = obj{"commonName": cn, "phase": "Ready"} })
}

// rename is a workload step changing the certificate's commonName.
func (s *sim) rename(step int, cn string) {
	s.step(step, "patch", "start")
	s.mutate(certKey, func(o obj) { o["spec"].(obj)["commonName"] = cn })
	s.step(step, "patch", "end")
}

// retryScript: a controller that scales a Pool by creating one ConfigMap
// per member. Each reconcile reads the Pool from its cache, plans for
// 150 ms, then records status.phase Scaling with the target, creates the
// missing members and records Ready. Its bug: a reconcile that finds phase
// Scaling assumes another one is creating the members, and waits. The
// workload scales the Pool from 1 to 2 while a reconcile that read the
// old Pool is planning: its status update is refused (409, its cache was
// behind) and it retries a second later, then scales.
//
// True plans: crash after the retried status update (Scaling, 2), or after
// creating member db-1: the restarted controller finds phase Scaling and
// never records Ready.
func (s *sim) retryScript() {
	s.startWatching(7171, poolKey.Kind, "configmap")
	s.tick(200)
	s.step(0, "apply", "start")
	s.create(poolKey.Kind, obj{"apiVersion": "example.com/v1", "kind": "Pool",
		"metadata": meta("db", nil), "spec": obj{"members": 1}})
	s.deliver(poolKey, "ADDED")
	s.step(0, "apply", "end")
	s.scaleReconcile(0, 1)
	s.tick(700)
	// A periodic resync starts a reconcile that reads members 1; the
	// workload scales to 2 while it plans.
	s.tick(60)
	s.step(1, "patch", "start")
	s.mutate(poolKey, func(o obj) { o["spec"].(obj)["members"] = 2 })
	s.step(1, "patch", "end")
	s.tick(90)
	s.cConflict(poolKey, func(o obj) { o["status"] = obj{"phase": "Ready", "members": 1} })
	s.tick(1000)
	s.scaleReconcile(1, 2)
	s.step(2, "settle", "start")
	s.tick(2000)
	s.step(2, "settle", "end")
}

// scaleReconcile plans, records Scaling, creates members from..n-1 and
// records Ready.
func (s *sim) scaleReconcile(from, n int) {
	s.tick(150)
	s.cUpdate(poolKey, "status", func(o obj) { o["status"] = obj{"phase": "Scaling", "members": n} })
	own := s.owner(poolKey, "example.com/v1", "Pool")
	for i := from; i < n; i++ {
		s.cCreate("configmap", obj{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": meta("db-"+string(rune('0'+i)), obj{"ownerReferences": own}),
			"data":     obj{"member": string(rune('0' + i))}})
	}
	s.cUpdate(poolKey, "status", func(o obj) { o["status"] = obj{"phase": "Ready", "members": n} })
}
