package inject

import (
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// held reports whether events of the object are being held.
func (in *Injector) held(k trace.Key) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, h := range in.holding {
		if observe.MatchRef(h, k.Kind, k.Namespace, k.Name) {
			return true
		}
	}
	return false
}

// Holding reports whether the plan holds events now (between a hold and
// its release).
func (in *Injector) Holding() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.holding) > 0
}

func (in *Injector) covers(r *ir.Ref, k trace.Key) bool {
	return r != nil && observe.MatchRef(r, k.Kind, k.Namespace, k.Name)
}

// scope turns a plan scope into a proxy scope. A kind written without its
// group ("datastore") takes the group of the objects seen in this run; a
// glob name covers the whole kind.
func (in *Injector) scope(r *ir.Ref) proxy.Scope {
	s := proxy.Scope{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
	if s.Name == "*" {
		s.Name = ""
	}
	if s.Namespace == "*" {
		s.Namespace = ""
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, seen := range in.revs {
		if seen.key.Kind != s.Kind && trace.KindMatches(s.Kind, seen.key.Kind) {
			s.Kind = seen.key.Kind
			break
		}
	}
	return s
}

// noteRevision remembers a delivered event with its revision, so a stale
// view can be frozen at the state the plan was made from.
func (in *Injector) noteRevision(e *trace.Entry) {
	in.mu.Lock() // watch streams filter their events concurrently; the tracker is not safe for that
	defer in.mu.Unlock()
	o, ok := in.tracker.Observe(e)
	if !ok {
		return
	}
	in.revs = append(in.revs, seenRev{key: *e.Key, obs: o, rev: e.ResourceVersion})
}

// revision finds, in this run, the revision of the state the stale view
// must show. Resource versions differ between runs, so the plan's
// reference revision is the last resort. It looks first for a delivery of
// the very state of the plan's "event" (same masked object), then for the
// delivery with the same change and occurrence, then for the latest with
// the same change. A stale-on action with an at event freezes the
// revision of its scope shown when that event came (after the very
// state, for a generated plan). It freezes nothing ("") when neither
// came: its freeze point is not in this run. A plan that names no
// revision freezes the latest state.
func (in *Injector) revision(a *planfile.Action, s proxy.Scope) (string, string) {
	var want *planfile.Why
	for i := range in.opts.Plan.Why {
		if in.opts.Plan.Why[i].Role == "event" {
			want = &in.opts.Plan.Why[i]
			break
		}
	}
	if rev, ok := in.atRevision(a); ok && (want == nil || want.State == "") {
		return rev, "the state shown when " + a.At.String() + " came"
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if want != nil && want.State != "" {
		for _, seen := range in.revs {
			if s.Covers(seen.key) && seen.key.String() == want.Key && observe.StateHash(seen.obs.Object) == want.State {
				return seen.rev, "the state the plan was made from"
			}
		}
	}
	if rev, ok := in.atRevision(a); ok {
		return rev, "the state shown when " + a.At.String() + " came"
	}
	if a.At != nil {
		return "", ""
	}
	var same, latest string
	for _, seen := range in.revs {
		if !s.Covers(seen.key) {
			continue
		}
		latest = seen.rev
		if want == nil || seen.key.String() != want.Key || seen.obs.Verb != want.Verb || seen.obs.Diff.String() != want.Diff.String() {
			continue
		}
		if seen.obs.Occurrence == want.Occurrence {
			return seen.rev, "the state the plan was made from"
		}
		same = seen.rev
	}
	switch {
	case same != "":
		return same, "the latest state with the same change"
	case a.Revision == "":
		return latest, "the latest state delivered"
	}
	return a.Revision, "the reference run's revision: no delivery of this run made the same change"
}

func scopeKey(s proxy.Scope) *trace.Key {
	return &trace.Key{Kind: s.Kind, Namespace: s.Namespace, Name: s.Name}
}

func refKey(r *ir.Ref) *trace.Key {
	if r == nil {
		return nil
	}
	return &trace.Key{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
}
