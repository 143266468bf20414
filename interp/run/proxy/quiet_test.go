package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestRetriesOfFailedRequestsAreNotActivity holds the quiet rule: a
// request that repeats one that failed, and fails again, does not move
// Last; the first failure does, and so does any answer that succeeds
// (after which a failure is new again).
func TestRetriesOfFailedRequestsAreNotActivity(t *testing.T) {
	var a activity
	sig := call{sig: "update datastore/default/ds status", obj: "datastore/default/ds"}
	moved := func(do func()) bool {
		before := a.snapshot().Last
		time.Sleep(2 * time.Millisecond)
		do()
		return a.snapshot().Last.After(before)
	}
	req := func(code int) func() { return func() { a.beginRequest(sig, true); a.endRequest(sig, code, 0, false) } }
	if !moved(req(409)) {
		t.Error("a first failed write is activity")
	}
	for i := range 3 {
		if moved(req(409)) {
			t.Errorf("retry %d that failed again moved Last", i+1)
		}
	}
	get := call{sig: "get datastore/default/ds ", obj: "datastore/default/ds"}
	if !moved(func() { a.beginRequest(get, true); a.endRequest(get, 200, 0, false) }) {
		t.Error("another request is activity")
	}
	if !moved(req(200)) {
		t.Error("a retry that succeeds is activity")
	}
	if !moved(req(409)) {
		t.Error("a failure after a success is activity again")
	}
	if got := a.snapshot().InFlight; got != 0 {
		t.Errorf("in flight %d, want 0", got)
	}
}

// TestSettled holds the quiet decision. Anything under way keeps a
// controller busy, and so does a leader-election lock it waits for. Quiet
// for the window settles it whatever else holds. Quiet for the quiet
// bound settles it only with the cluster as quiet, no retry expected and
// none due. A zero quiet bound takes no evidence.
func TestSettled(t *testing.T) {
	now := time.Now()
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	b := Bounds{Quiet: 500 * time.Millisecond, Window: 2 * time.Second}
	for _, c := range []struct {
		name  string
		a     Activity
		moved time.Time
		b     Bounds
		want  bool
	}{
		{"quiet for the bound, cluster too", Activity{Last: ago(600 * time.Millisecond)}, ago(time.Second), b, true},
		{"quiet for less than the bound", Activity{Last: ago(400 * time.Millisecond)}, ago(time.Second), b, false},
		{"cluster changed within the bound", Activity{Last: ago(600 * time.Millisecond)}, ago(100 * time.Millisecond), b, false},
		{"cluster never seen", Activity{Last: ago(600 * time.Millisecond)}, time.Time{}, b, true},
		{"a request in flight", Activity{InFlight: 1, Last: ago(time.Hour)}, time.Time{}, b, false},
		{"an event held", Activity{Held: 1, Last: ago(time.Hour)}, time.Time{}, b, false},
		{"an event arriving", Activity{Arriving: 1, Last: ago(time.Hour)}, time.Time{}, b, false},
		{"a retry expected", Activity{Retries: 1, Last: ago(600 * time.Millisecond)}, time.Time{}, b, false},
		{"a retry due later", Activity{RetryAt: now.Add(time.Second), Last: ago(600 * time.Millisecond)}, time.Time{}, b, false},
		{"a retry that was due", Activity{RetryAt: ago(time.Millisecond), Last: ago(600 * time.Millisecond)}, time.Time{}, b, true},
		{"the window passed, a retry expected", Activity{Retries: 1, Last: ago(2 * time.Second)}, time.Time{}, b, true},
		{"the window passed, the cluster moving", Activity{Last: ago(2 * time.Second)}, now, b, true},
		{"the window passed, a retry due", Activity{RetryAt: now.Add(time.Minute), Last: ago(3 * time.Second)}, time.Time{}, b, true},
		{"no quiet bound: the window only", Activity{Last: ago(time.Second)}, time.Time{}, Bounds{Window: 2 * time.Second}, false},
		{"a bound above the window", Activity{Last: ago(time.Second)}, time.Time{}, Bounds{Quiet: 3 * time.Second, Window: 2 * time.Second}, false},
		{"waiting for a lock, quiet past the window", Activity{LockWait: now.Add(time.Second), Last: ago(time.Hour)}, ago(time.Hour), b, false},
		{"a lock wait that ended", Activity{LockWait: ago(time.Millisecond), Last: ago(time.Hour)}, ago(time.Hour), b, true},
	} {
		if got := Settled(c.a, c.moved, now, c.b); got != c.want {
			t.Errorf("%s: settled %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRetriesExpected holds what an answer announces. A conflict, a
// throttle or a server error makes a retry about the same object expected
// until a request about it comes, whatever its verb (a Retry-After also
// says when it is due). A 404 does not, nor a create answered 409: the
// object exists. A request about another object
// does not stand in for it.
func TestRetriesExpected(t *testing.T) {
	var a activity
	req := func(verb, obj string, code int, after time.Duration) {
		c := call{sig: verb + " " + obj + " ", obj: obj, verb: verb}
		a.beginRequest(c, true)
		a.endRequest(c, code, after, false)
	}
	want := func(what string, n int) {
		t.Helper()
		if got := a.snapshot().Retries; got != n {
			t.Fatalf("%s: %d retries expected, want %d", what, got, n)
		}
	}
	req("get", "datastore/default/gone", 404, 0)
	want("after a 404", 0)
	req("create", "statefulset/default/ds", 409, 0)
	want("after a create answered 409 (the object exists)", 0)
	req("update", "datastore/default/ds", 409, 0)
	req("get", "datastore/default/other", 200, 0)
	want("after a conflict and a request about another object", 1)
	a.beginRequest(call{sig: "patch datastore/default/ds ", obj: "datastore/default/ds"}, true)
	want("the retry came, as a patch", 0)
	a.endRequest(call{sig: "patch datastore/default/ds ", obj: "datastore/default/ds"}, 200, 0, false)
	before := time.Now()
	req("create", "pod/default/p", 429, 3*time.Second)
	s := a.snapshot()
	if s.Retries != 1 || s.RetryAt.Before(before.Add(3*time.Second)) || s.RetryAt.After(time.Now().Add(3*time.Second)) {
		t.Errorf("after a 429 with Retry-After 3: %d retries, due %s after the request, want 1, 3s", s.Retries, s.RetryAt.Sub(before))
	}
	req("get", "pod/default/q", 503, 0)
	want("after a 503", 2)
}

// TestRetryAfter reads the header as the API server writes it.
func TestRetryAfter(t *testing.T) {
	for h, want := range map[string]time.Duration{"": 0, "1": time.Second, "30": 30 * time.Second, "0": 0, "-2": 0, "Wed, 21 Oct 2026 07:28:00 GMT": 0} {
		if got := retryAfter(h); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", h, got, want)
		}
	}
}

// lockConfigMap is a ConfigMap lock of controller-runtime's older leader
// election: held by holder, renewed at renew, with data.
func lockConfigMap(holder, renew, rv, data string) string {
	rec := fmt.Sprintf(`{"holderIdentity":%q,"leaseDurationSeconds":15,"acquireTime":"2026-12-06T10:00:00Z","renewTime":%q,"leaderTransitions":0}`, holder, renew)
	ann, _ := json.Marshal(map[string]string{"control-plane.alpha.kubernetes.io/leader": rec})
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"op-lock","namespace":"default","resourceVersion":%q,"annotations":%s},"data":{"k":%q}}`, rv, ann, data)
}

// TestLockHeartbeatsAreNotActivity renews a ConfigMap lock through the
// proxy, as controller-runtime's older leader election does every two
// seconds (read it, write it back with only its renewTime moved): neither
// request moves Last; a write that changes the ConfigMap's data does. A
// read of the lock held by another process makes the controller wait
// (LockWait, within twice the record's lease) until it writes the lock.
func TestLockHeartbeatsAreNotActivity(t *testing.T) {
	var mu sync.Mutex
	stored := lockConfigMap("op-a", "2026-12-06T10:00:02Z", "10", "x")
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodPut {
			b, _ := io.ReadAll(r.Body)
			stored = string(b)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, stored)
	})
	p := startProxy(t, f, Hooks{}, nil)
	c := client(t, p)
	const path = "/api/v1/namespaces/default/configmaps/op-lock"
	moved := func(method, body string) bool {
		t.Helper()
		before := p.Activity().Last
		time.Sleep(2 * time.Millisecond)
		if code, _ := do(t, c, p, method, path, body); code != http.StatusOK {
			t.Fatalf("%s: %d", method, code)
		}
		return p.Activity().Last.After(before)
	}
	moved(http.MethodGet, "") // the proxy learns the lock's state
	if moved(http.MethodPut, lockConfigMap("op-a", "2026-12-06T10:00:04Z", "11", "x")) {
		t.Error("a renewal moved Last")
	}
	if moved(http.MethodGet, "") {
		t.Error("a read of the lock moved Last")
	}
	if w := p.Activity().LockWait; !w.After(time.Now().Add(25*time.Second)) || w.After(time.Now().Add(30*time.Second)) {
		t.Errorf("after reading a lock op-a holds: waiting until %s from now, want within 30s", time.Until(w))
	}
	if !moved(http.MethodPut, lockConfigMap("op-a", "2026-12-06T10:00:06Z", "12", "y")) {
		t.Error("a change of the ConfigMap's data did not move Last")
	}
	if w := p.Activity().LockWait; !w.IsZero() {
		t.Errorf("waiting for the lock until %s after writing it", w)
	}
	if !moved(http.MethodPut, lockConfigMap("op-b", "2026-12-06T10:00:08Z", "13", "y")) {
		t.Error("a new holder did not move Last")
	}
}
