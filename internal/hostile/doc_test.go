package hostile

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocCoversTargets holds docs/hostile-input.md in step with the code:
// every fuzz target of the repository is in its table, and every test it
// names exists.
func TestDocCoversTargets(t *testing.T) {
	doc, err := os.ReadFile("../../docs/hostile-input.md")
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	funcs := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]*)\(`)
	err = filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "../..":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range funcs.FindAllSubmatch(b, -1) {
			name := string(m[1])
			defined[name] = true
			if strings.HasPrefix(name, "Fuzz") && !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("%s: fuzz target %s is not in docs/hostile-input.md", p, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("`((?:Test|Fuzz)[A-Za-z0-9_]+)").FindAllSubmatch(doc, -1) {
		if !defined[string(m[1])] {
			t.Errorf("docs/hostile-input.md names %s, which no test file defines", m[1])
		}
	}
}
