package planfile

import (
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/ir"
)

// TestDecodeErrors checks what a plan file is refused for.
func TestDecodeErrors(t *testing.T) {
	cases := map[string]string{
		`{"name": "x", "actions": []}`:                                "not a sieve plan",
		`{"sievePlan": 2, "name": "x", "actions": []}`:                "version 2",
		`{"sievePlan": 1, "actions": []}`:                             "no name",
		`{"sievePlan": 1, "name": "x", "actions": [], "acitons": []}`: "unknown field",
		`{"sievePlan": 1, "name": "x", "actions": [{"kind": "crash", "trigger": {"op": "timeout", "duration": "soon"}}]}`: "duration",
		`{"sievePlan": 1, "name": "x", "actions": [], "checkpoint": {"afterOperation": 0}}`:                               "checkpoint: afterOperation 0",
		`{"sievePlan": 1, "name": "x", "actions": [], "checkpoint": {"after": 2}}`:                                        "unknown field",
	}
	for in, want := range cases {
		_, err := Decode([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want an error containing %q", in, err, want)
		}
	}
}

// TestCheckpointField holds how a plan file says that the plan runs from
// a checkpoint: its field, read back as written, and refused by the
// .sieve form, which cannot say it.
func TestCheckpointField(t *testing.T) {
	p := &Plan{Format: Version, Name: "crash-x", Actions: []*Action{{Kind: ir.ActCrash}}, Checkpoint: &Checkpoint{After: 2}}
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if want := "\"checkpoint\": {\n    \"afterOperation\": 2\n  }"; !strings.Contains(string(b), want) {
		t.Errorf("plan file:\n%s\nwant it to hold %s", b, want)
	}
	back, err := Decode(b)
	if err != nil || back.Checkpoint == nil || back.Checkpoint.After != 2 {
		t.Errorf("read back: %+v %v, want checkpoint after operation 2", back, err)
	}
	if _, err := p.Sieve("x"); err == nil || !strings.Contains(err.Error(), "checkpoint after explored operation 2") {
		t.Errorf("as .sieve: %v, want refused for its checkpoint", err)
	}
}
