package plan

import (
	"bytes"
	"testing"

	"github.com/sievetool/sieve/lang/ir"
)

// TestGenerateStable checks that generation is deterministic: two runs
// give the same plans, in the same order, with the same names.
func TestGenerateStable(t *testing.T) {
	tr := synthTrace(1500)
	test := &ir.Test{Name: "bench", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune, MaxPlans: 7,
	}}}
	var first []byte
	for range 2 {
		set, err := Generate(tr, test, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, p := range set.Plans {
			m, _ := p.Marshal()
			b.Write(m)
		}
		if first == nil {
			first = b.Bytes()
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatal("two generations from the same trace differ")
		}
	}
}
