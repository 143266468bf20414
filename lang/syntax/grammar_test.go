package syntax

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
)

const grammarPath = "../../grammar.md"

var ebnfBlock = regexp.MustCompile("(?s)```ebnf\n(.*?)```")

// TestEBNFMatchesGrammarMD holds the EBNF block of grammar.md equal to
// participle's grammar. SIEVE_UPDATE=1 rewrites the block.
func TestEBNFMatchesGrammarMD(t *testing.T) {
	md, err := os.ReadFile(grammarPath)
	if err != nil {
		t.Fatal(err)
	}
	m := ebnfBlock.FindSubmatchIndex(md)
	if m == nil {
		t.Fatalf("%s: no ```ebnf block", grammarPath)
	}
	golden.File(t, grammarPath, bytes.Join([][]byte{md[:m[2]], []byte(EBNF() + "\n"), md[m[3]:]}, nil))
}

var sieveBlock = regexp.MustCompile("(?s)```sieve\n(.*?)```")

// TestGrammarMDExamplesParse parses every ```sieve block of grammar.md.
func TestGrammarMDExamplesParse(t *testing.T) {
	md, err := os.ReadFile(grammarPath)
	if err != nil {
		t.Fatal(err)
	}
	blocks := sieveBlock.FindAllSubmatchIndex(md, -1)
	if len(blocks) == 0 {
		t.Fatalf("%s: no ```sieve blocks", grammarPath)
	}
	for _, b := range blocks {
		line := bytes.Count(md[:b[2]], []byte("\n")) + 1
		if _, ds := Parse(grammarPath, md[b[2]:b[3]]); len(ds) > 0 {
			t.Errorf("%s: block at line %d: %v", grammarPath, line, ds)
		}
	}
}
