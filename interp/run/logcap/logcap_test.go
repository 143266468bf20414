package logcap

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLog writes lines through a Writer of the given limit, in writes of
// every size, and returns what was written and the file.
func writeLog(t *testing.T, limit int64, lines int) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "controller.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := New(f, limit)
	var all strings.Builder
	for i := range lines {
		s := fmt.Sprintf("line %d of a controller that never pauses\n", i)
		all.WriteString(s)
		for len(s) > 0 { // uneven writes, as a pipe delivers them
			k := min(len(s), 1+i%7)
			if n, err := w.Write([]byte(s[:k])); err != nil || n != k {
				t.Fatalf("write: %d, %v", n, err)
			}
			s = s[k:]
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return all.String(), string(b)
}

// TestCap checks that a log past its limit keeps its first and last half
// of the limit, with a note line between them that says what was dropped
// and how to raise the limit.
func TestCap(t *testing.T) {
	in, got := writeLog(t, 1000, 5000)
	head, tail := in[:500], in[len(in)-500:]
	note := fmt.Sprintf("\n--- sieve: log limit: %d bytes dropped here; the first 500 and the last 500 bytes are kept (raise the limit of 1000 bytes with SIEVE_LOG_LIMIT=BYTES)\n", len(in)-1000)
	if want := head + note + tail; got != want {
		t.Errorf("log of %d bytes is %d bytes:\n%.700s\n...\nwant %d bytes", len(in), len(got), got, len(want))
	}
}

// TestUnderLimit checks that a log within its limit is written whole,
// without a note, whether or not it passed half the limit.
func TestUnderLimit(t *testing.T) {
	for _, lines := range []int{3, 20} {
		in, got := writeLog(t, 1000, lines)
		if got != in {
			t.Errorf("%d lines: got %q, want %q", lines, got, in)
		}
	}
}

// TestLimit checks where the limit comes from: the caller, else the
// environment, else the default.
func TestLimit(t *testing.T) {
	t.Setenv(Env, "")
	if got := Limit(0); got != DefaultLimit {
		t.Errorf("Limit(0) = %d, want %d", got, DefaultLimit)
	}
	t.Setenv(Env, "4096")
	if got := Limit(0); got != 4096 {
		t.Errorf("Limit(0) with %s=4096: %d", Env, got)
	}
	if got := Limit(10); got != 10 {
		t.Errorf("Limit(10) = %d", got)
	}
}
