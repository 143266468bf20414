package proxy

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestRelist ends the controller's open watch as an API server ends one
// it can no longer serve: an ERROR event, 410 Expired, then the end of the
// stream. The error is not recorded as a delivery, the stream is gone and
// the upstream is not blamed for the cut.
func TestRelist(t *testing.T) {
	a := &watchAPI{events: make(chan string, 10)}
	f := newFakeAPI(t, a.handle)
	sink := &memSink{}
	p := startProxy(t, f, Hooks{}, sink)
	if n := p.Relist(); n != 0 {
		t.Errorf("Relist with no watch open ended %d, want 0", n)
	}
	body := openWatch(t, p, "")
	a.events <- watchEvent("ADDED", "a", "1")
	if got := readEvents(t, body, 1); got[0] != "ADDED a@1" {
		t.Fatalf("delivered %v", got)
	}
	if n := p.Relist(); n != 1 {
		t.Fatalf("Relist ended %d watches, want 1", n)
	}
	if n := len(p.Streams()); n != 0 {
		t.Errorf("%d streams open right after the relist, want 0", n)
	}
	dec := json.NewDecoder(body)
	var ev struct {
		Type   string
		Object struct {
			Code   int
			Reason string
		}
	}
	if err := dec.Decode(&ev); err != nil {
		t.Fatalf("after the relist: %v", err)
	}
	if ev.Type != "ERROR" || ev.Object.Code != 410 || ev.Object.Reason != "Expired" {
		t.Errorf("the watch ended with %+v, want ERROR 410 Expired", ev)
	}
	if err := dec.Decode(&ev); err != io.EOF {
		t.Errorf("the watch goes on after the error: %v", err)
	}
	if d := sink.await(t, trace.Delivery, 1); len(d) != 1 {
		t.Errorf("deliveries recorded: %+v, want ADDED a@1 only", d)
	}
	if err := p.UpstreamErr(); err != nil {
		t.Errorf("the relist blamed the upstream: %v", err)
	}
}
