package format

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/syntax"
)

// TestGolden formats in.sieve of every testdata/*.txtar archive and
// compares with out.sieve. SIEVE_UPDATE=1 rewrites out.sieve.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.txtar (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, ds := Source("in.sieve", golden.Files(a)["in.sieve"])
			if len(ds) > 0 {
				t.Fatal(ds)
			}
			golden.Check(t, file, a, map[string][]byte{"out.sieve": got})
		})
	}
}

// TestIdempotentAndRoundTrip formats every sample (these goldens, the
// parser's goldens, the examples of grammar.md): formatting twice changes
// nothing, the output parses to the same tree, and no comment is lost.
func TestIdempotentAndRoundTrip(t *testing.T) {
	for name, src := range samples(t) {
		f, ds := syntax.Parse(name, src)
		if ds.HasErrors() {
			continue // error goldens of the parser
		}
		out := File(f)
		g, ds := syntax.Parse(name, out)
		if len(ds) > 0 {
			t.Errorf("%s: output does not parse: %v\n%s", name, ds, out)
			continue
		}
		if syntax.Dump(g) != syntax.Dump(f) {
			t.Errorf("%s: formatting changed the tree:\n%s", name, out)
		}
		if len(g.Comments) != len(f.Comments) {
			t.Errorf("%s: %d comments became %d:\n%s", name, len(f.Comments), len(g.Comments), out)
		}
		if out2 := File(g); !bytes.Equal(out, out2) {
			t.Errorf("%s: not idempotent:\n--- once\n%s--- twice\n%s", name, out, out2)
		}
	}
}

func samples(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, glob := range []string{"testdata/*.txtar", "../syntax/testdata/*.txtar"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range a.Files {
				if strings.HasSuffix(s.Name, ".sieve") {
					out[file+":"+s.Name] = s.Data
				}
			}
		}
	}
	md, err := os.ReadFile("../../grammar.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range regexp.MustCompile("(?s)```sieve\n(.*?)```").FindAllSubmatch(md, -1) {
		out["grammar.md:"+string(rune('a'+i))] = m[1]
	}
	return out
}

// TestRoundTripMutations applies the round-trip checks to thousands of
// small mutations of the samples (words dropped, repeated or swapped,
// line breaks moved) that still parse.
func TestRoundTripMutations(t *testing.T) {
	var base []string
	for _, src := range samples(t) {
		base = append(base, string(src))
	}
	sort.Strings(base)
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 5000
	checked := 0
	for range n {
		src := mutate(rng, base[rng.IntN(len(base))])
		f, ds := syntax.Parse("m.sieve", []byte(src))
		if len(ds) > 0 {
			continue
		}
		checked++
		out := File(f)
		g, ds := syntax.Parse("m.sieve", out)
		switch {
		case len(ds) > 0:
			t.Fatalf("%q: output does not parse: %v\n%s", src, ds, out)
		case syntax.Dump(g) != syntax.Dump(f):
			t.Fatalf("%q: formatting changed the tree:\n%s", src, out)
		case len(g.Comments) != len(f.Comments):
			t.Fatalf("%q: %d comments became %d:\n%s", src, len(f.Comments), len(g.Comments), out)
		case !bytes.Equal(File(g), out):
			t.Fatalf("%q: not idempotent:\n--- once\n%s--- twice\n%s", src, out, File(g))
		}
	}
	t.Logf("%d of %d mutations parse", checked, n)
	if checked < n/10 {
		t.Fatalf("only %d of %d mutations parse; the test checks too little", checked, n)
	}
}

// mutate changes a few whitespace-separated words of s: drops, repeats or
// swaps them, or joins or splits lines.
func mutate(rng *rand.Rand, s string) string {
	words := strings.SplitAfter(s, " ")
	for range 1 + rng.IntN(3) {
		if len(words) < 2 {
			break
		}
		i, j := rng.IntN(len(words)), rng.IntN(len(words))
		switch rng.IntN(4) {
		case 0:
			words = append(words[:i], words[i+1:]...)
		case 1:
			words = append(words[:i], append([]string{words[j]}, words[i:]...)...)
		case 2:
			words[i], words[j] = words[j], words[i]
		default:
			words[i] = strings.ReplaceAll(words[i], "\n", " ") + "\n"
		}
	}
	return strings.Join(words, "")
}

// TestCRLF: a file with Windows line endings formats to LF endings.
func TestCRLF(t *testing.T) {
	src := "// head\r\ncontroller c {\r\n  build \"./c\" // b\r\n}\r\n"
	want := "// head\ncontroller c {\n  build \"./c\" // b\n}\n"
	got, ds := Source("crlf.sieve", []byte(src))
	if len(ds) > 0 || string(got) != want {
		t.Fatalf("got %q, %v; want %q", got, ds, want)
	}
}
