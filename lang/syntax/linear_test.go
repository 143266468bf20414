package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// longRuns are inputs whose tokens sit in one long run of key-segment
// characters that is no key: each token start used to scan the rest of
// the run for a "/", quadratic in its length (20,000 dashes took 3 s).
func longRuns(n int) map[string]string {
	return map[string]string{
		"dashes":  strings.Repeat("-", n) + "1",
		"numbers": strings.Repeat("1-", n) + "1",
		"path":    strings.Repeat("a.", n) + "a",
		"globs":   strings.Repeat("*?", n) + "/",
	}
}

// TestScanLinear checks that the scanner looks at each byte of such a run
// a bounded number of times: the bytes it reads looking for keys stay
// within the length of the source, at 10,000 and 20,000 deep.
func TestScanLinear(t *testing.T) {
	for _, n := range []int{10_000, 20_000} {
		for name, x := range longRuns(n) {
			src := "workload w {\n  scale sts/default/x to " + x + "\n}\n"
			looked := scan("in.sieve", src, -1, func(lexer.Token) {})
			if looked > len(src) {
				t.Errorf("%s %d: looked at %d bytes for keys in a source of %d", name, n, looked, len(src))
			}
		}
	}
}

// BenchmarkLongRun parses a run of 10,000, 20,000 and 40,000 dashes: the
// time per byte stays flat.
func BenchmarkLongRun(b *testing.B) {
	for _, n := range []int{10_000, 20_000, 40_000} {
		src := []byte("workload w {\n  scale sts/default/x to " + strings.Repeat("-", n) + "1\n}\n")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse("in.sieve", src)
			}
		})
	}
}
