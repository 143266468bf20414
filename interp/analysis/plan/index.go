package plan

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// item is an observed event or write of the reference trace.
type item struct {
	observe.Observed
	workload string
	burst    int // writes: the burst they belong to
	// For a write: root is the object its reconcile is about (see
	// index.subjects). lo is the time from which delivered events may have
	// caused it, and loBurst the burst whose reconcile bounds that window
	// (-1: the start of the trace; see index.windows).
	root    trace.Key
	lo      time.Time
	loBurst int
	// sent is a write as the controller sent it (observe.Tracker.Sent),
	// what an apierror plan's trigger matches.
	sent *observe.Observed
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

// burst is a run of controller requests between which nothing reached
// the controller that could have begun another reconcile (see
// index.segment): the proxy's view of (part of) a reconcile.
type burst struct {
	start time.Time // when its first request was sent
	end   time.Time // when the answer to its last request came back
	first int64     // the sequence number of its first request
	last  int64     // the sequence number of the request answered last
	// echo is when the watch event of the write answered last reached
	// the controller, when it did before the answer (zero otherwise).
	echo time.Time
	// firstKey is the object (or, for a list, the kind) of its first
	// request.
	firstKey trace.Key
	writes   []*item
	// chain is the first burst of the reconcile this one is part of, as
	// far as the trace can tell (see index.chain). boundary says why this
	// burst continues the reconcile of the burst before, or why it may
	// begin one of its own.
	chain    int
	boundary string
}

// index is the reference trace digested for generation.
type index struct {
	run        int // the reference run it was recorded as (trace.Header.Run)
	deliveries []*item
	history    []*item
	writes     []*item
	reads      []read
	requests   []*trace.Entry // the controller's requests but watches
	reqBurst   []int          // the burst of each request (see segment)
	bursts     []burst
	// byKey lists the deliveries, history entries and writes per key.
	delivByKey, histByKey, writeByKey map[trace.Key][]*item
	// roots maps a key to the top of its owner chain; primary holds the
	// kinds that own objects the controller wrote.
	roots   map[trace.Key]trace.Key
	owners  map[trace.Key]trace.Key
	primary map[string]bool
	// generated holds keys whose name is generateName plus 5 characters;
	// whole holds keys masked entirely; ownStatus holds keys whose status
	// the controller writes.
	generated map[trace.Key]bool
	whole     map[trace.Key]bool
	ownStatus map[trace.Key]bool
}

// newIndex digests a trace.
func newIndex(tr *trace.Trace, m *mask.Matcher) *index {
	ix := &index{
		run:        tr.Header.Run,
		delivByKey: map[trace.Key][]*item{}, histByKey: map[trace.Key][]*item{},
		writeByKey: map[trace.Key][]*item{},
		owners:     map[trace.Key]trace.Key{}, primary: map[string]bool{},
		generated: map[trace.Key]bool{}, whole: map[trace.Key]bool{}, ownStatus: map[trace.Key]bool{},
	}
	t := observe.NewTracker(m)
	workload := ""
	for i := range tr.Entries {
		e := &tr.Entries[i]
		if e.Type == trace.Step && e.Phase == "start" {
			workload = e.Workload
		}
		if e.Type == trace.Request && e.Verb != "watch" {
			ix.addRequest(e)
		}
		sent, isWrite := t.Sent(e)
		o, ok := t.Observe(e)
		if !ok {
			continue
		}
		it := &item{Observed: o, workload: workload, burst: -1}
		if isWrite {
			it.sent = &sent
		}
		ix.add(it, m)
	}
	ix.resolveRoots()
	ix.segment()
	ix.subjects()
	ix.chain()
	ix.windows()
	return ix
}

// addRequest records a request, and a get or list as a read.
func (ix *index) addRequest(e *trace.Entry) {
	ix.requests = append(ix.requests, e)
	if (e.Verb == "get" || e.Verb == "list") && e.Key != nil {
		ix.reads = append(ix.reads, read{at: e.Time, key: *e.Key})
	}
}

// segment splits the controller's requests, in the order it sent them,
// into bursts: a burst ends only where something reached the controller
// that could have begun another reconcile (see outside). Gaps in time do
// not split: a loaded machine stretches them, an idle one shrinks them,
// and the controller does the same things in the same order.
func (ix *index) segment() {
	sort.SliceStable(ix.requests, func(i, j int) bool { return ix.requests[i].Time.Before(ix.requests[j].Time) })
	echoes := ix.echoes()
	writes := map[int64]*item{}
	for _, w := range ix.writes {
		writes[w.seq()] = w
	}
	for i, e := range ix.requests {
		if i == 0 {
			ix.bursts = append(ix.bursts, burst{start: e.Time, first: e.Seq})
		} else if d := ix.outside(ix.requests[i-1], e, echoes); d != nil {
			ix.bursts = append(ix.bursts, burst{start: e.Time, first: e.Seq,
				boundary: fmt.Sprintf("%s reached the controller after it sent #%d", desc(d), ix.requests[i-1].Seq)})
		}
		ix.reqBurst = append(ix.reqBurst, len(ix.bursts)-1)
		b := &ix.bursts[len(ix.bursts)-1]
		if b.first == e.Seq && e.Key != nil {
			b.firstKey = *e.Key
		}
		end := e.Time
		if e.Done != nil && e.Done.After(end) {
			end = *e.Done
		}
		if !end.Before(b.end) {
			b.end, b.last, b.echo = end, e.Seq, ix.echoBefore(e, end)
		}
		if w := writes[e.Seq]; w != nil {
			w.burst = len(ix.bursts) - 1
			b.writes = append(b.writes, w)
		}
	}
}

// outside returns the first delivery, between the controller sending
// request prev and request next, that may have begun another reconcile.
// That is a change from outside (not the echo of one of the controller's
// own writes) to an object of a primary kind's tree, or about what next
// concerns (see about). When no kind is primary, it is any change from
// outside. Nil when there is none: next continues the reconcile of prev (a
// requeue without an event is taken for one too).
func (ix *index) outside(prev, next *trace.Entry, echoes map[trace.Key]map[string]bool) *item {
	for _, d := range between(ix.deliveries, prev.Time, next.Time) {
		if echoes[d.Key][d.Entry.ResourceVersion] {
			continue
		}
		if len(ix.primary) == 0 || ix.primary[ix.root(d.Key).Kind] || (next.Key != nil && ix.about(d.Key, *next.Key)) {
			return d
		}
	}
	return nil
}

// echoBefore returns when the watch event that echoes write e (the
// delivery of the resourceVersion its answer carries) reached the
// controller, if that was before the answer, which came back at end. The
// zero time when it was not, or e is not a write.
func (ix *index) echoBefore(e *trace.Entry, end time.Time) time.Time {
	v := responseVersion(e)
	if e.Key == nil || v == "" || e.Verb == "get" || e.Verb == "list" {
		return time.Time{}
	}
	for _, d := range ix.delivByKey[*e.Key] {
		if d.Entry.ResourceVersion == v && !d.at().Before(e.Time) && d.at().Before(end) {
			return d.at()
		}
	}
	return time.Time{}
}

// echoes returns, per object, the resourceVersions that the controller's
// own writes produced (from their answers): their watch events echo what
// it did, and begin nothing it had not begun.
func (ix *index) echoes() map[trace.Key]map[string]bool {
	out := map[trace.Key]map[string]bool{}
	for _, w := range ix.writes {
		v := responseVersion(w.Entry)
		if v == "" {
			continue
		}
		if out[w.Key] == nil {
			out[w.Key] = map[string]bool{}
		}
		out[w.Key][v] = true
	}
	return out
}

// add files an observation.
func (ix *index) add(it *item, m *mask.Matcher) {
	switch it.Stream {
	case observe.Delivered:
		ix.deliveries = append(ix.deliveries, it)
		ix.delivByKey[it.Key] = append(ix.delivByKey[it.Key], it)
	case observe.Cluster:
		ix.history = append(ix.history, it)
		ix.histByKey[it.Key] = append(ix.histByKey[it.Key], it)
	case observe.Written:
		ix.writes = append(ix.writes, it)
		ix.writeByKey[it.Key] = append(ix.writeByKey[it.Key], it)
		if it.OK() {
			ix.notePrimary(it.Object)
		}
		if it.Subresource == "status" {
			ix.ownStatus[it.Key] = true
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
	if ref, ok := observe.ControllingOwner(it.Key, it.Object); ok {
		ix.owners[it.Key] = ref
	}
}

// metaString returns a string field of an object's metadata.
func metaString(obj map[string]any, field string) string {
	md, _ := obj["metadata"].(map[string]any)
	s, _ := md[field].(string)
	return s
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
	for _, k := range observe.Owners(trace.Key{}, obj) {
		ix.primary[k.Kind] = true
	}
}

// subjects sets, for each write, the object its reconcile is about. That
// is the top of its owner chain when it has an owner or is of a primary
// kind. For an unowned object, such as a PVC made from a StatefulSet
// template, it is the first such top among the writes of the same burst,
// or the object itself.
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

// about reports whether a delivery of key d concerns a request on key r:
// the same object, an object of the kind r lists, or the same owner tree.
func (ix *index) about(d, r trace.Key) bool {
	switch {
	case d == r:
		return true
	case r.Name == "":
		return d.Kind == r.Kind && (r.Namespace == "" || r.Namespace == d.Namespace)
	}
	return ix.root(d) == ix.root(r)
}

// chain groups the bursts into reconciles. A burst begins one only when
// something from outside reached the controller before it (see segment).
// Even then it continues the reconcile of an earlier burst when a write of
// its carries the resourceVersion of a state that had been replaced in the
// controller's cache before that burst ended. Its reconcile read that
// state by then, and one reconcile of an object runs at a time (see
// readBefore). Joining two reconciles into one only widens the causality
// windows (see windows): where the trace cannot tell, pairs are kept.
func (ix *index) chain() {
	for i := range ix.bursts {
		b := &ix.bursts[i]
		b.chain = i
		if i == 0 {
			continue
		}
		if j, why := ix.readBefore(i); j < i {
			for k := j + 1; k <= i; k++ {
				if ix.bursts[k].chain != ix.bursts[j].chain {
					ix.bursts[k].chain, ix.bursts[k].boundary = ix.bursts[j].chain, why
				}
			}
			continue
		}
	}
}

// readBefore finds, for burst i, the earliest burst j whose end its
// reconcile provably began before. The proof is a write of burst i that
// carries the resourceVersion of a state of its object, where a delivery
// of a newer state had replaced that state in the controller's cache
// before burst j ended. The reconcile read it by then. It returns i when
// no write shows that, and the evidence.
func (ix *index) readBefore(i int) (int, string) {
	j, why := i, ""
	for _, w := range ix.bursts[i].writes {
		v := bodyVersion(w.Entry)
		if v == "" {
			continue
		}
		r := ix.versionReplaced(w.Key, v)
		if r == nil {
			continue
		}
		for k := j - 1; k >= 0 && !ix.bursts[k].end.Before(r.at()); k-- {
			j = k
			why = fmt.Sprintf("%s carries resourceVersion %s of %s, which %s replaced before the burst of #%d ended: its reconcile had read %s by then",
				desc(w), v, w.Key, desc(r), ix.bursts[k].first, w.Key)
		}
	}
	return j, why
}

// versionReplaced returns the first delivery of k that replaced the state
// of resourceVersion v in the controller's cache, or nil when v was never
// delivered or never replaced.
func (ix *index) versionReplaced(k trace.Key, v string) *item {
	list := ix.delivByKey[k]
	for i, d := range list {
		if d.Entry.ResourceVersion != v {
			continue
		}
		for _, next := range list[i+1:] {
			if next.Entry.ResourceVersion != v {
				return next
			}
		}
		return nil
	}
	return nil
}

// readFrom is the earliest time the reconcile that sent burst b may have
// read the controller's cache. That is when the answer came back to the
// last request of the burst before its reconcile's first, or else the
// start of the trace. Reconciles run one at a time, so it began after the
// one before it. A reconcile may read its cache and compute for a while
// before its first request, which the wire does not show.
//
// When that request was a write whose watch event reached the controller
// before its answer, the span starts at the event: the two travel on
// different connections, and which the proxy passed on first is a race
// that the machine's load decides, not the controller. Either way the
// event arrived once the write was made, as the reconcile ended, and the
// same pairs are kept whichever won.
func (ix *index) readFrom(b int) time.Time {
	if b < 0 || b >= len(ix.bursts) {
		return time.Time{}
	}
	head := ix.bursts[b].chain
	if head == 0 {
		return time.Time{}
	}
	if prev := ix.bursts[head-1]; !prev.echo.IsZero() {
		return prev.echo
	}
	return ix.bursts[head-1].end
}

// windows sets, for each write, the start of the span in which the events
// that may have caused it were delivered. It is the earliest time the
// previous reconcile of the same subject may have read its cache (see
// readFrom), or the start of the trace. That reconcile is the last earlier
// one (see chain; not the write's own, however many bursts it took) that
// wrote to that subject. Reconciles that only read, that wrote elsewhere,
// or whose writes to it were refused as conflicts do not count: a 409
// shows the reconcile had not seen the newest state. A write with no
// subject (an unowned object, no primary kind in its burst) uses the last
// earlier reconcile that wrote anything. The span ends when the write was
// sent.
func (ix *index) windows() {
	type state struct{ cur, prev int } // first bursts of reconciles, -1 for none
	bySubject := map[trace.Key]*state{}
	anyWrite := &state{-1, -1}
	for _, w := range ix.writes {
		if w.burst < 0 {
			continue
		}
		s := bySubject[w.root]
		if s == nil {
			s = &state{-1, -1}
			bySubject[w.root] = s
		}
		st := s
		if w.root == w.Key && !ix.primary[w.Key.Kind] {
			st = anyWrite
		}
		rec := ix.bursts[w.burst].chain
		w.loBurst = st.cur
		if st.cur == rec {
			w.loBurst = st.prev
		}
		w.lo = ix.readFrom(w.loBurst)
		if w.Entry.Code == 409 {
			continue
		}
		for _, st := range []*state{s, anyWrite} {
			if st.cur != rec {
				st.prev, st.cur = st.cur, rec
			}
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
// that n lies in w's window. It may when:
//
//   - n and w are about the same object;
//   - n's owner tree is the subject of w's reconcile;
//   - w is to an unowned object with no known subject, and n is in a
//     primary kind's tree;
//   - or the controller read n's object or listed its kind between the
//     window's start and the write.
//
// With no primary kind known at all, every event in the window is related.
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

// current reports whether delivered event n carried a state of its object
// that the reconcile which sent write w may have read. It did if n came
// before w, and no newer state of the object was delivered before that
// reconcile may have begun (see readFrom). A controller acts on the newest
// state in its cache, so an older state, already replaced there, did not
// lead to w. Freezing the controller's view at it tests a different decision
// than the one w made. A state replaced while the reconcile may already have
// been under way is kept: the reconcile may have read it before the newer
// one arrived, then computed for a while before its first request.
//
// The controller can also show what it had read: an update of n's object
// that carried a resourceVersion and succeeded was made from the newest
// state of that object. Take one such update, sent after a state newer
// than n was delivered, and not preceded by a live read of the object
// that could have supplied its resourceVersion. Once it came from a
// reconcile of w's subject, no later reconcile of that subject read n.
// Reconciles of one object run one at a time (client-go's workqueue, as
// windows assumes). So the reconcile that sent w is the same one, or
// began after it, when the cache held that newer state. This keeps a
// continuous run of requests, which the wire cannot split into
// reconciles, from reaching back to a state the controller had already
// moved past (see acknowledged).
func (ix *index) current(n, w *item) bool {
	return n.at().Before(w.at()) && ix.supersededFor(n, w) == nil && ix.acknowledged(n, w) == nil
}

// supersededFor returns the delivery of a newer state of n's object that
// reached the controller before the reconcile that sent write w may have
// begun (see readBy), or nil. The echo of a write of the reconcile just
// before w's does not count. The trace drew the boundary between the two
// at a change from outside, which may have come in the middle of one
// reconcile; that reconcile then read n before it wrote.
func (ix *index) supersededFor(n, w *item) *item {
	from := ix.readBy(w)
	own := ix.echoesBefore(w)
	for _, d := range ix.delivByKey[n.Key] {
		switch {
		case d.seq() <= n.seq():
			continue
		case !d.at().Before(from):
			return nil
		case d.Entry.ResourceVersion != n.Entry.ResourceVersion && !own[d.Key][d.Entry.ResourceVersion]:
			return d
		}
	}
	return nil
}

// echoesBefore returns, per object, the resourceVersions that the writes
// of the reconcile just before write w's produced.
func (ix *index) echoesBefore(w *item) map[trace.Key]map[string]bool {
	out := map[trace.Key]map[string]bool{}
	if w.burst < 0 || w.burst >= len(ix.bursts) || ix.bursts[w.burst].chain == 0 {
		return out
	}
	prev := ix.bursts[ix.bursts[w.burst].chain-1].chain
	for b := prev; b < len(ix.bursts) && ix.bursts[b].chain == prev; b++ {
		for _, x := range ix.bursts[b].writes {
			if v := responseVersion(x.Entry); v != "" {
				if out[x.Key] == nil {
					out[x.Key] = map[string]bool{}
				}
				out[x.Key][v] = true
			}
		}
	}
	return out
}

// plausible reports whether delivered event n may have caused write w
// and was still the newest state of its object when w's reconcile may
// have begun: the stale pattern's causality.
func (ix *index) plausible(n, w *item) bool {
	return ix.causes(n, w) && ix.current(n, w)
}

// repeat returns, in ix (another reference run), the write that repeats w
// (the same verb on the same object, at the same occurrence). It also
// returns the deliveries of n's state (see input) before it was sent. It
// returns nil when that run has no such write or delivery. own says
// whether the controller writes the status of n's object.
func (ix *index) repeat(n, w *item, own bool) (*item, []*item) {
	var w2 *item
	for _, it := range ix.writeByKey[w.Key] {
		if it.Verb == w.Verb && it.Subresource == w.Subresource && it.Occurrence == w.Occurrence && it.OK() == w.OK() {
			w2 = it
			break
		}
	}
	if w2 == nil {
		return nil, nil
	}
	state := input(n, own)
	var ns []*item
	for _, d := range ix.delivByKey[n.Key] {
		if !d.at().Before(w2.at()) {
			break
		}
		if d.Verb == n.Verb && input(d, own) == state {
			ns = append(ns, d)
		}
	}
	if len(ns) == 0 {
		return nil, nil
	}
	return w2, ns
}

// input identifies a delivered state as the controller's input: its
// masked object, without its status when own (the controller writes it:
// its output, which takes other intermediate values in every run).
func input(it *item, own bool) string {
	if !own || it.Object == nil {
		return observe.StateHash(it.Object)
	}
	obj := maps.Clone(it.Object)
	delete(obj, "status")
	return observe.StateHash(obj)
}

// acknowledged returns the update that shows the reconcile which sent w
// read a newer state of n's object than n (see current), or nil.
func (ix *index) acknowledged(n, w *item) *item {
	r := ix.replaced(n, w.at())
	if r == nil {
		return nil
	}
	for _, u := range ix.writeByKey[n.Key] {
		if !u.at().After(r.at()) {
			continue
		}
		if u.at().After(w.at()) {
			break
		}
		if u.Verb == "update" && u.OK() && u.root == w.root && bodyVersion(u.Entry) != "" &&
			!ix.readBetween(n.Key, r.at(), u.at()) {
			return u
		}
	}
	return nil
}

// bodyVersion returns the resourceVersion a request's body carries.
func bodyVersion(e *trace.Entry) string { return observe.Version(e.Body) }

// responseVersion returns the resourceVersion of the object a request's
// answer carries.
func responseVersion(e *trace.Entry) string { return observe.Version(e.Response) }

// readBy is the earliest time the reconcile that sent write w may have
// read its cache (when the trace shows no burst for it: when it was sent).
func (ix *index) readBy(w *item) time.Time {
	if w.burst < 0 || w.burst >= len(ix.bursts) {
		return w.at()
	}
	if from := ix.readFrom(w.burst); from.Before(w.at()) {
		return from
	}
	return w.at()
}

// replaced returns the delivery of a newer state of n's object that
// reached the controller before from, or nil when n's state was still the
// newest at from.
func (ix *index) replaced(n *item, from time.Time) *item {
	next := after(ix.delivByKey[n.Key], n.seq(), func(it *item) bool {
		return it.Entry.ResourceVersion != n.Entry.ResourceVersion
	})
	if next == nil || !next.at().Before(from) {
		return nil
	}
	return next
}

// causes reports whether delivered event n may have caused write w.
func (ix *index) causes(n, w *item) bool {
	return !n.at().Before(w.lo) && n.at().Before(w.at()) && ix.related(n, w)
}
