package syntax

import (
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// lexerFromRules returns a function that lexes with participle's regular
// expression lexer built from the rules table and describes the tokens.
func lexerFromRules(t *testing.T) func(string) string {
	def, err := lexer.NewSimple(rules)
	if err != nil {
		t.Fatal(err)
	}
	return func(src string) string {
		l, err := def.LexString("f", src)
		if err != nil {
			t.Fatal(err)
		}
		toks, err := lexer.ConsumeAll(l)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return describe(def, toks)
	}
}
