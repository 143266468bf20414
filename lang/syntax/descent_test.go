package syntax

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sievetool/sieve/lang/diag"
)

// TestDescentMatchesParticiple holds the hand-written parser to the
// participle grammar, on every sample and on thousands of mutations of
// them. Both accept, or both reject with the same first error position.
// Accepted input gives the same tree with the same ranges. Participle stops
// at the first error; the descent parser's later errors (after recovery)
// have no reference, so the comparison ends at the first error.
func TestDescentMatchesParticiple(t *testing.T) {
	inputs := grammarSamples(t)
	rng := rand.New(rand.NewPCG(5, 6))
	base := len(inputs)
	for range 4000 {
		inputs = append(inputs, mutate(rng, inputs[rng.IntN(base)]))
	}
	for _, in := range inputs {
		toks := scanAll("in.sieve", in, maxLexErrors)
		if len(checkTokens(toks)) > 0 {
			continue
		}
		got, gerrs := parseTokens(significant(toks))
		gerr := firstError(gerrs)
		want, werr := parseParticiple("in.sieve", toks)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q:\ndescent: %v\nparticiple: %v", in, gerr, werr)
		}
		if gerr != nil {
			if gerr.Subject.Start != werr.Subject.Start {
				t.Fatalf("%q: error at %v, participle at %v\n%v\n%v", in, gerr.Subject.Start, werr.Subject.Start, gerr, werr)
			}
			continue
		}
		if g, w := Dump(got), Dump(want); g != w {
			t.Fatalf("%q: trees differ:\ndescent:\n%s\nparticiple:\n%s", in, g, w)
		}
		if g, w := ranges(got), ranges(want); g != w {
			t.Fatalf("%q: ranges differ:\ndescent:\n%s\nparticiple:\n%s", in, g, w)
		}
	}
}

// grammarSamples returns the testdata inputs and the examples of
// grammar.md.
func grammarSamples(t testing.TB) []string {
	out := sampleInputs(t)
	md, err := os.ReadFile(grammarPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```sieve\n(.*?)```").FindAllStringSubmatch(string(md), -1) {
		out = append(out, m[1])
	}
	return out
}

// mutate deletes, duplicates or swaps a few tokens' worth of text.
func mutate(rng *rand.Rand, s string) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return s
	}
	for range 1 + rng.IntN(3) {
		i, j := rng.IntN(len(words)), rng.IntN(len(words))
		switch rng.IntN(3) {
		case 0:
			words = append(words[:i], words[i+1:]...)
		case 1:
			words = append(words[:i], append([]string{words[j]}, words[i:]...)...)
		default:
			words[i], words[j] = words[j], words[i]
		}
		if len(words) == 0 {
			return ""
		}
	}
	return strings.Join(words, " ")
}

func ranges(f *File) string {
	var b strings.Builder
	Walk(f, func(n Node) bool {
		if n == Node(f) {
			return true // Parse sets the file's range
		}
		r := n.Range()
		fmt.Fprintf(&b, "%T %d:%d-%d:%d\n", n, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
		return true
	})
	return b.String()
}

// significant drops whitespace and comments.
func significant(toks []lexer.Token) []lexer.Token {
	out := make([]lexer.Token, 0, len(toks)/2+1)
	for _, t := range toks {
		if t.Type != tComment && t.Type != tWhitespace {
			out = append(out, t)
		}
	}
	return out
}

// FuzzDescent compares the two parsers on any input the scanner accepts.
func FuzzDescent(f *testing.F) {
	for _, s := range grammarSamples(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4096 {
			return // participle is slow; small inputs find the differences
		}
		toks := scanAll("in.sieve", in, maxLexErrors)
		if len(checkTokens(toks)) > 0 {
			return
		}
		got, gerrs := parseTokens(significant(toks))
		gerr := firstError(gerrs)
		want, werr := parseParticiple("in.sieve", toks)
		switch {
		case (gerr == nil) != (werr == nil):
			t.Fatalf("descent: %v\nparticiple: %v", gerr, werr)
		case gerr != nil && gerr.Subject.Start != werr.Subject.Start:
			t.Fatalf("error at %v, participle at %v", gerr.Subject.Start, werr.Subject.Start)
		case gerr == nil && (Dump(got) != Dump(want) || ranges(got) != ranges(want)):
			t.Fatalf("trees differ:\n%s\n%s", Dump(got), Dump(want))
		}
	})
}

// firstError is the first of the descent parser's errors, the only one
// participle has a counterpart for.
func firstError(ds diag.Diagnostics) *diag.Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	return ds[0]
}
