package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Event is one watch event on its way to the controller.
type Event struct {
	// Type is ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.
	Type string
	// Key is the object's key; its Name is empty for BOOKMARK and ERROR.
	Key trace.Key
	// ResourceVersion is the object's metadata.resourceVersion.
	ResourceVersion string
	// Object is the object in JSON, as the API server sent it.
	Object json.RawMessage
	// Received is when the proxy read the event from the upstream.
	Received time.Time
	// beat says the event only shows a leader-election lock renewed: its
	// delivery is no activity.
	beat bool
}

// Verdict is what the Filter hook decides for an event.
type Verdict int

// Verdicts.
const (
	// Deliver sends the event now, unless events of the same object are
	// held on the stream: then it is held behind them, keeping the order
	// of each object's events.
	Deliver Verdict = iota
	// Drop discards the event; the controller never sees it.
	Drop
	// Hold keeps the event on its stream until Release or Discard.
	Hold
	// Supersede discards the events of the same object held on the stream
	// and delivers this one: hold-and-coalesce, the controller sees the
	// later state and never the held one.
	Supersede
	// Gone delivers the event as Deliver does, then ends the watch as an
	// API server ends one it can no longer serve from the client's
	// resourceVersion (its history compacted past it): an ERROR event,
	// 410 Expired, "too old resource version". A client-go reflector then
	// lists again and watches from the new list (Relist, for one stream).
	Gone
)

// Stream is an open watch of the controller.
type Stream struct {
	// Request is the watch request.
	Request *Request

	p    *Proxy
	mu   sync.Mutex
	w    io.Writer
	f    http.Flusher
	held []*Event
	dead bool
	// end stops the stream's reading of the upstream (Relist).
	end func()
	// passed is the latest resourceVersion the stream has been passed
	// (Shown).
	passed uint64
}

// streams is the set of open watch streams.
type streams struct {
	mu  sync.Mutex
	set map[*Stream]bool
	act *activity
}

func (ss *streams) init(act *activity) { ss.set, ss.act = map[*Stream]bool{}, act }

func (ss *streams) open(s *Stream) {
	ss.mu.Lock()
	ss.set[s] = true
	ss.mu.Unlock()
	ss.act.add(0, 0, 1)
}

// close forgets the stream; its held events are lost with it (the
// controller's next watch starts from its own last resourceVersion).
func (ss *streams) close(s *Stream) {
	ss.mu.Lock()
	delete(ss.set, s)
	ss.mu.Unlock()
	s.mu.Lock()
	n := len(s.held)
	s.held, s.dead = nil, true
	s.mu.Unlock()
	ss.act.add(0, -n, -1)
}

func (ss *streams) list() []*Stream {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]*Stream, 0, len(ss.set))
	for s := range ss.set {
		out = append(out, s)
	}
	return out
}

// Streams returns the open watch streams, less those that ended (Relist,
// or a controller that went away) while their request finishes.
func (p *Proxy) Streams() []*Stream {
	var out []*Stream
	for _, s := range p.streams.list() {
		s.mu.Lock()
		if !s.dead {
			out = append(out, s)
		}
		s.mu.Unlock()
	}
	return out
}

// Relist ends every open watch of the controller as an API server ends a
// watch whose resourceVersion it no longer has: with an ERROR event, 410
// Gone, reason Expired (a watch cache compacted past it, or restarted).
// A client-go reflector then lists again (after its backoff, 0.8 to 1.6
// s) and watches from the new list. Its informer delivers every object
// anew, as an update for those it had. That is what a periodic resync
// delivers, from the API server instead of the cache. Events held on the
// streams are lost with them (call it when none is held on purpose). It
// returns how many watches it ended: 0 when the controller watches
// nothing through the proxy.
func (p *Proxy) Relist() int {
	n := 0
	for _, s := range p.streams.list() {
		if s.expire() {
			n++
		}
	}
	return n
}

// relistMessage is the message of the Expired error Relist sends.
const relistMessage = "sieve proxy: watch ended so that the controller lists again (a relist, to check convergence)"

// expire sends the Expired error on the stream and ends it; false when
// it had ended already.
func (s *Stream) expire() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.expireLocked(relistMessage)
}

// goneMessage is the message of the Expired error a Gone verdict sends
// after the event of resourceVersion rv, worded as the API server's watch
// cache words it.
func goneMessage(rv string) string {
	return "too old resource version: " + rv + injected
}

// expireLocked sends an Expired error with msg on the stream and ends it;
// false when it had ended already.
func (s *Stream) expireLocked(msg string) bool {
	if s.dead {
		return false
	}
	s.deliverLocked(&Event{Type: "ERROR", Object: statusBody(http.StatusGone, "Expired", msg), Received: time.Now()})
	s.dead = true
	if s.end != nil {
		s.end()
	}
	return true
}

// Release ends the holding of the events for which match returns true, on
// every stream. It delivers of each object only its newest held state, in
// the order of those states: the controller never sees the states in
// between, as after a relist (hold-and-coalesce). An object it did not
// have before the first held event gets ADDED. One it had gets MODIFIED
// (even when it was deleted and created again meanwhile) or DELETED. One
// created and deleted meanwhile gets nothing. An event stays held if
// an earlier held event of the same object stays held. Release returns
// how many events it delivered.
func (p *Proxy) Release(match func(s *Stream, ev *Event) bool) int {
	return p.sweep(match, true)
}

// Discard drops the held events for which match returns true and returns
// how many.
func (p *Proxy) Discard(match func(s *Stream, ev *Event) bool) int {
	return p.sweep(match, false)
}

func (p *Proxy) sweep(match func(*Stream, *Event) bool, deliver bool) int {
	n := 0
	for _, s := range p.streams.list() {
		n += s.sweep(match, deliver)
	}
	return n
}

func (s *Stream) sweep(match func(*Stream, *Event) bool, deliver bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keep, out []*Event
	kept := map[trace.Key]bool{}
	for _, ev := range s.held {
		if kept[ev.Key] || !match(s, ev) {
			keep, kept[ev.Key] = append(keep, ev), true
			continue
		}
		out = append(out, ev)
	}
	s.held = keep
	s.p.act.add(0, -len(out), 0)
	if !deliver {
		return len(out)
	}
	out = coalesce(out)
	for _, ev := range out {
		s.deliverLocked(ev)
	}
	return len(out)
}

// coalesce keeps of each object's events in evs the newest state, at the
// place of its last event, typed by what the watcher had before the
// first (see Release). Bookmarks coalesce to the last one.
func coalesce(evs []*Event) []*Event {
	first := map[trace.Key]*Event{}
	last := map[trace.Key]int{}
	for i, ev := range evs {
		if first[ev.Key] == nil {
			first[ev.Key] = ev
		}
		last[ev.Key] = i
	}
	var out []*Event
	for i, ev := range evs {
		if last[ev.Key] != i {
			continue
		}
		had := first[ev.Key].Type != "ADDED"
		switch ev.Type {
		case "ADDED", "MODIFIED":
			c := *ev
			c.Type = "ADDED"
			if had {
				c.Type = "MODIFIED"
			}
			ev = &c
		case "DELETED":
			if !had {
				continue
			}
		}
		out = append(out, ev)
	}
	return out
}

// HeldFor reports how many events of the object are held on all streams.
func (p *Proxy) HeldFor(k trace.Key) int {
	n := 0
	for _, s := range p.streams.list() {
		s.mu.Lock()
		for _, ev := range s.held {
			if ev.Key == k {
				n++
			}
		}
		s.mu.Unlock()
	}
	return n
}

// WaitReleased blocks until no event of the object is held or ctx ends. A
// Before hook uses it to make reads of a hidden object wait.
func (p *Proxy) WaitReleased(ctx context.Context, k trace.Key) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for p.HeldFor(k) > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// offer passes an event through the stale view and the filter.
func (s *Stream) offer(ev *Event) {
	stale := s.p.stale.holds(ev)
	v := Deliver
	if f := s.p.hook().Filter; f != nil && !stale {
		v = f(s, ev)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case stale || v == Hold:
		s.holdLocked(ev)
	case v == Drop:
	case v == Supersede:
		s.dropHeldLocked(ev.Key)
		s.deliverLocked(ev)
	case v == Gone:
		s.deliverOrHoldLocked(ev)
		s.expireLocked(goneMessage(ev.ResourceVersion))
	default:
		s.deliverOrHoldLocked(ev)
	}
}

// deliverOrHoldLocked delivers the event, or holds it behind the held
// events of the same object, keeping the order of each object's events.
func (s *Stream) deliverOrHoldLocked(ev *Event) {
	if s.hasHeldLocked(ev.Key) {
		s.holdLocked(ev)
		return
	}
	s.deliverLocked(ev)
}

func (s *Stream) holdLocked(ev *Event) {
	if s.dead {
		return
	}
	s.held = append(s.held, ev)
	s.p.act.add(0, 1, 0)
}

func (s *Stream) hasHeldLocked(k trace.Key) bool {
	if k.Name == "" {
		return false
	}
	for _, h := range s.held {
		if h.Key == k {
			return true
		}
	}
	return false
}

func (s *Stream) dropHeldLocked(k trace.Key) {
	keep := s.held[:0]
	for _, h := range s.held {
		if h.Key != k {
			keep = append(keep, h)
		}
	}
	n := len(s.held) - len(keep)
	s.held = keep
	s.p.act.add(0, -n, 0)
}

// deliverLocked writes the event to the controller and records it, timed
// when it is handed to the controller: a write the controller makes on it
// is sent later (the injector's filter timed it earlier still). Timed once
// written, on a loaded machine it came after the write it caused, and a
// trace read later took that write for one on the state before.
func (s *Stream) deliverLocked(ev *Event) {
	if s.dead {
		return
	}
	at := time.Now()
	var buf bytes.Buffer
	buf.WriteString(`{"type":`)
	t, _ := json.Marshal(ev.Type)
	buf.Write(t)
	buf.WriteString(`,"object":`)
	buf.Write(ev.Object)
	buf.WriteString("}\n")
	if _, err := s.w.Write(buf.Bytes()); err != nil {
		s.dead = true
		return
	}
	s.f.Flush()
	if !ev.beat {
		s.p.act.touch()
	}
	s.p.recordDelivery(ev, at)
}

// recordDelivery records event ev, delivered at at.
func (p *Proxy) recordDelivery(ev *Event, at time.Time) {
	switch ev.Type {
	case "ADDED", "MODIFIED", "DELETED":
	default:
		return
	}
	key := ev.Key
	p.record(trace.Entry{
		Time: at, Type: trace.Delivery, Key: &key, Event: ev.Type,
		ResourceVersion: ev.ResourceVersion, Object: ev.Object,
	})
}

// wireEvent is a watch event in the JSON stream.
type wireEvent struct {
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

// objectMeta is what the proxy reads from an object.
type objectMeta struct {
	Metadata struct {
		Namespace       string `json:"namespace"`
		Name            string `json:"name"`
		ResourceVersion string `json:"resourceVersion"`
	} `json:"metadata"`
}

// newEvent builds an Event for an object of the stream's kind.
func newEvent(kind, typ string, obj json.RawMessage) *Event {
	var m objectMeta
	_ = json.Unmarshal(obj, &m)
	ev := &Event{Type: typ, Object: obj, ResourceVersion: m.Metadata.ResourceVersion, Received: time.Now()}
	ev.Key = trace.Key{Kind: kind}
	if typ != "BOOKMARK" && typ != "ERROR" {
		ev.Key.Namespace, ev.Key.Name = m.Metadata.Namespace, m.Metadata.Name
	}
	return ev
}
