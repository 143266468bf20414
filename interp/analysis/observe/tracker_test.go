package observe

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
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
