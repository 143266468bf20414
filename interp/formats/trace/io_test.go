package trace_test

import (
	"errors"
	"syscall"
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// full answers every write with ENOSPC and counts the writes.
type full struct{ writes int }

func (f *full) Write([]byte) (int, error) {
	f.writes++
	return 0, &pathError{}
}

type pathError struct{}

func (*pathError) Error() string { return "write /r/trace.jsonl: no space left on device" }
func (*pathError) Unwrap() error { return syscall.ENOSPC }

// TestWriterStopsAtFirstError: after a failed write, a trace writer
// writes nothing more and returns the first error, the same value, so
// that it is reported once.
func TestWriterStopsAtFirstError(t *testing.T) {
	f := &full{}
	w := trace.NewWriter(f, nil)
	_, first := w.Add(trace.Entry{Type: trace.Step})
	_, second := w.Add(trace.Entry{Type: trace.Step})
	switch {
	case !errors.Is(first, syscall.ENOSPC):
		t.Fatalf("first write: %v, want ENOSPC", first)
	case second != first:
		t.Errorf("second write: %v, want the first error itself", second)
	case f.writes != 1:
		t.Errorf("%d writes reached the file, want 1", f.writes)
	}
}
