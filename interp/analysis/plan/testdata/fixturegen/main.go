// Command fixturegen writes the fixture traces of interp/analysis/plan, as sieve's
// recorder would write them. Each is a script of what a controller does,
// with the noise real traces carry.
//
// datastore: the reference run of a datastore-like controller (in the style
// of the ZooKeeper operator) driven by a recreate workload, with
// leader-election lease renewals, no-op updates, a conflict, Events with
// generated names and status updates.
//
// podreaper: a controller that deletes a pod's PVC when it sees the pod's
// deletionTimestamp (the unobserved-state shape), driven by a StatefulSet
// scaled down and up again; it owns nothing, so no kind is primary.
//
// certs and retry: controllers that compute for a while between reading
// their cache and their first request (see slow.go), for the recall
// fixtures; each scenario's comment names its true plans.
//
// keeper, keeper-split and keeper-busy: one reconcile recorded idle, with
// a pause that splits its requests in two, and with a change from outside
// during that pause (see split.go), for the load fixtures.
//
//	go run ./interp/analysis/plan/testdata/fixturegen datastore > interp/analysis/plan/testdata/datastore.trace.jsonl
//	go run ./interp/analysis/plan/testdata/fixturegen podreaper > interp/analysis/plan/testdata/podreaper.trace.jsonl
//	go run ./interp/analysis/plan/testdata/fixturegen certs > interp/analysis/plan/testdata/certs.trace.jsonl
//	go run ./interp/analysis/plan/testdata/fixturegen retry > interp/analysis/plan/testdata/retry.trace.jsonl
//	go run ./interp/analysis/plan/testdata/fixturegen keeper > interp/analysis/plan/testdata/keeper.trace.jsonl
//	go run ./interp/analysis/plan/testdata/fixturegen keeper-split > interp/analysis/plan/testdata/keeper-split.trace.jsonl
//	go run ./interp/analysis/plan/testdata/fixturegen keeper-busy > interp/analysis/plan/testdata/keeper-busy.trace.jsonl
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

type obj = map[string]any

type sim struct {
	w    *trace.Writer
	now  time.Time
	rv   int
	uid  int
	objs map[trace.Key]obj
	last map[trace.Key]obj // the final state of deleted objects
	// watched says which kinds the controller watches.
	watched  map[string]bool
	workload string
	spec     string
}

func main() {
	s := &sim{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), rv: 1000, objs: map[trace.Key]obj{}, last: map[trace.Key]obj{}}
	s.w = trace.NewWriter(os.Stdout, nil)
	scenario := "datastore"
	if len(os.Args) > 1 {
		scenario = os.Args[1]
	}
	h := trace.Header{Trace: trace.Version, Test: "buggy", Spec: "specs/" + scenario + "/" + scenario + ".sieve", Run: 1, Started: s.now}
	s.spec = h.Spec
	hdr, _ := json.Marshal(h)
	fmt.Println(string(hdr))
	switch scenario {
	case "datastore":
		s.watched = map[string]bool{
			"datastorecluster.example.com": true, "statefulset": true, "service": true,
			"configmap": true, "pod": true,
		}
		s.script()
	case "podreaper":
		s.watched = map[string]bool{"pod": true}
		s.workload = "scale"
		s.reaperScript()
	case "certs":
		s.watched = map[string]bool{certKey.Kind: true, "secret": true}
		s.workload = "rename"
		s.certsScript()
	case "retry":
		s.watched = map[string]bool{poolKey.Kind: true, "configmap": true}
		s.workload = "scale"
		s.retryScript()
	case "keeper", "keeper-split", "keeper-busy":
		s.watched = map[string]bool{keeperKey.Kind: true, "persistentvolumeclaim": true}
		s.workload = "recreate"
		pause := 5
		if scenario != "keeper" {
			pause = 161
		}
		s.keeperScript(pause, scenario == "keeper-busy")
	default:
		fmt.Fprintf(os.Stderr, "fixturegen: unknown scenario %q (want datastore, podreaper, certs, retry, keeper, keeper-split or keeper-busy)\n", scenario)
		os.Exit(2)
	}
}

func (s *sim) tick(ms int) { s.now = s.now.Add(time.Duration(ms) * time.Millisecond) }

func (s *sim) add(e trace.Entry) {
	e.Time = s.now
	if _, err := s.w.Add(e); err != nil {
		panic(err)
	}
}

func raw(o obj) json.RawMessage {
	if o == nil {
		return nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	return b
}

func copyObj(o obj) obj {
	var c obj
	_ = json.Unmarshal(raw(o), &c)
	return c
}

func md(o obj) obj { return o["metadata"].(obj) }

func keyOf(kind string, o obj) trace.Key {
	return trace.Key{Kind: kind, Namespace: "default", Name: md(o)["name"].(string)}
}

// commit stores o as the server's state of k, bumping its resourceVersion,
// and records the history entry.
func (s *sim) commit(k trace.Key, event string, o obj) obj {
	s.rv++
	o = copyObj(o)
	md(o)["resourceVersion"] = strconv.Itoa(s.rv)
	if event == "DELETED" {
		delete(s.objs, k)
		s.last[k] = o
	} else {
		s.objs[k] = o
	}
	s.tick(1)
	s.add(trace.Entry{Type: trace.History, Key: &k, Event: event, ResourceVersion: strconv.Itoa(s.rv), Object: raw(o)})
	return o
}

// create makes a new object on the server.
func (s *sim) create(kind string, o obj) (trace.Key, obj) {
	o = copyObj(o)
	m := md(o)
	if gn, ok := m["generateName"].(string); ok && m["name"] == nil {
		s.uid++
		m["name"] = gn + []string{"x7k2p", "q9dzm", "b4vt8", "m2hcw", "r8fnl"}[s.uid%5]
	}
	s.uid++
	m["namespace"] = "default"
	m["uid"] = fmt.Sprintf("0b6f%04d-1d2e-4c1a-9d7e-5f0e2a%06d", s.uid, s.uid)
	m["creationTimestamp"] = s.now.Format(time.RFC3339)
	k := keyOf(kind, o)
	return k, s.commit(k, "ADDED", o)
}

// deliver sends the controller the current (or, for a deletion, the last)
// state of k, if it watches the kind.
func (s *sim) deliver(k trace.Key, event string) {
	if !s.watched[k.Kind] {
		return
	}
	s.tick(1)
	o := s.objs[k]
	if event == "DELETED" {
		o = s.last[k]
	}
	s.add(trace.Entry{Type: trace.Delivery, Key: &k, Event: event, ResourceVersion: md(o)["resourceVersion"].(string), Object: raw(o)})
}

// change commits a change and delivers it.
func (s *sim) change(k trace.Key, event string, o obj) obj {
	o = s.commit(k, event, o)
	s.deliver(k, event)
	return o
}

// mutate applies f to a copy of k's state and commits it if anything
// changed; it reports whether something did.
func (s *sim) mutate(k trace.Key, f func(obj)) (obj, bool) {
	cur := s.objs[k]
	next := copyObj(cur)
	f(next)
	if string(raw(next)) == string(raw(cur)) {
		return cur, false
	}
	return s.change(k, "MODIFIED", next), true
}

// request records a controller request sent at start, as the proxy does:
// once the answer is back (so after the watch events the request caused),
// with the time it was sent.
func (s *sim) request(start time.Time, verb string, k trace.Key, sub string, body obj, code int, resp obj) {
	s.now = s.now.Add(2 * time.Millisecond)
	done := s.now
	e := trace.Entry{Type: trace.Request, Key: &k, Verb: verb, Subresource: sub, Body: raw(body), Code: code, Response: raw(resp), Done: &done}
	e.Time = start
	if _, err := s.w.Add(e); err != nil {
		panic(err)
	}
}

// cCreate is the controller creating an object.
func (s *sim) cCreate(kind string, o obj) trace.Key {
	s.tick(1)
	start := s.now
	k, out := s.create(kind, o)
	s.deliver(k, "ADDED")
	rk := k
	if _, gen := md(o)["generateName"]; gen {
		rk.Name = ""
	}
	s.request(start, "create", rk, "", o, 201, out)
	return k
}

// cUpdate is the controller updating an object (sub "status" for the
// status subresource); a no-op update leaves the server state unchanged.
func (s *sim) cUpdate(k trace.Key, sub string, f func(obj)) {
	s.tick(1)
	start := s.now
	body := copyObj(s.objs[k])
	f(body)
	out, _ := s.mutate(k, f)
	s.request(start, "update", k, sub, body, 200, out)
}

// cConflict is the controller updating an object from a stale copy.
func (s *sim) cConflict(k trace.Key, f func(obj)) {
	s.tick(1)
	body := copyObj(s.objs[k])
	md(body)["resourceVersion"] = "1001"
	f(body)
	status := obj{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Conflict", "code": 409,
		"message": "Operation cannot be fulfilled on " + k.Kind + "s \"" + k.Name + "\": the object has been modified; please apply your changes to the latest version and try again"}
	s.request(s.now, "update", k, "", body, 409, status)
}

// remove deletes an object, or marks it for deletion when it has
// finalizers.
func (s *sim) remove(k trace.Key) obj {
	o := s.objs[k]
	if fin, _ := md(o)["finalizers"].([]any); len(fin) > 0 {
		out, _ := s.mutate(k, func(x obj) {
			md(x)["deletionTimestamp"] = s.now.Format(time.RFC3339)
			md(x)["deletionGracePeriodSeconds"] = 0
		})
		return out
	}
	out := s.commit(k, "DELETED", o)
	s.deliver(k, "DELETED")
	return out
}

// cDelete is the controller deleting an object.
func (s *sim) cDelete(k trace.Key) {
	s.tick(1)
	start := s.now
	out := s.remove(k)
	s.request(start, "delete", k, "", nil, 200, out)
}

// read records a get or list.
func (s *sim) read(verb string, k trace.Key, code int) {
	s.tick(1)
	var resp obj
	if verb == "get" && code == 200 {
		resp = s.objs[k]
	}
	if code == 404 {
		resp = obj{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404}
	}
	s.request(s.now, verb, k, "", nil, code, resp)
}

// step records a workload step starting or ending.
func (s *sim) step(i int, kind, phase string) {
	s.tick(1)
	w := s.workload
	if w == "" {
		w = "recreate"
	}
	s.add(trace.Entry{Type: trace.Step, Workload: w, Index: i, Phase: phase, Src: fmt.Sprintf("%s:%d:3", s.spec, 20+i), What: kind})
}
