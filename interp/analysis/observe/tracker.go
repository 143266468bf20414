package observe

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// Stream names where an observation was made.
type Stream string

// Streams.
const (
	// Delivered is a watch event delivered to (or, during injection, on its
	// way to) the controller.
	Delivered Stream = "delivered"
	// Cluster is a change in the cluster history.
	Cluster Stream = "cluster"
	// Written is a write the controller made.
	Written Stream = "written"
	// Sent is a write as the controller sends it, before the API server
	// has seen it (Tracker.Sent).
	Sent Stream = "sent"
)

// Observed is a trace entry as the Tracker understood it.
type Observed struct {
	Entry  *trace.Entry
	Stream Stream
	// Key is the object; for a create with a generated name, its name is
	// taken from the response.
	Key trace.Key
	// Verb is create, update or delete for events, the request verb for
	// writes.
	Verb        string
	Subresource string
	// Object is the normalised object after the change (nil when gone or
	// unknown); Prev the normalised state before it, as this stream knew it.
	Object map[string]any
	Prev   map[string]any
	// Diff is the slim diff for updates (events) and update/patch writes.
	Diff *planfile.Diff
	// Signature identifies equal changes; Occurrence counts them, this one
	// included, from the start of the stream.
	Signature  string
	Occurrence int
}

// OK reports whether a write succeeded (2xx). Events are always OK.
func (o *Observed) OK() bool {
	if o.Stream != Written {
		return true
	}
	return o.Entry.Code >= 200 && o.Entry.Code < 300
}

// Tracker follows a trace entry by entry and computes, for each event and
// write, the normalised object, the slim diff against the state before and
// the signature with its occurrence. Generation and the trigger engine both
// use it, so that a plan's trigger matches at injection exactly what it was
// made from. Each stream keeps its own previous states. Deliveries diff
// against the previous delivery of the key, and history against the
// previous history entry. Writes diff against the controller's view
// (deliveries, its own reads and the responses to its writes) as it stood
// when the write was sent, so that a watch echo recorded before the write
// does not hide it; or against the state of the view its body's
// resourceVersion names (basis).
type Tracker struct {
	masks *mask.Matcher
	prev  map[Stream]map[trace.Key]map[string]any
	view  map[trace.Key][]learned
	seen  map[string]int
}

// learned is a state of an object as the controller learned it, and when:
// a delivery's time, or when the answer to a get or a write reached it;
// rv is its resourceVersion ("" when gone or not known).
type learned struct {
	at  time.Time
	rv  string
	obj map[string]any
}

// viewDepth is how many learned states are kept per object: enough to find
// the state a write was based on when the watch echo of that write was
// recorded before the write itself.
const viewDepth = 4

// NewTracker returns a tracker that masks objects with m (nil: no masks).
func NewTracker(m *mask.Matcher) *Tracker {
	return &Tracker{
		masks: m,
		prev:  map[Stream]map[trace.Key]map[string]any{Delivered: {}, Cluster: {}},
		view:  map[trace.Key][]learned{},
		seen:  map[string]int{},
	}
}

// Observe takes the next entry. It returns false for entries that are
// neither events nor writes (reads still update the controller's view).
func (t *Tracker) Observe(e *trace.Entry) (Observed, bool) {
	switch e.Type {
	case trace.Delivery:
		return t.event(e, Delivered)
	case trace.History:
		return t.event(e, Cluster)
	case trace.Request:
		if IsWrite(e.Verb) {
			return t.write(e)
		}
		t.read(e)
	}
	return Observed{}, false
}

// eventVerb maps a watch event type to a verb ("" for BOOKMARK, ERROR).
func eventVerb(event string) string {
	switch event {
	case "ADDED":
		return "create"
	case "MODIFIED":
		return "update"
	case "DELETED":
		return "delete"
	}
	return ""
}

// IsWrite reports whether a request verb writes.
func IsWrite(verb string) bool {
	switch verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

// event handles a delivery or history entry.
func (t *Tracker) event(e *trace.Entry, s Stream) (Observed, bool) {
	verb := eventVerb(e.Event)
	if verb == "" || e.Key == nil {
		return Observed{}, false
	}
	o := Observed{Entry: e, Stream: s, Key: *e.Key, Verb: verb}
	o.Prev = t.prev[s][o.Key]
	if verb != "delete" {
		o.Object = t.normalise(o.Key, e.Object)
	}
	if verb == "update" {
		o.Diff = SlimDiff(o.Prev, o.Object)
	}
	t.set(s, o.Key, o.Object)
	if s == Delivered {
		rv := e.ResourceVersion
		if rv == "" {
			rv = Version(e.Object)
		}
		t.learn(o.Key, e.Time, rv, o.Object)
	}
	t.count(&o)
	return o, true
}

// write handles a write request.
func (t *Tracker) write(e *trace.Entry) (Observed, bool) {
	if e.Key == nil {
		return Observed{}, false
	}
	o := Observed{Entry: e, Stream: Written, Key: *e.Key, Verb: e.Verb, Subresource: e.Subresource}
	ok := e.Code >= 200 && e.Code < 300
	if ok && len(e.Response) > 0 {
		o.Object = t.normalise(o.Key, e.Response)
	} else if e.Verb != "delete" && e.Verb != "deletecollection" {
		o.Object = t.normalise(o.Key, e.Body)
	}
	if o.Key.Name == "" && e.Verb == "create" {
		o.Key.Name = metaString(o.Object, "name")
	}
	o.Prev = t.basis(o.Key, e.Time, Version(e.Body))
	if e.Verb == "update" || e.Verb == "patch" {
		o.Diff = SlimDiff(o.Prev, o.Object)
	}
	if ok {
		t.afterWrite(o)
	}
	t.count(&o)
	return o, true
}

// Sent observes write e as the controller sends it, before the API server
// has answered (or seen) it, which is when a fault that answers the write
// in the server's place must decide: its object is the request body, its
// diff that body against the controller's view when it was sent (for an
// update, over the fields it can write: see writable; for a patch, the
// patch itself as the diff's cur), and its
// signature and occurrence count in a stream of their own, Sent. It does
// not change the view (Observe of the answered write does). It returns
// false for an entry that is not a write.
func (t *Tracker) Sent(e *trace.Entry) (Observed, bool) {
	if e.Type != trace.Request || !IsWrite(e.Verb) || e.Key == nil {
		return Observed{}, false
	}
	o := Observed{Entry: e, Stream: Sent, Key: *e.Key, Verb: e.Verb, Subresource: e.Subresource}
	if e.Verb != "delete" && e.Verb != "deletecollection" {
		o.Object = t.normalise(o.Key, e.Body)
	}
	if o.Key.Name == "" && e.Verb == "create" {
		o.Key.Name = metaString(o.Object, "name")
	}
	o.Prev = t.basis(o.Key, e.Time, Version(e.Body))
	switch e.Verb {
	case "update":
		o.Diff = SlimDiff(writable(o.Prev, o.Subresource), writable(o.Object, o.Subresource))
	case "patch":
		if len(o.Object) > 0 {
			o.Diff = &planfile.Diff{Cur: o.Object}
		}
	}
	t.count(&o)
	return o, true
}

// writable is the part of obj an update of subresource sub can change: its
// status for the status subresource, all but its status for the object
// itself (the API server ignores a body's status there when the kind has
// a status subresource). What the controller's view held of the other
// part is a guess from the trace, and a sent update's diff, which a plan's
// trigger must match exactly, does not depend on it: a Datastore's
// finalizer removed is the same write whatever status its body carried.
func writable(obj map[string]any, sub string) map[string]any {
	if obj == nil || (sub != "" && sub != "status") {
		return obj
	}
	w := make(map[string]any, len(obj))
	for k, v := range obj {
		if (k == "status") == (sub == "status") {
			w[k] = v
		}
	}
	return w
}

// afterWrite updates the controller's view with a successful write.
func (t *Tracker) afterWrite(o Observed) {
	at := doneTime(o.Entry)
	switch {
	case o.Verb == "deletecollection":
	case o.Verb == "delete" && metaString(o.Object, "deletionTimestamp") == "":
		t.learn(o.Key, at, "", nil)
	default:
		t.learn(o.Key, at, Version(o.Entry.Response), o.Object)
	}
}

// read updates the controller's view with the answer to a get.
func (t *Tracker) read(e *trace.Entry) {
	if e.Verb != "get" || e.Key == nil || e.Key.Name == "" {
		return
	}
	if e.Code >= 200 && e.Code < 300 {
		t.learn(*e.Key, doneTime(e), Version(e.Response), t.normalise(*e.Key, e.Response))
	} else if e.Code == 404 {
		t.learn(*e.Key, doneTime(e), "", nil)
	}
}

// doneTime is when a request's answer reached the controller.
func doneTime(e *trace.Entry) time.Time {
	if e.Done != nil {
		return *e.Done
	}
	return e.Time
}

// learn records a state of k, at version rv, in the controller's view
// (nil: gone). A state older than one the view has (stale) is no news:
// the answer to a write the server applied before a change the controller
// was already delivered (a no-op patch answered at the version before it,
// timed after the delivery) does not take the controller's view back.
func (t *Tracker) learn(k trace.Key, at time.Time, rv string, obj map[string]any) {
	if obj != nil && t.stale(k, rv) {
		return
	}
	v := append(t.view[k], learned{at: at, rv: rv, obj: obj})
	if len(v) > viewDepth {
		v = v[len(v)-viewDepth:]
	}
	t.view[k] = v
}

// stale reports whether the view of k has, since the object was last
// gone, a state at a later resourceVersion than rv. Versions that are not
// numbers (not etcd revisions) cannot be compared: never stale.
func (t *Tracker) stale(k trace.Key, rv string) bool {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return false
	}
	v := t.view[k]
	for i := len(v) - 1; i >= 0 && v[i].obj != nil; i-- {
		if m, err := strconv.ParseUint(v[i].rv, 10, 64); err == nil && m > n {
			return true
		}
	}
	return false
}

// basis returns the state of k a write sent at sent was based on (nil if
// none): the state it names, when its body carries a resourceVersion (rv)
// the controller learned; otherwise the newest state learned before sent.
// The version is the evidence: the time a delivery was recorded may come
// after the controller had it and wrote on it (under load, a Datastore's
// finalizer added 0.7ms before its ADDED event's time was taken for a
// write on nothing, and the plan made from it never fired).
func (t *Tracker) basis(k trace.Key, sent time.Time, rv string) map[string]any {
	v := t.view[k]
	for i := len(v) - 1; i >= 0 && rv != ""; i-- {
		if v[i].rv == rv {
			return v[i].obj
		}
	}
	for i := len(v) - 1; i >= 0; i-- {
		if v[i].at.Before(sent) {
			return v[i].obj
		}
	}
	return nil
}

// set records the state of a key in one stream.
func (t *Tracker) set(s Stream, k trace.Key, obj map[string]any) {
	if obj == nil {
		delete(t.prev[s], k)
		return
	}
	t.prev[s][k] = obj
}

// count sets the signature and occurrence of an observation.
func (t *Tracker) count(o *Observed) {
	outcome := "ok"
	if !o.OK() {
		outcome = "failed"
	}
	o.Signature = string(o.Stream) + " " + outcome + " " + o.Verb + " " + o.Subresource + " " + o.Key.String() + " " + o.Diff.String()
	t.seen[o.Signature]++
	o.Occurrence = t.seen[o.Signature]
}

// normalise parses and redacts an object of key k.
func (t *Tracker) normalise(k trace.Key, raw []byte) map[string]any {
	return Normalise(t.masks.Object(k), raw)
}

// Version returns the metadata.resourceVersion of an object in JSON, ""
// when it has none.
func Version(obj json.RawMessage) string {
	var b struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if json.Unmarshal(obj, &b) != nil {
		return ""
	}
	return b.Metadata.ResourceVersion
}

// metaString returns a string field of an object's metadata.
func metaString(obj map[string]any, field string) string {
	md, _ := obj["metadata"].(map[string]any)
	s, _ := md[field].(string)
	return s
}
