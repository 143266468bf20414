package cuefront_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// grammarMD is the language reference, whose "Specs in CUE" section shows
// the complete example in CUE.
const grammarMD = "../../grammar.md"

// TestGrammarMDCUEExample holds the CUE example of grammar.md's "Specs in
// CUE" section equal (in IR) to the .sieve complete example it restates.
func TestGrammarMDCUEExample(t *testing.T) {
	doc, err := os.ReadFile(grammarMD)
	if err != nil {
		t.Skipf("no grammar.md: %v", err)
	}
	checkGrammarExample(t, doc)
}

func checkGrammarExample(t *testing.T, doc []byte) {
	_, cueSection, ok := bytes.Cut(doc, []byte("\n## Specs in CUE\n"))
	if !ok {
		t.Skip("grammar.md has no \"## Specs in CUE\" section yet")
	}
	_, example, ok := bytes.Cut(doc, []byte("\n### A complete example\n"))
	if !ok {
		t.Fatal("grammar.md has no \"### A complete example\"")
	}
	sieve, cue := firstBlock(example, "sieve"), firstBlock(cueSection, "cue")
	if sieve == "" || cue == "" {
		t.Fatalf("missing code block: sieve %d bytes, cue %d bytes", len(sieve), len(cue))
	}
	dir := t.TempDir()
	files := map[string]string{"spec.sieve": sieve, "spec.cue": cue, "cluster.yaml": testApp, "crd.yaml": testCRD, "controller/main.go": "package main\n", "go.mod": "module example.com/op\n"}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := compileNoSrc(t, filepath.Join(dir, "spec.sieve"), "")
	got := compileNoSrc(t, filepath.Join(dir, "spec.cue"), "")
	if !bytes.Equal(got, want) {
		t.Errorf("grammar.md's CUE example differs from the .sieve one:\n%s", lineDiff(want, got))
	}
}

// firstBlock returns the first fenced code block of the language in md.
func firstBlock(md []byte, lang string) string {
	re := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```")
	m := re.FindSubmatch(md)
	if m == nil {
		return ""
	}
	return strings.TrimLeft(string(m[1]), "\n")
}
