package plan

import (
	"bytes"
	"strings"
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

// TestDecodeErrors checks what a plan file is refused for.
func TestDecodeErrors(t *testing.T) {
	cases := map[string]string{
		`{"name": "x", "actions": []}`:                                "not a sieve plan",
		`{"sievePlan": 2, "name": "x", "actions": []}`:                "version 2",
		`{"sievePlan": 1, "actions": []}`:                             "no name",
		`{"sievePlan": 1, "name": "x", "actions": [], "acitons": []}`: "unknown field",
		`{"sievePlan": 1, "name": "x", "actions": [{"kind": "crash", "trigger": {"op": "timeout", "duration": "soon"}}]}`: "duration",
	}
	for in, want := range cases {
		_, err := Decode([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want an error containing %q", in, err, want)
		}
	}
}
