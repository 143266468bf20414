package session

import (
	"errors"
	"testing"
)

// TestFailOnce: a run's trace error, the same for every entry, is kept
// once.
func TestFailOnce(t *testing.T) {
	s := &session{}
	full := errors.New("trace: write x: no space left on device")
	for range 3 {
		s.fail(full)
	}
	s.fail(errors.New("other"))
	if got := s.err().Error(); got != "trace: write x: no space left on device\nother" {
		t.Errorf("errors: %q", got)
	}
}
