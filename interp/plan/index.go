package plan

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/mask"
	"github.com/sievetool/sieve/interp/trace"
)

// item is an observed event or write of the reference trace.
type item struct {
	Observed
	workload string
	burst    int // writes: the burst they belong to
	// For a write: root is the object its reconcile is about (see
	// index.subjects), lo the time from which delivered events may have
	// caused it (see index.windows).
	root trace.Key
	lo   time.Time
}

// at is when the item happened: when an event was delivered or recorded,
// when a write was sent.
func (it *item) at() time.Time { return it.Entry.Time }

// seq returns the item's sequence number.
func (it *item) seq() int64 { return it.Entry.Seq }

// read is a get or list the controller made.
type read struct {
	at  time.Time
	key trace.Key // Name empty for a list
}

// burst is a run of controller requests without a quiet gap: the proxy's
// view of a reconcile.
type burst struct {
	start  time.Time // when its first request was sent
	writes int
}

// index is the reference trace digested for generation.
type index struct {
	deliveries []*item
	history    []*item
	writes     []*item
	reads      []read
	bursts     []burst
	// byKey lists the deliveries, history entries and writes per key.
	delivByKey, histByKey, writeByKey map[trace.Key][]*item
	// roots maps a key to the top of its owner chain; primary holds the
	// kinds that own objects the controller wrote.
	roots   map[trace.Key]trace.Key
	owners  map[trace.Key]trace.Key
	primary map[string]bool
	// generated holds keys whose name is generateName plus 5 characters;
	// whole holds keys masked entirely.
	generated map[trace.Key]bool
	whole     map[trace.Key]bool
}

// newIndex digests a trace.
func newIndex(tr *trace.Trace, m *mask.Matcher, quiet time.Duration) *index {
	ix := &index{
		delivByKey: map[trace.Key][]*item{}, histByKey: map[trace.Key][]*item{},
		writeByKey: map[trace.Key][]*item{},
		owners:     map[trace.Key]trace.Key{}, primary: map[string]bool{},
		generated: map[trace.Key]bool{}, whole: map[trace.Key]bool{},
	}
	t := NewTracker(m)
	var last time.Time
	workload := ""
	for i := range tr.Entries {
		e := &tr.Entries[i]
		if e.Type == trace.Step && e.Phase == "start" {
			workload = e.Workload
		}
		if e.Type == trace.Request && e.Verb != "watch" {
			ix.addRequest(e, &last, quiet)
		}
		o, ok := t.Observe(e)
		if !ok {
			continue
		}
		ix.add(&item{Observed: o, workload: workload, burst: len(ix.bursts) - 1}, m)
	}
	ix.resolveRoots()
	ix.subjects()
	ix.windows()
	return ix
}

// addRequest extends the current burst or starts one, and records reads.
func (ix *index) addRequest(e *trace.Entry, last *time.Time, quiet time.Duration) {
	if len(ix.bursts) == 0 || e.Time.Sub(*last) > quiet {
		ix.bursts = append(ix.bursts, burst{start: e.Time})
	}
	b := &ix.bursts[len(ix.bursts)-1]
	if e.Time.Before(b.start) {
		b.start = e.Time
	}
	*last = e.Time
	if e.Done != nil && e.Done.After(*last) {
		*last = *e.Done
	}
	switch {
	case IsWrite(e.Verb):
		b.writes++
	case (e.Verb == "get" || e.Verb == "list") && e.Key != nil:
		ix.reads = append(ix.reads, read{at: e.Time, key: *e.Key})
	}
}

// add files an observation.
func (ix *index) add(it *item, m *mask.Matcher) {
	switch it.Stream {
	case Delivered:
		ix.deliveries = append(ix.deliveries, it)
		ix.delivByKey[it.Key] = append(ix.delivByKey[it.Key], it)
	case Cluster:
		ix.history = append(ix.history, it)
		ix.histByKey[it.Key] = append(ix.histByKey[it.Key], it)
	case Written:
		ix.writes = append(ix.writes, it)
		ix.writeByKey[it.Key] = append(ix.writeByKey[it.Key], it)
		if it.OK() {
			ix.notePrimary(it.Object)
		}
	}
	ix.noteObject(it, m)
}

// noteObject records owner references, generated names and whole masks.
func (ix *index) noteObject(it *item, m *mask.Matcher) {
	if m.Whole(it.Key) {
		ix.whole[it.Key] = true
	}
	if it.Object == nil {
		return
	}
	if gn := metaString(it.Object, "generateName"); gn != "" && isGenerated(it.Key.Name, gn) {
		ix.generated[it.Key] = true
	}
	if ref, ok := ownerKey(it.Key, it.Object); ok {
		ix.owners[it.Key] = ref
	}
}

// isGenerated reports whether name is prefix plus 5 lowercase alphanumerics.
func isGenerated(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || len(rest) != 5 {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// notePrimary records the kinds owning an object the controller wrote.
func (ix *index) notePrimary(obj map[string]any) {
	for _, ref := range ownerRefs(obj) {
		ix.primary[kindOf(ref.apiVersion, ref.kind)] = true
	}
}

// ownerRef is the part of an ownerReference generation uses.
type ownerRef struct {
	apiVersion, kind, name string
	controller             bool
}

// ownerRefs returns an object's owner references.
func ownerRefs(obj map[string]any) []ownerRef {
	md, _ := obj["metadata"].(map[string]any)
	list, _ := md["ownerReferences"].([]any)
	var out []ownerRef
	for _, x := range list {
		m, _ := x.(map[string]any)
		r := ownerRef{}
		r.apiVersion, _ = m["apiVersion"].(string)
		r.kind, _ = m["kind"].(string)
		r.name, _ = m["name"].(string)
		r.controller, _ = m["controller"].(bool)
		if r.kind != "" && r.name != "" {
			out = append(out, r)
		}
	}
	return out
}

// OwnerKeys returns the keys of the owners that the ownerReferences of a
// JSON object, written as key k, name (in k's namespace).
func OwnerKeys(k trace.Key, body json.RawMessage) []trace.Key {
	var obj map[string]any
	if len(body) == 0 || json.Unmarshal(body, &obj) != nil {
		return nil
	}
	var out []trace.Key
	for _, r := range ownerRefs(obj) {
		out = append(out, trace.Key{Kind: kindOf(r.apiVersion, r.kind), Namespace: k.Namespace, Name: r.name})
	}
	return out
}

// ownerKey returns the key of an object's controlling owner (or first
// owner), in the object's namespace.
func ownerKey(k trace.Key, obj map[string]any) (trace.Key, bool) {
	refs := ownerRefs(obj)
	if len(refs) == 0 {
		return trace.Key{}, false
	}
	ref := refs[0]
	for _, r := range refs {
		if r.controller {
			ref = r
			break
		}
	}
	return trace.Key{Kind: kindOf(ref.apiVersion, ref.kind), Namespace: k.Namespace, Name: ref.name}, true
}

// kindOf returns the trace key kind for an apiVersion and Kind.
func kindOf(apiVersion, kind string) string {
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group = ""
	}
	return trace.KindName(group, kind)
}

// subjects sets, for each write, the object its reconcile is about: the
// top of its owner chain when it has an owner or is of a primary kind;
// otherwise (an unowned object, such as a PVC made from a StatefulSet
// template) the first such top among the writes of the same burst, or the
// object itself.
func (ix *index) subjects() {
	byBurst := map[int]trace.Key{}
	for _, w := range ix.writes {
		r := ix.root(w.Key)
		if _, ok := byBurst[w.burst]; !ok && ix.primary[r.Kind] {
			byBurst[w.burst] = r
		}
	}
	for _, w := range ix.writes {
		w.root = ix.root(w.Key)
		if w.root == w.Key && !ix.primary[w.Key.Kind] {
			if r, ok := byBurst[w.burst]; ok {
				w.root = r
			}
		}
	}
}

// windows sets, for each write, the start of the span in which the events
// that may have caused it were delivered: the start of the last earlier
// burst that wrote to the same subject (the previous reconcile of that
// object: bursts that only read, or that wrote elsewhere, do not count), or
// the start of the trace. A write with no subject (an unowned object, no
// primary kind in its burst) uses the last earlier burst that wrote
// anything. The span ends when the write was sent.
func (ix *index) windows() {
	type state struct {
		burst       int
		first, prev time.Time
	}
	bySubject := map[trace.Key]*state{}
	anyWrite := &state{burst: -1}
	for _, w := range ix.writes {
		if w.burst < 0 {
			continue
		}
		subject := w.root
		s := bySubject[subject]
		if s == nil {
			s = &state{burst: -1}
			bySubject[subject] = s
		}
		for _, st := range []*state{s, anyWrite} {
			if st.burst != w.burst {
				st.prev, st.burst, st.first = st.first, w.burst, ix.bursts[w.burst].start
			}
		}
		w.lo = s.prev
		if w.root == w.Key && !ix.primary[w.Key.Kind] {
			w.lo = anyWrite.prev
		}
	}
}

// resolveRoots follows owner chains to their tops.
func (ix *index) resolveRoots() {
	ix.roots = map[trace.Key]trace.Key{}
	for k := range ix.owners {
		cur := k
		for range 16 {
			next, ok := ix.owners[cur]
			if !ok {
				break
			}
			cur = next
		}
		ix.roots[k] = cur
	}
}

// root returns the top of k's owner chain (k itself when unowned).
func (ix *index) root(k trace.Key) trace.Key {
	if r, ok := ix.roots[k]; ok {
		return r
	}
	return k
}

// between returns the items of list (in trace order, which for deliveries
// is time order) that happened at or after lo and before hi.
func between(list []*item, lo, hi time.Time) []*item {
	i := sort.Search(len(list), func(i int) bool { return !list[i].at().Before(lo) })
	j := sort.Search(len(list), func(j int) bool { return !list[j].at().Before(hi) })
	if i >= j {
		return nil
	}
	return list[i:j]
}

// after returns the first item of list with seq > s that satisfies ok.
func after(list []*item, s int64, ok func(*item) bool) *item {
	i := sort.Search(len(list), func(i int) bool { return list[i].seq() > s })
	for ; i < len(list); i++ {
		if ok(list[i]) {
			return list[i]
		}
	}
	return nil
}

// related reports whether delivered event n may have caused write w, given
// that n lies in w's window: same object; n's owner tree is the subject of
// w's reconcile; w is to an unowned object with no known subject and n is
// in a primary kind's tree; or the controller read n's object or listed its
// kind between the window's start and the write. With no primary kind
// known at all, every event in the window is related.
func (ix *index) related(n, w *item) bool {
	if n.Key == w.Key || len(ix.primary) == 0 {
		return true
	}
	rn := ix.root(n.Key)
	if rn == w.root {
		return true
	}
	if w.root == w.Key && !ix.primary[w.Key.Kind] && ix.primary[rn.Kind] {
		return true
	}
	return ix.readBetween(n.Key, w.lo, w.at())
}

// readBetween reports whether the controller got key k, or listed its kind
// in its namespace, at or after lo and before hi.
func (ix *index) readBetween(k trace.Key, lo, hi time.Time) bool {
	i := sort.Search(len(ix.reads), func(i int) bool { return !ix.reads[i].at.Before(lo) })
	for ; i < len(ix.reads) && ix.reads[i].at.Before(hi); i++ {
		r := ix.reads[i].key
		if r.Kind != k.Kind || (r.Namespace != "" && r.Namespace != k.Namespace) {
			continue
		}
		if r.Name == "" || r.Name == k.Name {
			return true
		}
	}
	return false
}

// current reports whether delivered event n carried the newest state of
// its object that the controller had received before it sent write w. A
// controller acts on the newest state in its cache, so an older state of
// n's object, already replaced there, did not lead to w: freezing the
// controller's view at it tests a different decision than the one w made.
// (Admitting the state before it as well, for an event that arrives while
// a reconcile is under way, let in states that did not cause the write: a
// StatefulSet frozen before the user's scale-down, paired with a pod
// deletion the scale-down caused.)
func (ix *index) current(n, w *item) bool {
	list := ix.delivByKey[n.Key]
	i := sort.Search(len(list), func(i int) bool { return !list[i].at().Before(w.at()) })
	return i > 0 && list[i-1].Entry.ResourceVersion == n.Entry.ResourceVersion
}

// causes reports whether delivered event n may have caused write w.
func (ix *index) causes(n, w *item) bool {
	return !n.at().Before(w.lo) && n.at().Before(w.at()) && ix.related(n, w)
}
