package plan

import (
	"fmt"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/ir"
)

// goneAfter is the apierror candidate that ends the controller's watch
// of delivered event n's kind with 410 Expired right after n (ir.ErrGone),
// as an API server whose history was compacted past the watch does. The
// controller's informer lists that kind again and watches from the list:
// what changed meanwhile reaches it as the list's newest state, and every
// object of the kind is handed to it once more.
func (g *generator) goneAfter(n *item) *candidate {
	c := &candidate{event: n, apiError: ir.ErrGone, slug: string(ir.ErrGone) + "-" + n.Key.String() + "-" + n.Verb}
	c.build = func() *planfile.Plan {
		return &planfile.Plan{
			Workload: n.workload,
			Actions:  []*planfile.Action{{Kind: ir.ActError, Error: ir.ErrGone, Trigger: leaf(n)}},
			Why:      []planfile.Why{why("event", n)},
		}
	}
	return c
}

// goneCandidates makes one candidate per event delivered to the
// controller: the point of its watch after which the watch ends.
func (g *generator) goneCandidates() []*candidate {
	cands := make([]*candidate, 0, len(g.ix.deliveries))
	for _, n := range g.ix.deliveries {
		cands = append(cands, g.goneAfter(n))
	}
	return cands
}

// watchPasses are the pruning passes of a watch candidate (gone), under
// the names of the passes of the other patterns. A delivery fails
// nothing, so failed keeps it. A watch ended right after an event that
// changed nothing after masking ends at the state the change before it
// left (noop); an object with a generated name cannot be matched again
// (nondeterministic). The informer's new list hands the controller every
// object of the kind once more, which a level-based controller takes as
// the resync it is; what the list can hide are the events of that watch
// that come meanwhile, folded into their newest state. So a watch ended
// after an event the controller did not act on (causality), or after
// the last event of its kind, where nothing follows to fold (effect),
// leads to no other state. The duplicates pass bounds the occurrences of
// one change, as for the other patterns.
func (g *generator) watchPasses(pol *ir.Policy) []pass {
	pr := pol.Prune
	return []pass{
		filterPass(pol),
		{PassFailed, pr.Failed, func(*candidate) bool { return true }, nil},
		{PassNoOp, pr.NoOp, func(c *candidate) bool { return !isNoOp(c.event) }, eventWhy(noOpWhy)},
		{PassNondeterministic, pr.Nondeterministic, func(c *candidate) bool { return !g.nondeterministic(c.event) }, eventWhy(g.nondeterministicWhy)},
		{PassCausality, pr.Causality, func(c *candidate) bool { return g.actedOn(c.event) }, eventWhy(notActedOnWhy)},
		{PassEffect, true, func(c *candidate) bool { return g.followed(c.event) }, eventWhy(lastOfKindWhy)},
		{PassDuplicates, pr.Duplicates, func(c *candidate) bool { return !g.duplicate(c.event) }, eventWhy(g.duplicateWhy)},
	}
}

// followed reports whether another event of n's kind was delivered to
// the controller after n: one a new list after n could fold.
func (g *generator) followed(n *item) bool {
	if g.lastOfKind == nil {
		g.lastOfKind = map[string]int64{}
		for _, d := range g.ix.deliveries {
			g.lastOfKind[d.Key.Kind] = max(g.lastOfKind[d.Key.Kind], d.seq())
		}
	}
	return g.lastOfKind[n.Key.Kind] > n.seq()
}

func lastOfKindWhy(n *item) string {
	return fmt.Sprintf("no event of kind %s reached the controller after %s: a new list would fold nothing, and only hand it every object once more", n.Key.Kind, desc(n))
}

// apiErrorPasses are the passes of the apierror pattern: writePasses, and
// with gone among the errors (watches true), watchPasses too, merged by
// name: a candidate that ends a watch (it has an event) goes through
// watchPasses, one that answers a write through writePasses, and a pass
// that only one list has keeps every candidate of the other.
func (g *generator) apiErrorPasses(pol *ir.Policy, watches bool) []pass {
	ws := g.writePasses(pol)
	if !watches {
		return ws
	}
	byName := map[string]pass{}
	for _, w := range ws {
		byName[w.name] = w
	}
	keepAll := func(*candidate) bool { return true }
	var out []pass
	for _, e := range g.watchPasses(pol) {
		w, ok := byName[e.name]
		if !ok {
			w = pass{name: e.name, on: e.on, keep: keepAll}
		}
		out = append(out, pass{name: e.name, on: e.on,
			keep: func(c *candidate) bool { return pick(c, w, e).keep(c) },
			why: func(c *candidate) string {
				if p := pick(c, w, e); p.why != nil {
					return p.why(c)
				}
				return ""
			}})
	}
	return out
}

// pick returns the pass of a pair that applies to candidate c: e for a
// watch candidate, w for a write candidate.
func pick(c *candidate, w, e pass) pass {
	if c.event != nil {
		return e
	}
	return w
}
