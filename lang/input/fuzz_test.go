package input

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzLimits reads arbitrary bytes under arbitrary limits, whole (ReadAll)
// and as a stream read a byte at a time (Reader). Both must give the
// input itself when it is within the limit. When it is not, both must give
// a *TooLargeError, never more than the limit's bytes.
func FuzzLimits(f *testing.F) {
	f.Add([]byte("abcd"), uint16(4))
	f.Add([]byte("abcde"), uint16(4))
	f.Add([]byte(""), uint16(0))
	f.Add([]byte("a"), uint16(0))
	f.Fuzz(func(t *testing.T, b []byte, limit uint16) {
		within := len(b) <= int(limit)
		got, err := ReadAll(bytes.NewReader(b), "f", int64(limit))
		check(t, "ReadAll", b, got, err, within)
		got, err = io.ReadAll(Reader(iotest.OneByteReader(bytes.NewReader(b)), "f", int64(limit)))
		if !within && len(got) > int(limit) {
			t.Fatalf("Reader: %d bytes read past a limit of %d", len(got), limit)
		}
		if !within {
			got = nil
		}
		check(t, "Reader", b, got, err, within)
	})
}

func check(t *testing.T, what string, in, got []byte, err error, within bool) {
	t.Helper()
	var tl *TooLargeError
	switch {
	case within && (err != nil || !bytes.Equal(got, in)):
		t.Fatalf("%s: %d bytes within the limit: got %d bytes, %v", what, len(in), len(got), err)
	case !within && (!errors.As(err, &tl) || got != nil):
		t.Fatalf("%s: %d bytes past the limit: got %d bytes, %v", what, len(in), len(got), err)
	}
}
