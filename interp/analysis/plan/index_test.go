package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestCurrent holds the stale pattern's recency rule: a write may have been
// based only on a state of an object that was still the newest when the
// reconcile that sent it may have begun, however many watches delivered it.
// Without a burst, that is when the write was sent; with one, when the
// answer to the last request of the burst before came back.
func TestCurrent(t *testing.T) {
	k := trace.Key{Kind: "datastore.example.com", Namespace: "default", Name: "ds"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	seq := int64(0)
	delivery := func(ms int, rv string) *item {
		seq++
		return &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: seq, Time: at(ms), ResourceVersion: rv}, Stream: observe.Delivered, Key: k}}
	}
	r1, r2, r3, r4, r4again, r5 := delivery(10, "1"), delivery(20, "2"), delivery(30, "3"), delivery(40, "4"), delivery(41, "4"), delivery(60, "5")
	list := []*item{r1, r2, r3, r4, r4again, r5}
	w := &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: 99, Time: at(50)}, Stream: observe.Written, Key: k}, burst: -1}
	for _, c := range []struct {
		burst bool
		n     *item
		want  bool
	}{
		{false, r1, false}, {false, r2, false}, {false, r3, false}, {false, r4, true}, {false, r4again, true}, {false, r5, false},
		// The burst starts at 45ms, and the answer to the request before
		// it came back at 25ms: its reconcile may have read the cache
		// from then on, when revision 2 was newest.
		{true, r1, false}, {true, r2, true}, {true, r3, true}, {true, r4, true}, {true, r5, false},
	} {
		ix := &index{delivByKey: map[trace.Key][]*item{k: list}}
		w.burst = -1
		if c.burst {
			ix.bursts = []burst{{start: at(2), end: at(25)}, {start: at(45), end: at(51), chain: 1}}
			w.burst = 1
		}
		if got := ix.current(c.n, w); got != c.want {
			t.Errorf("burst %v: current(revision %s delivered at %v) = %v, want %v", c.burst, c.n.Entry.ResourceVersion, c.n.at().Sub(t0), got, c.want)
		}
	}
}

// TestAcknowledged holds the rule that an accepted update carrying a
// resourceVersion shows what the controller had read. Take a state
// replaced before such an update by a reconcile of the write's subject. A
// later write of that subject was not based on it, however long the run
// of requests that the wire cannot split into reconciles. The update
// proves nothing when it carried no resourceVersion, failed, was made for
// another subject, or followed a live read of the object.
func TestAcknowledged(t *testing.T) {
	set := trace.Key{Kind: "statefulset.apps", Namespace: "default", Name: "web"}
	pod := trace.Key{Kind: "pod", Namespace: "default", Name: "web-4"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	n := &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: 1, Time: at(10), ResourceVersion: "5"}, Stream: observe.Delivered, Key: set}}
	r := &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: 2, Time: at(20), ResourceVersion: "6"}, Stream: observe.Delivered, Key: set}}
	update := func(code int, body string, root trace.Key) *item {
		return &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: 3, Time: at(30), Verb: "update", Subresource: "status", Code: code, Body: []byte(body)},
			Stream: observe.Written, Key: set, Verb: "update", Subresource: "status"}, root: root, burst: 0}
	}
	w := &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: 4, Time: at(40), Verb: "delete", Code: 200}, Stream: observe.Written, Key: pod, Verb: "delete"}, root: set, burst: 0}
	withRV := `{"metadata":{"name":"web","resourceVersion":"6"}}`
	for _, c := range []struct {
		name string
		u    *item
		read bool // a live get of the set between r and u
		want bool // n is current for w
	}{
		{"accepted update with a resourceVersion", update(200, withRV, set), false, false},
		{"no update", nil, false, true},
		{"no resourceVersion", update(200, `{"metadata":{"name":"web"}}`, set), false, true},
		{"conflict", update(409, withRV, set), false, true},
		{"another subject", update(200, withRV, trace.Key{Kind: "statefulset.apps", Namespace: "default", Name: "db"}), false, true},
		{"after a live read", update(200, withRV, set), true, true},
	} {
		// One burst from before n to after w: the window rule alone keeps
		// n.
		ix := &index{delivByKey: map[trace.Key][]*item{set: {n, r}}, writeByKey: map[trace.Key][]*item{},
			bursts: []burst{{start: at(5), end: at(41)}}}
		if c.u != nil {
			ix.writeByKey[set] = []*item{c.u}
		}
		if c.read {
			ix.reads = []read{{at: at(25), key: set}}
		}
		if got := ix.current(n, w); got != c.want {
			t.Errorf("%s: current = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReconciles holds how the trace is split into reconciles, from its
// structure alone. A pause with nothing but the echo of the controller's
// own write in it does not end one, however long; a change from outside
// does. A write carrying the resourceVersion of a state replaced before an
// earlier burst ended joins that burst's reconcile.
func TestReconciles(t *testing.T) {
	kp := trace.Key{Kind: "keeper.example.com", Namespace: "default", Name: "kp"}
	pvc := trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-kp"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	owned := `{"metadata":{"name":"data-kp","resourceVersion":"2","ownerReferences":[{"apiVersion":"example.com/v1","kind":"Keeper","name":"kp","uid":"u1","controller":true}]}}`
	obj := func(rv string) json.RawMessage {
		return json.RawMessage(`{"metadata":{"name":"kp","uid":"u1","resourceVersion":"` + rv + `"},"spec":{"v":"` + rv + `"}}`)
	}
	var entries []trace.Entry
	deliver := func(ms int, k trace.Key, event, rv string, o json.RawMessage) {
		entries = append(entries, trace.Entry{Seq: int64(len(entries) + 1), Time: t0.Add(time.Duration(ms) * time.Millisecond),
			Type: trace.Delivery, Key: &k, Event: event, ResourceVersion: rv, Object: o})
	}
	request := func(ms int, verb string, k trace.Key, body, resp json.RawMessage) {
		done := t0.Add(time.Duration(ms+2) * time.Millisecond)
		entries = append(entries, trace.Entry{Seq: int64(len(entries) + 1), Time: t0.Add(time.Duration(ms) * time.Millisecond),
			Type: trace.Request, Key: &k, Verb: verb, Code: 200, Body: body, Response: resp, Done: &done})
	}
	deliver(10, kp, "ADDED", "1", obj("1"))
	request(20, "create", pvc, json.RawMessage(owned), json.RawMessage(owned)) // #2, burst 0
	deliver(23, pvc, "ADDED", "2", json.RawMessage(owned))                     // its echo
	request(200, "patch", kp, json.RawMessage(`{"status":{}}`), obj("3"))      // #4: 178 ms later, still burst 0
	deliver(203, kp, "MODIFIED", "3", obj("3"))                                // its echo
	deliver(300, kp, "MODIFIED", "4", obj("4"))                                // #6, from outside
	request(301, "delete", pvc, nil, json.RawMessage(owned))                   // #7, burst 1
	deliver(400, kp, "MODIFIED", "5", obj("5"))                                // #8, from outside
	request(500, "update", kp, obj("4"), obj("6"))                             // #9, burst 2: carries 4, replaced at #8
	m, err := observe.Masks(nil)
	if err != nil {
		t.Fatal(err)
	}
	ix := newIndex(&trace.Trace{Entries: entries}, m)
	var got []string
	for _, b := range ix.bursts {
		got = append(got, fmt.Sprintf("#%d chain %d", b.first, ix.bursts[b.chain].first))
	}
	if want := []string{"#2 chain 2", "#7 chain 7", "#9 chain 9"}; !slices.Equal(got, want) {
		t.Errorf("bursts %v, want %v", got, want)
	}
	// #9 carries resourceVersion 4, which #8 replaced only after #7's
	// burst ended: its reconcile may have begun after #8, a reconcile of
	// its own. Carrying 3, which #6 replaced before #7's burst ended, it
	// was made from what #7's reconcile had read.
	entries[len(entries)-1].Body = obj("3")
	ix = newIndex(&trace.Trace{Entries: entries}, m)
	if c := ix.bursts[2].chain; c != 1 {
		t.Errorf("update carrying a state replaced before burst #7 ended: reconcile of burst %d, want 1 (%s)", c, ix.bursts[2].boundary)
	}
}

// TestEchoBeforeAnswer holds that the stale pattern keeps the same pairs
// whether the watch event of the controller's own write reached it before
// or after the write's answer. The two come on different connections, and
// which one the proxy passes on first is a race the machine's load
// decides: two reference runs of the datastore example differed by a plan
// on it.
func TestEchoBeforeAnswer(t *testing.T) {
	kp := trace.Key{Kind: "keeper.example.com", Namespace: "default", Name: "kp"}
	pod := trace.Key{Kind: "pod", Namespace: "default", Name: "kp-0"}
	pvc := trace.Key{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-kp"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	owned := func(name, rv string) json.RawMessage {
		return json.RawMessage(`{"metadata":{"name":"` + name + `","resourceVersion":"` + rv + `","ownerReferences":[{"apiVersion":"example.com/v1","kind":"Keeper","name":"kp","uid":"u1","controller":true}]}}`)
	}
	obj := func(rv string) json.RawMessage {
		return json.RawMessage(`{"metadata":{"name":"kp","uid":"u1","resourceVersion":"` + rv + `"},"status":{"v":"` + rv + `"}}`)
	}
	for _, echoMs := range []int{22, 26} { // the answer to #2 comes back at 24ms
		var entries []trace.Entry
		deliver := func(ms int, k trace.Key, event, rv string, o json.RawMessage) {
			entries = append(entries, trace.Entry{Time: at(ms), Type: trace.Delivery, Key: &k, Event: event, ResourceVersion: rv, Object: o})
		}
		request := func(ms, doneMs int, verb string, k trace.Key, body, resp json.RawMessage) {
			done := at(doneMs)
			entries = append(entries, trace.Entry{Time: at(ms), Type: trace.Request, Key: &k, Verb: verb, Subresource: "status", Code: 200, Body: body, Response: resp, Done: &done})
		}
		deliver(10, kp, "ADDED", "1", obj("1"))
		if echoMs < 24 { // the proxy records a request when its answer goes back
			deliver(echoMs, kp, "MODIFIED", "2", obj("2"))
			request(20, 24, "patch", kp, json.RawMessage(`{"status":{"v":"2"}}`), obj("2"))
		} else {
			request(20, 24, "patch", kp, json.RawMessage(`{"status":{"v":"2"}}`), obj("2"))
			deliver(echoMs, kp, "MODIFIED", "2", obj("2"))
		}
		deliver(30, pod, "ADDED", "3", owned("kp-0", "3")) // from outside: another reconcile
		request(31, 33, "patch", kp, json.RawMessage(`{"status":{"v":"4"}}`), obj("4"))
		deliver(40, pod, "MODIFIED", "5", owned("kp-0", "5")) // and another
		request(50, 52, "delete", pvc, nil, owned("data-kp", "6"))
		entries[len(entries)-1].Subresource = ""
		for i := range entries {
			entries[i].Seq = int64(i + 1)
		}
		m, err := observe.Masks(nil)
		if err != nil {
			t.Fatal(err)
		}
		ix := newIndex(&trace.Trace{Entries: entries}, m)
		echo := ix.delivByKey[kp][1]
		del := ix.writeByKey[pvc][0]
		if !ix.plausible(echo, del) {
			t.Errorf("echo of #2 delivered at %dms (answer at 24ms): stale pair with the delete dropped: %s", echoMs, ix.staleWhy(echo, del))
		}
	}
}
