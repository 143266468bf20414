package plan

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/ir"
)

// samplePlans makes plans of three patterns over several objects, some
// with many plans each.
func samplePlans() []*planfile.Plan {
	var out []*planfile.Plan
	for i := range 60 {
		pat := []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}[i%3]
		key := fmt.Sprintf("pod/default/web-%d", i%7)
		out = append(out, &planfile.Plan{Name: fmt.Sprintf("%s-%d", pat, i), Pattern: pat, Why: []planfile.Why{{Key: key}}})
	}
	return out
}

func names(ps []*planfile.Plan) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

// TestSampleStable: the sample depends on the plans, not on their order.
// A plan chosen from a list is chosen from any part of it that still
// holds it, as from the recording of another reference run that lacks
// some plans.
func TestSampleStable(t *testing.T) {
	all := samplePlans()
	want := names(Sample(all, 10))
	if len(want) != 10 {
		t.Fatalf("sampled %d plans, want 10", len(want))
	}
	rng := rand.New(rand.NewSource(1))
	for try := range 50 {
		shuffled := slices.Clone(all)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := names(Sample(shuffled, 10)); !slices.Equal(got, want) {
			t.Fatalf("shuffle %d: sampled %v, want %v", try, got, want)
		}
		// Another recording: a third of the plans missing, in another order.
		var part []*planfile.Plan
		for _, p := range shuffled {
			if rng.Intn(3) > 0 {
				part = append(part, p)
			}
		}
		got := names(Sample(part, 10))
		for _, p := range part {
			if slices.Contains(want, p.Name) && !slices.Contains(got, p.Name) {
				t.Errorf("try %d: %s, chosen from the whole list, not chosen from a part holding it (%v)", try, p.Name, got)
			}
		}
	}
}

// TestSampleSpread: a sample covers every pattern and, within each,
// different objects before a second plan of the same object.
func TestSampleSpread(t *testing.T) {
	got := Sample(samplePlans(), 9)
	per := map[ir.Pattern]map[string]int{}
	for _, p := range got {
		if per[p.Pattern] == nil {
			per[p.Pattern] = map[string]int{}
		}
		per[p.Pattern][p.Why[0].Key]++
	}
	for _, pat := range []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved} {
		if len(per[pat]) != 3 {
			t.Errorf("%s: %d objects in the sample, want 3 (one plan each): %v", pat, len(per[pat]), per[pat])
		}
	}
	if all := samplePlans(); len(Sample(all, 0)) != len(all) || len(Sample(all, 100)) != len(all) {
		t.Error("no cap, or a cap above the number of plans, must keep every plan")
	}
}
