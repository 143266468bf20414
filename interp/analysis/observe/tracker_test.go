package observe

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestSent observes a write as sent: its diff is the request body against
// the view when it was sent, its occurrences count apart from answered
// writes, and it leaves the view as it was (the answered write changes it).
func TestSent(t *testing.T) {
	tr := NewTracker(nil)
	k := trace.Key{Kind: "configmap", Namespace: "default", Name: "c"}
	t0 := time.Unix(100, 0)
	at := func(s int) *time.Time { x := t0.Add(time.Duration(s) * time.Second); return &x }
	cm := func(v string) json.RawMessage {
		return json.RawMessage(`{"metadata":{"name":"c","namespace":"default","resourceVersion":"1"},"data":{"v":"` + v + `"}}`)
	}
	tr.Observe(&trace.Entry{Type: trace.Request, Verb: "get", Key: &k, Time: t0, Done: at(1), Code: 200, Response: cm("a")})
	upd := &trace.Entry{Type: trace.Request, Verb: "update", Key: &k, Time: *at(2), Body: cm("b")}
	s, ok := tr.Sent(upd)
	if !ok || s.Stream != Sent || s.Occurrence != 1 {
		t.Fatalf("sent: ok %v, stream %s, occurrence %d", ok, s.Stream, s.Occurrence)
	}
	if got := s.Diff.String(); got != `{"prev":{"data":{"v":"a"}},"cur":{"data":{"v":"b"}}}` {
		t.Errorf("diff: %s", got)
	}
	// Sent again (a retry), still against the view as it was: the same
	// signature, the next occurrence.
	again, _ := tr.Sent(&trace.Entry{Type: trace.Request, Verb: "update", Key: &k, Time: *at(3), Body: cm("b")})
	if again.Signature != s.Signature || again.Occurrence != 2 {
		t.Errorf("sent again: signature %q occurrence %d, want %q and 2", again.Signature, again.Occurrence, s.Signature)
	}
	upd.Code, upd.Done, upd.Response = 200, at(4), cm("b")
	w, _ := tr.Observe(upd)
	if w.Stream != Written || w.Occurrence != 1 {
		t.Errorf("answered: stream %s occurrence %d, want written 1", w.Stream, w.Occurrence)
	}
	if _, ok := tr.Sent(&trace.Entry{Type: trace.Request, Verb: "get", Key: &k, Time: *at(5)}); ok {
		t.Error("a get was observed as a sent write")
	}
}

// TestSentWritable diffs a sent update over what it can write: the
// object's status is left out of an update of the object (the API server
// ignores it), and all but the status out of an update of its status, so
// a body whose status the controller's view did not hold gives the same
// diff as one whose status it did.
func TestSentWritable(t *testing.T) {
	tr := NewTracker(nil)
	k := trace.Key{Kind: "datastore", Namespace: "default", Name: "d"}
	t0 := time.Unix(100, 0)
	obj := func(fin, ready string) json.RawMessage {
		return json.RawMessage(`{"metadata":{"name":"d","namespace":"default","finalizers":[` + fin + `]},"spec":{"replicas":3},"status":{"ready":` + ready + `}}`)
	}
	tr.Observe(&trace.Entry{Type: trace.Request, Verb: "get", Key: &k, Time: t0, Done: &t0, Code: 200, Response: obj(`"f"`, "1")})
	for _, c := range []struct {
		sub, ready, fin, want string
	}{
		{"", "1", ``, `{"prev":{"metadata":{"finalizers":["f"]}},"cur":{"metadata":{"finalizers":[]}}}`},
		{"", "3", ``, `{"prev":{"metadata":{"finalizers":["f"]}},"cur":{"metadata":{"finalizers":[]}}}`},
		{"status", "3", ``, `{"prev":{"status":{"ready":1}},"cur":{"status":{"ready":3}}}`},
	} {
		s, _ := tr.Sent(&trace.Entry{Type: trace.Request, Verb: "update", Subresource: c.sub, Key: &k, Time: t0.Add(time.Second), Body: obj(c.fin, c.ready)})
		if got := s.Diff.String(); got != c.want {
			t.Errorf("update %q with status ready %s: diff %s, want %s", c.sub, c.ready, got, c.want)
		}
	}
}

// TestSentBasisByVersion: a write based on a state the controller was
// delivered is diffed against that state, named by the resourceVersion
// its body carries, even when the delivery's time was taken after the
// write was sent. Under load a recreated Datastore's ADDED event was
// timed 0.7ms after the controller sent the update that added its
// finalizer: the time alone took the update for a write on nothing, so the
// plan made from it never fired where the event was timed first. A body
// with no version still goes by time.
func TestSentBasisByVersion(t *testing.T) {
	k := trace.Key{Kind: "datastore", Namespace: "default", Name: "d"}
	t0 := time.Unix(100, 0)
	obj := func(rv, fin string) json.RawMessage {
		return json.RawMessage(`{"metadata":{"name":"d","namespace":"default","resourceVersion":"` + rv + `","finalizers":[` + fin + `]},"spec":{"replicas":3}}`)
	}
	added := func(at time.Time) *trace.Entry {
		return &trace.Entry{Type: trace.Delivery, Key: &k, Event: "ADDED", ResourceVersion: "142", Time: at, Object: obj("142", "")}
	}
	const want = `{"prev":{"metadata":{"finalizers":[]}},"cur":{"metadata":{"finalizers":["f"]}}}` // all of it

	for _, c := range []struct {
		name    string
		addedAt time.Time // when the ADDED event was timed
		bodyRV  string
		want    string // the diff, or (a write on nothing) how it begins
	}{
		{"event timed before the write", t0.Add(-time.Millisecond), "142", want},
		{"event timed after the write", t0.Add(time.Millisecond), "142", want},
		{"no version, event timed after", t0.Add(time.Millisecond), "", `{"prev":{},"cur":{`},
	} {
		tr := NewTracker(nil)
		tr.Observe(added(c.addedAt))
		s, _ := tr.Sent(&trace.Entry{Type: trace.Request, Verb: "update", Key: &k, Time: t0, Body: obj(c.bodyRV, `"f"`)})
		if got := s.Diff.String(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: diff %s, want %s", c.name, got, c.want)
		}
	}
}

// TestStaleAnswerKeepsView: the answer to a write that the server applied
// before a change the controller was delivered (a no-op status patch
// answered at the version before the workload's scale-down), timed after
// that delivery, does not take the controller's view back: the next patch
// is diffed against the delivered state. On a loaded machine the ring
// controller's decommission patch was diffed against the older answer,
// its diff took in the scale-down, and the rerun's trigger, which must
// match the diff exactly, never fired.
func TestStaleAnswerKeepsView(t *testing.T) {
	k := trace.Key{Kind: "ring", Namespace: "default", Name: "r"}
	t0 := time.Unix(100, 0)
	at := func(ms int) *time.Time { x := t0.Add(time.Duration(ms) * time.Millisecond); return &x }
	ring := func(rv string, replicas int, status string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"metadata":{"name":"r","namespace":"default","resourceVersion":%q},"spec":{"replicas":%d},"status":{%s}}`, rv, replicas, status))
	}
	m, err := Masks(&ir.Test{}) // the built-in mask, as plans and triggers diff
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracker(m)
	tr.Observe(&trace.Entry{Type: trace.Delivery, Key: &k, Event: "MODIFIED", ResourceVersion: "208", Time: *at(0), Object: ring("208", 3, `"nodes":"a b c"`)})
	tr.Observe(&trace.Entry{Type: trace.Delivery, Key: &k, Event: "MODIFIED", ResourceVersion: "209", Time: *at(10), Object: ring("209", 2, `"nodes":"a b c"`)})
	tr.Observe(&trace.Entry{Type: trace.Request, Verb: "patch", Subresource: "status", Key: &k, Time: *at(1), Done: at(11), Code: 200,
		Body: json.RawMessage(`{"status":{"nodes":"a b c"}}`), Response: ring("208", 3, `"nodes":"a b c"`)})
	w, _ := tr.Observe(&trace.Entry{Type: trace.Request, Verb: "patch", Subresource: "status", Key: &k, Time: *at(15), Done: at(20), Code: 200,
		Body: json.RawMessage(`{"status":{"decommissioning":"c"}}`), Response: ring("210", 2, `"nodes":"a b c","decommissioning":"c"`)})
	const want = `{"prev":{"status":{}},"cur":{"status":{"decommissioning":"c"}}}`
	if got := w.Diff.String(); got != want {
		t.Errorf("decommission patch: diff %s, want %s", got, want)
	}
}
