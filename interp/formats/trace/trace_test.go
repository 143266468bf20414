package trace

import "testing"

// TestRefusal reads the API server's answer off the end entry of a
// refused step, and finds none on a step that ended otherwise, on its
// start entry, or on an entry that is no step.
func TestRefusal(t *testing.T) {
	for _, c := range []struct {
		e        Entry
		answer   string
		refused  bool
		noEffect bool
	}{
		{Entry{Type: Step, Phase: "end", Message: Refused + "spec.storage: Invalid value"}, "spec.storage: Invalid value", true, true},
		{Entry{Type: Step, Phase: "end", Message: "timed out"}, "", false, false},
		{Entry{Type: Step, Phase: "end", Error: "patch: not found"}, "", false, true},
		{Entry{Type: Step, Phase: "start", Message: Refused + "x"}, "", false, false},
		{Entry{Type: History, Phase: "end", Message: Refused + "x"}, "", false, false},
		{Entry{Type: Request, Error: "conflict"}, "", false, false},
	} {
		if answer, refused := c.e.Refusal(); answer != c.answer || refused != c.refused {
			t.Errorf("%+v: %q, %v; want %q, %v", c.e, answer, refused, c.answer, c.refused)
		}
		if got := c.e.NoEffect(); got != c.noEffect {
			t.Errorf("%+v: no effect %v, want %v", c.e, got, c.noEffect)
		}
	}
}
