package planfile

import (
	"strings"
	"testing"
)

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
