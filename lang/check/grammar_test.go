package check_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/stdlib"
)

// exampleFiles are the files grammar.md's examples refer to; the test
// creates them next to each example so that file checks pass.
var exampleFiles = map[string]string{
	"controller/main.go": "package main\n",
	"go.mod":             "module example.com/op\n",
	"crd.yaml":           "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: datastores.example.com}\nspec: {names: {kind: Datastore}}\n",
	"cluster.yaml":       "apiVersion: example.com/v1\nkind: Datastore\nmetadata: {name: ds}\n",
	"fakezk":             "#!/bin/sh\n",
	"fakeadmin":          "#!/bin/sh\n",
	"fakeagent":          "#!/bin/sh\n",
}

// sieveBlock matches a ```sieve code block.
var sieveBlock = regexp.MustCompile("(?s)```sieve\n(.*?)```")

// TestGrammarExamples parses and checks every ```sieve block of
// grammar.md; each must check without errors or warnings.
func TestGrammarExamples(t *testing.T) {
	md, err := os.ReadFile("../../grammar.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := sieveBlock.FindAllSubmatchIndex(md, -1)
	if len(blocks) == 0 {
		t.Fatal("grammar.md has no ```sieve blocks")
	}
	dir := t.TempDir()
	for f, text := range exampleFiles {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range blocks {
		line := 1 + strings.Count(string(md[:b[2]]), "\n")
		src := md[b[2]:b[3]]
		name := filepath.Join(dir, "grammar.md.line"+strconv.Itoa(line)+".sieve")
		_, ds := check.File(name, src, check.Options{Std: stdlib.FS()})
		if len(ds) > 0 {
			t.Errorf("grammar.md:%d: example does not check:\n%s", line, render(ds, name, src))
		}
	}
}

func render(ds diag.Diagnostics, name string, src []byte) string {
	var b strings.Builder
	lookup := func(f string) ([]byte, bool) { return src, f == name }
	_ = diag.WriteText(&b, ds, diag.RenderOptions{Source: lookup})
	return b.String()
}
