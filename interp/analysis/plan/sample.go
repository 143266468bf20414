package plan

import (
	"github.com/sievetool/sieve/interp/formats/planfile"
	"hash/fnv"
	"sort"
)

// Sample chooses at most n plans by their content, not their place in the
// list. The same plans are chosen whatever order the list is in. A plan
// chosen from a list is chosen from any part of it that still holds it
// (another recording that lacks some plans, a shard). It spreads the
// choice over patterns and, within a pattern, over objects. Round after
// round, each pattern in turn gives its next plan, taken from its objects
// in turn; objects, and the plans of one object, are ordered by a hash of
// their names. The chosen plans keep their order in the list. n 0 or less
// keeps every plan.
func Sample(plans []*planfile.Plan, n int) []*planfile.Plan {
	if n <= 0 || len(plans) <= n {
		return plans
	}
	queues := patternQueues(plans)
	pats := make([]string, 0, len(queues))
	for p := range queues {
		pats = append(pats, p)
	}
	sort.Strings(pats)
	chosen := map[*planfile.Plan]bool{}
	for round := 0; len(chosen) < n; round++ {
		for _, p := range pats {
			if q := queues[p]; round < len(q) && len(chosen) < n {
				chosen[q[round]] = true
			}
		}
	}
	out := make([]*planfile.Plan, 0, n)
	for _, p := range plans {
		if chosen[p] {
			out = append(out, p)
		}
	}
	return out
}

// patternQueues orders the plans of each pattern for Sample: first every
// object's first plan, then every object's second, and so on. Objects are
// in the order of the hash of their key, the plans of an object in the
// order of the hash of their names (ties: the names).
func patternQueues(plans []*planfile.Plan) map[string][]*planfile.Plan {
	type ranked struct {
		p    *planfile.Plan
		rank int
		obj  uint64
	}
	byObject := map[string][]*planfile.Plan{}
	for _, p := range plans {
		k := string(p.Pattern) + "\x00" + planObject(p)
		byObject[k] = append(byObject[k], p)
	}
	byPattern := map[string][]ranked{}
	for k, ps := range byObject {
		sort.Slice(ps, func(i, j int) bool { return hashLess(ps[i].Name, ps[j].Name) })
		for i, p := range ps {
			byPattern[string(p.Pattern)] = append(byPattern[string(p.Pattern)], ranked{p, i, hashOf(k)})
		}
	}
	out := map[string][]*planfile.Plan{}
	for pat, rs := range byPattern {
		sort.Slice(rs, func(i, j int) bool {
			a, b := rs[i], rs[j]
			if a.rank != b.rank {
				return a.rank < b.rank
			}
			if a.obj != b.obj {
				return a.obj < b.obj
			}
			return a.p.Name < b.p.Name
		})
		for _, r := range rs {
			out[pat] = append(out[pat], r.p)
		}
	}
	return out
}

// planObject is the object a plan is about: the key of the first entry it
// was made from, or, for a plan written in the spec, its policy.
func planObject(p *planfile.Plan) string {
	if len(p.Why) > 0 {
		return p.Why[0].Key
	}
	return p.Policy
}

// hashLess orders two names by their hash, then by the names.
func hashLess(a, b string) bool {
	ha, hb := hashOf(a), hashOf(b)
	if ha != hb {
		return ha < hb
	}
	return a < b
}

// hashOf is the 64-bit FNV-1a hash of s.
func hashOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
