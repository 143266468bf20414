package format

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
)

// TestGrammarMDFormatted holds every ```sieve block of grammar.md in the
// canonical layout that the page describes: the page with its blocks
// formatted is the page (SIEVE_UPDATE=1 formats them).
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
		out.Write(md[last:b[2]])
		out.Write(got)
		last = b[3]
	}
	out.Write(md[last:])
	golden.File(t, path, out.Bytes())
}
