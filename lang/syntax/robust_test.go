package syntax

import (
	"bytes"
	"fmt"
	"github.com/alecthomas/participle/v2/lexer"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// diagLine is how every diagnostic of a bad file must start.
var diagLine = regexp.MustCompile(`^bad\.sieve:\d+:\d+: \S`)

// TestBadInput feeds hostile input to Parse: it must not panic or hang,
// and must report at least one file:line:col diagnostic.
func TestBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := map[string][]byte{
		"random bytes":           random,
		"nul bytes":              make([]byte, 1024),
		"nul in declaration":     []byte("controller c {\x00}"),
		"invalid utf-8":          []byte("controller c { build \"\xff\xfe\" }"),
		"unterminated string":    []byte("controller c { build \"x }"),
		"unterminated raw":       []byte("workload w { apply `kind: Pod\n"),
		"unterminated comment":   []byte("/* no end"),
		"unterminated block":     []byte("controller c {\n  build \"x\"\n"),
		"10000 nested brackets":  bytes.Repeat([]byte("["), 10000),
		"10000 nested in value":  []byte("policy p { x " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000) + " }"),
		"10000 nested objects":   []byte("policy p { x " + strings.Repeat("{a: ", 10000) + "1" + strings.Repeat("}", 10000) + " }"),
		"10 MB of letters":       bytes.Repeat([]byte("abcdefgh"), 10<<20/8),
		"10 MB comment unclosed": append([]byte("/*"), bytes.Repeat([]byte("x"), 10<<20)...),
		"10 MB string unclosed":  append([]byte("policy p { a \""), bytes.Repeat([]byte("x"), 10<<20)...),
		"10 MB raw unclosed":     append([]byte("policy p { a `"), bytes.Repeat([]byte("x\n"), 5<<20)...),
		"10 MB then error":       append(bytes.Repeat([]byte("// filler comment line\n"), 10<<20/23), "controller {"...),
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			f, ds := Parse("bad.sieve", src)
			if f == nil {
				t.Fatal("nil file")
			}
			if len(ds) == 0 {
				t.Fatal("no diagnostic")
			}
			for _, d := range ds {
				if !diagLine.MatchString(d.Error()) {
					t.Errorf("diagnostic not in file:line:col: form: %q", d.Error())
				}
			}
			checkRanges(t, f, src)
		})
	}
}

// TestEmptyFile: an empty file (or one with only comments) is valid.
func TestEmptyFile(t *testing.T) {
	for _, src := range []string{"", "\n\n", "// only a comment\n", "/* c */"} {
		f, ds := Parse("e.sieve", []byte(src))
		if len(ds) > 0 || len(f.Decls) != 0 {
			t.Errorf("%q: got %d decls, diagnostics %v", src, len(f.Decls), ds)
		}
	}
}

// TestScannerMatchesRules holds the hand-written scanner to the regular
// expressions of the rules table on the test inputs and on random text made
// of the language's characters.
func TestScannerMatchesRules(t *testing.T) {
	regexpLex := lexerFromRules(t)
	inputs := sampleInputs(t)
	rng := rand.New(rand.NewPCG(3, 4))
	runes := []rune("ab_zZ09./*-?${}[]()\"'`\\\n\t :,;&|#=+µsmh")
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteRune(runes[rng.IntN(len(runes))])
		}
		inputs = append(inputs, b.String())
	}
	for _, in := range inputs {
		got, want := describe(lexDef, scanAll("f", in, -1)), regexpLex(in)
		if got != want {
			t.Fatalf("%q:\nscanner: %s\nrules:   %s", in, got, want)
		}
	}
}

// describe prints tokens with their type names.
func describe(def lexer.Definition, toks []lexer.Token) string {
	names := map[lexer.TokenType]string{}
	for name, typ := range def.Symbols() {
		names[typ] = name
	}
	var b strings.Builder
	for _, t := range toks {
		fmt.Fprintf(&b, "%s:%q@%d:%d:%d ", names[t.Type], t.Value, t.Pos.Offset, t.Pos.Line, t.Pos.Column)
	}
	return b.String()
}

func sampleInputs(t testing.TB) []string {
	files, _ := filepath.Glob("testdata/*.txtar")
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}
