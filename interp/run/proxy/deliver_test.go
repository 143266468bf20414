package proxy

import (
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// slowController is a watch's writer that takes its time: the controller
// has an event once Write returns (had).
type slowController struct{ had time.Time }

func (c *slowController) Write(b []byte) (int, error) {
	time.Sleep(20 * time.Millisecond)
	c.had = time.Now()
	return len(b), nil
}

func (c *slowController) Flush() {}

// TestDeliveryTimedWhenHanded: a delivered event is recorded at the time
// it was handed to the controller, not once it was written: a write the
// controller sends on the event comes later than the delivery in the
// trace. Timed once written, on a loaded machine an event came after the
// write it caused, and the plan made from the trace took that write for
// one on the state before.
func TestDeliveryTimedWhenHanded(t *testing.T) {
	sink := &memSink{}
	c := &slowController{}
	s := &Stream{p: &Proxy{opts: Options{Sink: sink}}, w: c, f: c}
	s.deliverLocked(&Event{Type: "MODIFIED", Key: trace.Key{Kind: "configmap", Namespace: "default", Name: "a"}, ResourceVersion: "7",
		Object: []byte(`{"metadata":{"name":"a","namespace":"default","resourceVersion":"7"}}`)})
	es := sink.entries()
	if len(es) != 1 || es[0].Type != trace.Delivery {
		t.Fatalf("recorded %+v, want one delivery", es)
	}
	if at := es[0].Time; !at.Before(c.had) {
		t.Errorf("delivery timed %s after the controller had the event", at.Sub(c.had))
	}
}
