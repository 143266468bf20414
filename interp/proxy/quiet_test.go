package proxy

import (
	"testing"
	"time"
)

// TestRetriesOfFailedRequestsAreNotActivity holds the quiet rule: a
// request that repeats one that failed, and fails again, does not move
// Last; the first failure does, and so does any answer that succeeds
// (after which a failure is new again).
func TestRetriesOfFailedRequestsAreNotActivity(t *testing.T) {
	var a activity
	const sig = "update datastore/default/ds status"
	moved := func(do func()) bool {
		before := a.snapshot().Last
		time.Sleep(2 * time.Millisecond)
		do()
		return a.snapshot().Last.After(before)
	}
	req := func(code int) func() { return func() { a.beginRequest(sig); a.endRequest(sig, code) } }
	if !moved(req(409)) {
		t.Error("a first failed write is activity")
	}
	for i := range 3 {
		if moved(req(409)) {
			t.Errorf("retry %d that failed again moved Last", i+1)
		}
	}
	if !moved(func() { a.beginRequest("get datastore/default/ds "); a.endRequest("get datastore/default/ds ", 200) }) {
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
