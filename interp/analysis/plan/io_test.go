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

// TestExplainEscapes: --explain quotes objects of the cluster; their
// control characters print escaped, not raw to the terminal.
func TestExplainEscapes(t *testing.T) {
	cands := []Candidate{
		{Policy: "p", Pattern: ir.Stale, What: "configmap/x/\x1b]0;owned\x07", Pass: "causality", Evidence: "name \x1b[2K\r"},
		{Policy: "p", Pattern: ir.Stale, What: "ok\u009b", Plan: "stale-1"},
	}
	var b bytes.Buffer
	if err := WriteExplain(&b, cands); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, raw := range []string{"\x1b", "\r", "\x07", "\u009b"} {
		if bytes.Contains([]byte(out), []byte(raw)) {
			t.Errorf("explain prints %q raw:\n%q", raw, out)
		}
	}
	want := `p stale: configmap/x/\x1b]0;owned\x07: dropped by causality: name \x1b[2K\x0d`
	if !bytes.Contains([]byte(out), []byte(want)) {
		t.Errorf("explain:\n%s\nwant a line %s", out, want)
	}
}
