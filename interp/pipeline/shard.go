package pipeline

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/diag"
)

// Shard is part Index of Of, numbered from 1, of every test's plans and
// explored-workload results, so that Of CI jobs can split a run (sieve run
// --shard I/N). The zero value stands for all of them.
type Shard struct{ Index, Of int }

// ParseShard reads a shard written "I/N", 1 ≤ I ≤ N.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(i)
	of, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || of < 1 || index < 1 || index > of {
		return Shard{}, fmt.Errorf("%q (want I/N with 1 ≤ I ≤ N: 2/4 runs the second of four parts)", diag.Quote(s))
	}
	return Shard{Index: index, Of: of}, nil
}

// String writes the shard as ParseShard reads it; "" for all plans.
func (s Shard) String() string {
	if s.Of <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Of)
}

// Has reports whether the plan belongs to the shard. A plan goes by a hash
// of its name, which is made from the plan's content: every job puts it in
// the same shard, even jobs that recorded their own reference runs and
// generated slightly different plans.
func (s Shard) Has(p *planfile.Plan) bool {
	if s.Of <= 1 {
		return true
	}
	return int(hash32(p.Name)%uint32(s.Of)) == s.Index-1
}

// hasExplored reports whether result number unit of test t's Explore stage
// (exploreUnit) belongs to the shard: round robin from a part that a hash
// of the test's name chooses, so that a test's few results spread over the
// parts, and every job puts a result in the same part whatever results
// its own reference run gives.
func (s Shard) hasExplored(test string, unit int) bool {
	if s.Of <= 1 {
		return true
	}
	return (int(hash32(test)%uint32(s.Of))+unit)%s.Of == s.Index-1
}

// hash32 is the FNV-1a hash of name.
func hash32(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()
}

// Keep returns the plans of the shard.
func (s Shard) Keep(plans []*planfile.Plan) []*planfile.Plan {
	var out []*planfile.Plan
	for _, p := range plans {
		if s.Has(p) {
			out = append(out, p)
		}
	}
	return out
}

// Split counts what each part of a split into of runs, as sieve run
// --shard I/of does: the plans of the part (Has), at most maxPlans of
// them when maxPlans > 0 (the cap is per part), and the results of test
// t's Explore stage in the part (units, ExploreUnits; hasExplored).
func Split(test string, plans []*planfile.Plan, units []int, of, maxPlans int) []int {
	counts := make([]int, of)
	for i := range counts {
		s := Shard{Index: i + 1, Of: of}
		counts[i] = len(s.Keep(plans))
		if maxPlans > 0 {
			counts[i] = min(counts[i], maxPlans)
		}
		for _, u := range units {
			if s.hasExplored(test, u) {
				counts[i]++
			}
		}
	}
	return counts
}
