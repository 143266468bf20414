package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
)

// FuzzDecode feeds arbitrary bytes to the trace reader: it must never
// panic, an error is clear (hostile.Unclear: JSON's words, not Go's), and a trace it accepts has a header of the version it reads and
// no more entries than lines. Seeds are prefixes of the plan generator's traces.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../../analysis/plan/testdata/*.trace.jsonl")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 8<<10 {
			b = b[:8<<10] // a prefix: the fuzzer mutates small inputs best
		}
		f.Add(b)
	}
	f.Add([]byte("{\"sieveTrace\":1}\n{\"seq\":\"1\"}\n{}\n")) // an error in Go's words, once
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := Decode(bytes.NewReader(b))
		if err != nil {
			hostile.CheckError(t, err, b)
			return
		}
		if tr.Header.Trace != Version {
			t.Fatalf("accepted a trace of version %d", tr.Header.Trace)
		}
		if n := bytes.Count(b, []byte("\n")) + 1; len(tr.Entries) >= n {
			t.Fatalf("%d entries from %d lines", len(tr.Entries), n)
		}
	})
}
