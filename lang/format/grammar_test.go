package format

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
)

// TestGrammarMDFormatted holds every ```sieve block of grammar.md in the
// canonical layout that the page describes. SIEVE_UPDATE=1 reformats them.
func TestGrammarMDFormatted(t *testing.T) {
	const path = "../../grammar.md"
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sieve\n(.*?)```").FindAllSubmatchIndex(md, -1)
	var out bytes.Buffer
	last := 0
	for _, b := range blocks {
		src := md[b[2]:b[3]]
		got, ds := Source(path, src)
		if len(ds) > 0 {
			t.Fatalf("%s: a block does not parse: %v", path, ds)
		}
		if !bytes.Equal(got, src) && !golden.Update() {
			t.Errorf("%s: block at byte %d is not formatted (SIEVE_UPDATE=1 formats it):\n%s", path, b[2], got)
		}
		out.Write(md[last:b[2]])
		out.Write(got)
		last = b[3]
	}
	out.Write(md[last:])
	if golden.Update() && !bytes.Equal(out.Bytes(), md) {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
