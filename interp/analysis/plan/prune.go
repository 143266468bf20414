package plan

import (
	"fmt"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/ir"
)

// Pass names. Passes that a policy cannot switch off are marked in docs.
const (
	PassFilter           = "filter"           // the policy's include/exclude
	PassCancelled        = "cancelled"        // unobserved: a later event cancels it (always on)
	PassFailed           = "failed"           // drop failed writes
	PassNoOp             = "noop"             // drop changes empty after masking
	PassNondeterministic = "nondeterministic" // drop generated names and wholly masked objects
	PassCausality        = "causality"        // keep what the controller plausibly acted on
	PassEffect           = "effect"           // stale: the object comes back, or newer state follows (always on)
	PassDuplicates       = "duplicates"       // drop signatures seen more than MaxOccurrence times
	PassMerged           = "merged"           // explored workloads: drop what a merged operation holds (always on)
	PassMax              = "max"              // the policy's max plans, spread evenly
)

// candidate is a plan in the making.
type candidate struct {
	// event and write are the observed event and the write (the policy's
	// filters are matched against both); back is the item that fires a
	// stale view or cancels a hidden event.
	event, write, back *item
	// apiError is the error an apierror candidate answers its write with.
	apiError ir.APIErrorKind
	// call is an appfault candidate's call, appFault its wrong answer.
	call     *appCall
	appFault ir.AppFaultKind
	// read is the read an apierror candidate answers (apiError), in place
	// of a write.
	read  *apiRead
	slug  string
	build func() *planfile.Plan
	// dropped names the pass that dropped the candidate ("" while it
	// survives); evidence says what in the trace showed it.
	dropped, evidence string
	// bound says how a hold's bound was learned (holdBound), "" when the
	// plan holds nothing or its policy gives the bound.
	bound string
}

// pass is one pruning pass: keep says whether a candidate survives; why
// says, for a candidate it drops, which trace entries show it.
type pass struct {
	name string
	on   bool
	keep func(*candidate) bool
	why  func(*candidate) string
}

// Count is the number of candidates of one pattern for one policy, before
// and after each pruning pass, and the number of distinct plans they make.
type Count struct {
	Policy   string      `json:"policy"`
	Pattern  Pattern     `json:"pattern"`
	Baseline int         `json:"baseline"`
	Passes   []PassCount `json:"passes"`
	Final    int         `json:"final"`
	// NoPlans says why there are no plans, when Final is 0.
	NoPlans string `json:"noPlans,omitempty"`
}

// PassCount is the number of candidates left after one pass; a pass that
// is off leaves them all.
type PassCount struct {
	Pass string `json:"pass"`
	On   bool   `json:"on"`
	Left int    `json:"left"`
}

// runPasses applies the passes in order and counts what each leaves.
func runPasses(cands []*candidate, passes []pass, c *Count) []*candidate {
	for _, p := range passes {
		if p.on {
			cands = keepIf(cands, p)
		}
		c.Passes = append(c.Passes, PassCount{Pass: p.name, On: p.on, Left: len(cands)})
	}
	return cands
}

// keepIf returns the candidates that pass p keeps, in order, and marks
// the others as dropped by it, with its evidence.
func keepIf(cands []*candidate, p pass) []*candidate {
	out := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		if p.keep(c) {
			out = append(out, c)
			continue
		}
		c.dropped = p.name
		if p.why != nil {
			c.evidence = p.why(c)
		}
	}
	return out
}

// sample applies the policy's max plans to the plans the candidates made
// (names maps each candidate to its plan), choosing by content (Sample),
// and marks the candidates whose plan was left out.
func sample(plans []*planfile.Plan, cands []*candidate, names map[*candidate]string, max int, c *Count) []*planfile.Plan {
	chosen := Sample(plans, max)
	in := map[string]bool{}
	for _, p := range chosen {
		in[p.Name] = true
	}
	left := 0
	for _, x := range cands {
		if in[names[x]] {
			left++
			continue
		}
		x.dropped, x.evidence = PassMax, fmt.Sprintf("its plan is not among the %d sampled (maxPlans)", max)
	}
	c.Passes = append(c.Passes, PassCount{Pass: PassMax, On: max > 0, Left: left})
	return chosen
}

// filterPass is the policy's include/exclude filters: a candidate is kept
// when its event or write matches an include filter (or there is none)
// and neither matches an exclude filter.
func filterPass(pol *ir.Policy) pass {
	return pass{name: PassFilter, on: len(pol.Include)+len(pol.Exclude) > 0, why: filterWhy(pol), keep: func(c *candidate) bool {
		in := len(pol.Include) == 0
		for _, s := range [2]*item{c.event, c.write} {
			if s == nil {
				continue
			}
			in = in || matchAny(pol.Include, s)
			if matchAny(pol.Exclude, s) {
				return false
			}
		}
		return in
	}}
}

// matchLock reports whether a filter on leases matches an item about a
// ConfigMap or Endpoints that is a leader-election lock of the same
// namespace and name. controller-runtime's older lock, the leader
// annotation, is the same record as a Lease written another way. So
// std/faults' lease/*/* leaves out every lock, whichever object it is.
func matchLock(f ir.Filter, it *item) bool {
	if it.Key.Kind == "lease" || !(leader.IsLock(it.Key.Kind, it.Object) || leader.IsLock(it.Key.Kind, it.Prev)) {
		return false
	}
	k := it.Key
	k.Kind = "lease"
	return observe.MatchKey(f.Kind, f.Namespace, f.Name, k)
}

// matchAny reports whether any filter matches the item.
func matchAny(fs []ir.Filter, it *item) bool {
	for _, f := range fs {
		if matchFilter(f, it) {
			return true
		}
	}
	return false
}

// matchFilter matches an item against a filter: globs on the key, and the
// verb (create, update, delete for events; the request verb for writes).
// A filter on leases matches every leader-election lock (matchLock).
func matchFilter(f ir.Filter, it *item) bool {
	if !observe.MatchKey(f.Kind, f.Namespace, f.Name, it.Key) && !matchLock(f, it) {
		return false
	}
	if len(f.Verbs) == 0 {
		return true
	}
	for _, v := range f.Verbs {
		if v == it.Verb {
			return true
		}
	}
	return false
}

// isNoOp reports whether an update or patch changed nothing after masking
// (for a status write: nothing under status). Creates, deletes and failed
// writes are never no-ops here.
func isNoOp(it *item) bool {
	if it.Verb != "update" && it.Verb != "patch" {
		return false
	}
	if it.Stream == observe.Written && !it.OK() {
		return false
	}
	if it.Subresource == "status" {
		_, p := it.Diff.Prev["status"]
		_, c := it.Diff.Cur["status"]
		return !p && !c
	}
	return it.Diff.Empty()
}

// nondeterministic reports whether an item's object has a generated name
// or is masked entirely.
func (g *generator) nondeterministic(it *item) bool {
	return it.Key.Name == "" || g.ix.generated[it.Key] || g.ix.whole[it.Key]
}

// duplicate reports whether an item's signature was seen more than
// MaxOccurrence times before.
func (g *generator) duplicate(it *item) bool { return it.Occurrence > g.opts.MaxOccurrence }
