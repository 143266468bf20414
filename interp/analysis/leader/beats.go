package leader

import (
	"sync"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Beats tells heartbeats from progress in a stream of object states (the
// cluster history, the watch events of a proxy): it remembers the latest
// state of each lock object it was shown, and compares the next with it
// (Heartbeat). It keeps only objects that carry a record. The zero value
// is ready; it is safe for concurrent use.
type Beats struct {
	mu   sync.Mutex
	last map[trace.Key][]byte
}

// Beat reports whether obj, the new state (JSON) of the object key, is a
// heartbeat of the state last shown, and remembers it. A nil obj is the
// object's deletion: progress.
func (b *Beats) Beat(key trace.Key, obj []byte) bool {
	if !Lockable(key.Kind) {
		return false
	}
	if _, ok := rawRecord(key.Kind, obj); !ok {
		b.forget(key)
		return false
	}
	b.mu.Lock()
	old := b.last[key]
	if b.last == nil {
		b.last = map[trace.Key][]byte{}
	}
	b.last[key] = obj
	b.mu.Unlock()
	return old != nil && Heartbeat(key.Kind, old, obj)
}

func (b *Beats) forget(key trace.Key) {
	b.mu.Lock()
	delete(b.last, key)
	b.mu.Unlock()
}

// Entry reports whether e, a history entry or a watch event delivered to
// the controller, is a heartbeat: a change of a lock object that only
// renews its record (Beat). Every other entry, and every entry of another
// type, is not. Show a Beats one stream: the history, or the deliveries.
func (b *Beats) Entry(e trace.Entry) bool {
	if (e.Type != trace.History && e.Type != trace.Delivery) || e.Key == nil {
		return false
	}
	if e.Event == "DELETED" {
		return b.Beat(*e.Key, nil)
	}
	return b.Beat(*e.Key, e.Object)
}
