package plan

import (
	"fmt"
	"slices"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// apiRead is a read the controller made itself in the reference trace (a
// get of one object, a list of a kind), with the leaf that matches it as
// it is sent (observe.ReadLeaf), at its occurrence among the reads that
// leaf matches.
type apiRead struct {
	entry    *trace.Entry
	workload string
	leaf     *planfile.Trigger
}

// apiReads returns the reads of the controller's own code in the
// reference trace, in the order they were sent, each with its leaf. The
// occurrences count every read the leaf matches, the ones left out here
// too, as the engine counts them at injection. Left out are the reads
// of client-go's machinery, which retries a failed one without the
// controller's code seeing it: an informer's list (the next list or
// watch of that kind and namespace is a watch: the reflector lists,
// then watches from the list), and reads of a leader-election lock.
func (g *generator) apiReads() []*apiRead {
	var reqs []*apiRead // gets, lists and watches, in the order sent
	workload := ""
	for i := range g.tr.Entries {
		e := &g.tr.Entries[i]
		if e.Type == trace.Step && e.Phase == "start" {
			workload = e.Workload
		}
		if e.Type == trace.Request && e.Key != nil && (observe.IsRead(e.Verb) || e.Verb == "watch") {
			reqs = append(reqs, &apiRead{entry: e, workload: workload})
		}
	}
	slices.SortStableFunc(reqs, func(a, b *apiRead) int { return a.entry.Time.Compare(b.entry.Time) })
	var out []*apiRead
	seen := map[string][]*apiRead{} // the reads so far, by verb and kind
	for i, r := range reqs {
		if r.entry.Verb == "watch" {
			continue
		}
		r.leaf = observe.ReadLeaf(r.entry, 0)
		vk := r.entry.Verb + " " + r.entry.Key.Kind
		seen[vk] = append(seen[vk], r)
		for _, p := range seen[vk] {
			if observe.MatchRead(r.leaf, p.entry) {
				r.leaf.Count++
			}
		}
		if !informerList(reqs[i:]) && !lockRead(r.entry) {
			out = append(out, r)
		}
	}
	return out
}

// informerList reports whether the list that begins reqs (the
// controller's reads and watches from it on, in the order sent) is an
// informer's: the next list or watch of its kind and namespace is a
// watch.
func informerList(reqs []*apiRead) bool {
	l := reqs[0].entry
	if l.Verb != "list" {
		return false
	}
	for _, r := range reqs[1:] {
		e := r.entry
		if e.Verb != "get" && e.Key.Kind == l.Key.Kind && e.Key.Namespace == l.Key.Namespace {
			return e.Verb == "watch"
		}
	}
	return false
}

// lockRead reports whether e reads a leader-election lock: a Lease, or
// a ConfigMap or Endpoints whose answer is a lock record. Client-go's
// leader election retries a failed read at its retry period.
func lockRead(e *trace.Entry) bool {
	if e.Key.Kind == "lease" {
		return true
	}
	_, ok := leader.Read(e.Key.Kind, e.Response)
	return ok && leader.Lockable(e.Key.Kind)
}

// readCandidates makes one apierror candidate per read of the
// controller's own (apiReads) whose verb the policy's api_reads names,
// and error of kinds that answers a read (ir.ReadErrors).
func (g *generator) readCandidates(pol *ir.Policy, kinds []ir.APIErrorKind) []*candidate {
	if len(pol.APIReads) == 0 {
		return nil
	}
	var cands []*candidate
	for _, r := range g.apiReads() {
		if !slices.Contains(pol.APIReads, r.entry.Verb) {
			continue
		}
		for _, k := range kinds {
			if k.AnswersRead() {
				cands = append(cands, answerRead(r, k))
			}
		}
	}
	return cands
}

// answerRead is the apierror candidate that answers read r with error k.
func answerRead(r *apiRead, k ir.APIErrorKind) *candidate {
	c := &candidate{read: r, apiError: k, slug: string(k) + "-" + r.leaf.Target.String() + "-" + r.entry.Verb}
	c.build = func() *planfile.Plan {
		return &planfile.Plan{
			Workload: r.workload,
			Actions:  []*planfile.Action{{Kind: ir.ActError, Error: k, Trigger: r.leaf}},
			Why: []planfile.Why{{Role: "read", Seq: r.entry.Seq, Key: r.leaf.Target.String(), Verb: r.entry.Verb,
				Code: r.entry.Code, Occurrence: r.leaf.Count}},
		}
	}
	return c
}

// readPasses are the pruning passes of a read candidate, under the names
// of the other patterns' passes. A read changes nothing and the proxy
// cannot see why the controller made it (its reconcile read its cache
// first), so noop and causality keep every read. The policy's filters
// match the read's object (a list's: its kind and namespace, no name)
// and verb; failed drops a read that failed in the reference (a 404 is
// an answer: the object is not there); nondeterministic drops a get of
// an object with a generated name; duplicates bounds the occurrences.
func (g *generator) readPasses(pol *ir.Policy) []pass {
	pr := pol.Prune
	return []pass{
		g.readFilterPass(pol),
		{PassFailed, pr.Failed, func(c *candidate) bool { return !readFailed(c.read) }, func(c *candidate) string {
			return fmt.Sprintf("%s was answered %d", c.read.desc(), c.read.entry.Code)
		}},
		{PassNondeterministic, pr.Nondeterministic, func(c *candidate) bool {
			k := *c.read.entry.Key
			return k.Name == "" || !g.ix.generated[k] && !g.ix.whole[k]
		}, func(c *candidate) string {
			return fmt.Sprintf("%s: %s has a generated name or is masked entirely", c.read.desc(), c.read.entry.Key)
		}},
		{PassDuplicates, pr.Duplicates, func(c *candidate) bool { return c.read.leaf.Count <= g.opts.MaxOccurrence }, func(c *candidate) string {
			return fmt.Sprintf("%s is occurrence %d of its read (at most %d kept)", c.read.desc(), c.read.leaf.Count, g.opts.MaxOccurrence)
		}},
	}
}

// readFilterPass is the policy's include/exclude filters on reads: the
// object read (a list's: its kind and namespace) and the verb.
func (g *generator) readFilterPass(pol *ir.Policy) pass {
	return itemFilterPass(pol, func(c *candidate) *item {
		e := c.read.entry
		return &item{Observed: observe.Observed{Entry: e, Key: *e.Key, Verb: e.Verb}}
	}, func(c *candidate) string { return c.read.desc() })
}

// readFailed reports whether a read failed in the reference: no answer,
// or one that is neither 2xx nor 404.
func readFailed(r *apiRead) bool {
	c := r.entry.Code
	return c != 404 && (c < 200 || c > 299)
}

// desc names a read with its trace entry: "#12 list statefulset/default/*".
func (r *apiRead) desc() string {
	return fmt.Sprintf("#%d %s %s", r.entry.Seq, r.entry.Verb, r.leaf.Target)
}
