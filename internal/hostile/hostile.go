package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// MaxError bounds the length of a reader's error message: a message quotes
// at most a short excerpt of its input (diag.MaxQuote), whatever the input.
const MaxError = 2 << 10

// goSyntax matches what Go prints of its own values and types: a struct
// or map dump, a pointer, a Go type name, encoding/json's "Go struct
// field" and "Go value".
var goSyntax = regexp.MustCompile(`Go struct field|Go value|&\{|map\[[a-z]|\[\]\*?[a-zA-Z]+\.[A-Z]|\*[a-z]+\.[A-Z][A-Za-z]*|interface \{\}|0xc[0-9a-f]{9}|%!`)

// Unclear says what makes err, the error a reader returned for the input
// in, unclear. It returns "" when err is a message of at most MaxError
// bytes without Go syntax (unless the input holds the same text, which the
// message may quote).
func Unclear(err error, in []byte) string {
	msg := err.Error()
	switch {
	case strings.TrimSpace(msg) == "":
		return "empty error message"
	case len(msg) > MaxError:
		return fmt.Sprintf("error message of %d bytes (more than %d): %.200q…", len(msg), MaxError, msg)
	}
	for _, m := range goSyntax.FindAllString(msg, -1) {
		if !strings.Contains(string(in), m) {
			return fmt.Sprintf("error message shows Go syntax %q: %q", m, msg)
		}
	}
	return ""
}

// CheckError fails t when err is not clear (Unclear).
func CheckError(t testing.TB, err error, in []byte) {
	t.Helper()
	if why := Unclear(err, in); why != "" {
		t.Fatal(why)
	}
}

// Seeds adds to f the files that the glob patterns match, each cut to max
// bytes (the fuzzer mutates small inputs best), and returns how many it
// added. A pattern that matches nothing fails f: the seeds are the
// repository's own files, and a moved file must not leave a target
// without them.
func Seeds(f *testing.F, max int, patterns ...string) int {
	f.Helper()
	n := 0
	for _, p := range patterns {
		files, err := filepath.Glob(p)
		if err != nil || len(files) == 0 {
			f.Fatalf("seeds: %s matches no file", p)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > max {
				b = b[:max]
			}
			f.Add(b)
			n++
		}
	}
	return n
}

// MaxTime bounds the time a reader takes over one input of a fuzz target
// (a few kilobytes): milliseconds are the norm, and the margin is for a
// loaded machine. Readers with budgets of their own (CUE, CEL) bound by
// those.
const MaxTime = 10 * time.Second

// Within runs fn and fails t, with every goroutine's stack, when fn takes
// more than d: the fuzzer reports the input, where a reader that never
// ends would only stall it. fn must not call t's methods; it runs on a
// goroutine of its own and is left running.
func Within(t testing.TB, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		buf := make([]byte, 1<<20)
		t.Fatalf("took more than %s:\n%s", d, buf[:runtime.Stack(buf, true)])
	}
}
