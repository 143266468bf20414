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

// passList is the pruning passes of one kind of candidate of a
// pattern (apierror's writes, watches and reads): of reports whether a
// candidate is of that kind.
type passList struct {
	of     func(*candidate) bool
	passes []pass
}

// mergePasses merges the pass lists of the kinds of candidate of one
// pattern by name, in the order of the counts table: a candidate goes
// through the passes of the first list it is of, and a pass that list
// lacks keeps it. One list is returned as it is.
func mergePasses(lists []passList) []pass {
	if len(lists) == 1 {
		return lists[0].passes
	}
	on := map[string]bool{}
	for _, l := range lists {
		for _, p := range l.passes {
			on[p.name] = on[p.name] || p.on
		}
	}
	var out []pass
	for _, name := range passNames {
		if _, ok := on[name]; !ok {
			continue
		}
		find := func(c *candidate) pass {
			for _, l := range lists {
				if l.of(c) {
					for _, p := range l.passes {
						if p.name == name {
							return p
						}
					}
					break
				}
			}
			return pass{name: name}
		}
		out = append(out, pass{name: name, on: on[name],
			keep: func(c *candidate) bool { p := find(c); return !p.on || p.keep(c) },
			why: func(c *candidate) string {
				if p := find(c); p.why != nil {
					return p.why(c)
				}
				return ""
			}})
	}
	return out
}
