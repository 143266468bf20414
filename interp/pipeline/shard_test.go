package pipeline

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/interp/formats/planfile"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"1/1": {1, 1}, "2/4": {2, 4}, "4/4": {4, 4}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2", "0/4", "5/4", "1/0", "a/b", "-1/2", "1/2/3"} {
		if _, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q): no error", in)
		}
	}
}

// TestShardsSplitPlans puts every plan in exactly one of the shards, each
// with a fair share, and keeps all plans in the zero shard and in 1/1.
func TestShardsSplitPlans(t *testing.T) {
	var plans []*planfile.Plan
	for i := range 200 {
		plans = append(plans, &planfile.Plan{Name: fmt.Sprintf("stale-pod-default-web-%d-update-%08x", i%5, i*2654435761)})
	}
	in := map[string]int{}
	for i := 1; i <= 4; i++ {
		kept := Shard{i, 4}.Keep(plans)
		if len(kept) < 30 {
			t.Errorf("shard %d/4 has %d of 200 plans", i, len(kept))
		}
		for _, p := range kept {
			in[p.Name]++
		}
	}
	for _, p := range plans {
		if in[p.Name] != 1 {
			t.Errorf("plan %s is in %d shards, want 1", p.Name, in[p.Name])
		}
	}
	if n := len((Shard{}).Keep(plans)); n != 200 {
		t.Errorf("the zero shard keeps %d plans, want 200", n)
	}
	if n := len((Shard{1, 1}).Keep(plans)); n != 200 {
		t.Errorf("shard 1/1 keeps %d plans, want 200", n)
	}
}

// FuzzParseShard feeds arbitrary --shard values to ParseShard: it must
// never panic, an error is clear, and a shard it reads is within range and
// writes back (String) to text that reads the same.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/1", "2/4", "0/4", "5/4", "1/0", "-1/2", "a/b", "2/ 4", "9223372036854775807/9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			hostile.CheckError(t, err, []byte(s))
			return
		}
		if sh.Index < 1 || sh.Index > sh.Of {
			t.Fatalf("%q: shard %d of %d", s, sh.Index, sh.Of)
		}
		if sh.Of == 1 {
			return // all plans: String writes ""
		}
		if again, err := ParseShard(sh.String()); err != nil || again != sh {
			t.Fatalf("%q reads as %v, written back %q reads as %v (%v)", s, sh, sh.String(), again, err)
		}
	})
}

// TestShardsSpreadExplored puts each result of a test's Explore stage in
// exactly one shard, and spreads a test's first N results over N shards,
// whatever the test's name (a hash of the names alone put explored,
// explored-direct and explored-direct-1 in the same shard of two).
func TestShardsSpreadExplored(t *testing.T) {
	for _, test := range []string{"explored", "t", "buggy"} {
		for n := 1; n <= 4; n++ {
			in := map[int]bool{}
			for unit := range 2 * n {
				var parts []int
				for i := 1; i <= n; i++ {
					if (Shard{i, n}).hasExplored(test, unit) {
						parts = append(parts, i)
					}
				}
				if len(parts) != 1 {
					t.Fatalf("test %s, unit %d: in shards %v of %d, want one", test, unit, parts, n)
				}
				if unit < n {
					in[parts[0]] = true
				}
			}
			if len(in) != n {
				t.Errorf("test %s: its first %d results are in %d of %d shards", test, n, len(in), n)
			}
		}
	}
}

// TestSplit counts each shard's plans, capped per shard by maxPlans as a
// run's selection caps them, and the explored results that fall to it:
// every plan and every result is counted once over the shards.
func TestSplit(t *testing.T) {
	var plans []*planfile.Plan
	for i := range 40 {
		plans = append(plans, &planfile.Plan{Name: fmt.Sprintf("intermediate-%03d", i)})
	}
	units := []int{0, 1, 2, 3}
	counts := Split("buggy", plans, units, 4, 0)
	sum := 0
	for i, n := range counts {
		s := Shard{i + 1, 4}
		explored := 0
		for _, u := range units {
			if s.hasExplored("buggy", u) {
				explored++
			}
		}
		if want := len(s.Keep(plans)) + explored; n != want {
			t.Errorf("shard %s: %d, want %d plans and %d explored results", s, n, len(s.Keep(plans)), explored)
		}
		sum += n
	}
	if sum != len(plans)+len(units) {
		t.Errorf("counts %v sum to %d, want %d", counts, sum, len(plans)+len(units))
	}
	for i, n := range Split("buggy", plans, nil, 4, 2) {
		if n != min(2, len(Shard{i + 1, 4}.Keep(plans))) {
			t.Errorf("--max-plans 2: shard %d counts %d", i+1, n)
		}
	}
	if got := Split("buggy", plans, units, 1, 0); !slices.Equal(got, []int{44}) {
		t.Errorf("one shard: %v, want [44]", got)
	}
}
