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
func (s Shard) Has(p *planfile.Plan) bool { return s.HasName(p.Name) }

// HasName reports whether the unit of work named name (a plan, or a result
// of the Explore stage) belongs to the shard, by a hash of the name: the
// same name is in the same shard on every machine.
func (s Shard) HasName(name string) bool {
	if s.Of <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(s.Of)) == s.Index-1
}

// keep returns the plans of the shard.
func (s Shard) keep(plans []*planfile.Plan) []*planfile.Plan {
	var out []*planfile.Plan
	for _, p := range plans {
		if s.Has(p) {
			out = append(out, p)
		}
	}
	return out
}
