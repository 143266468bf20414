package input

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endless is an io.Reader that never ends, like /dev/zero.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

func TestReadAllStopsAtLimit(t *testing.T) {
	for _, tc := range []struct {
		in      io.Reader
		wantErr bool
	}{
		{strings.NewReader("abcd"), false},
		{strings.NewReader("abcde"), true},
		{endless{}, true},
	} {
		b, err := ReadAll(tc.in, "f", 4)
		if tc.wantErr {
			var tl *TooLargeError
			if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || tl.Limit != 4 {
				t.Errorf("ReadAll: got %v, want a TooLargeError with limit 4", err)
			}
			continue
		}
		if err != nil || string(b) != "abcd" {
			t.Errorf("ReadAll = %q, %v; want abcd", b, err)
		}
	}
}

func TestReaderStreams(t *testing.T) {
	b, err := io.ReadAll(Reader(strings.NewReader("abcd"), "f", 4))
	if err != nil || string(b) != "abcd" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	b, err = io.ReadAll(Reader(endless{}, "f", 1000))
	if !errors.Is(err, ErrTooLarge) || len(b) != 1000 {
		t.Errorf("endless: %d bytes, %v; want 1000 bytes and too large", len(b), err)
	}
	if want := "f: file too large: more than 1000 bytes (the limit)"; err == nil || err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestReadFileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := ReadFile("/dev/zero", SpecLimit)
	if want := "/dev/zero: file too large: more than 2 MiB (the limit)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	p := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 10), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 10); err != nil || len(b) != 10 {
		t.Errorf("ReadFile at the limit: %d bytes, %v", len(b), err)
	}
}
