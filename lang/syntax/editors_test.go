package syntax

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

const textMatePath = "../../editors/vscode/syntaxes/sieve.tmLanguage.json"

// TestTextMateKeywords holds the keywords of the TextMate grammar that
// editors highlight with equal to the grammar's: the words of every
// \b(a|b|...)\b group in its rules, the embedded CEL rules (repository
// "cel") aside, against the quoted words of EBNF.
func TestTextMateKeywords(t *testing.T) {
	data, err := os.ReadFile(textMatePath)
	if err != nil {
		t.Fatal(err)
	}
	var g map[string]any
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("%s: %v", textMatePath, err)
	}
	if repo, ok := g["repository"].(map[string]any); ok {
		delete(repo, "cel")
	}
	checkKeywords(t, textMatePath, wordSet(textMateKeywords(g, nil)))
}

const vimPath = "../../editors/nvim/syntax/sieve.vim"

// TestVimKeywords holds the keywords of the Vim syntax file equal to the
// grammar's: the words of its `syn keyword` lines, but for TODO markers.
func TestVimKeywords(t *testing.T) {
	data, err := os.ReadFile(vimPath)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "syn" || f[1] != "keyword" || f[2] == "sieveTodo" {
			continue
		}
		for _, w := range f[3:] {
			if !strings.Contains(w, "=") && w != "skipwhite" && w != "contained" {
				got = append(got, []string{w})
			}
		}
	}
	checkKeywords(t, vimPath, wordSet(got))
}

// checkKeywords reports the keywords of the grammar (EBNF) missing from
// an editor's file, and the words it highlights that are none.
func checkKeywords(t *testing.T, file string, got []string) {
	t.Helper()
	want := wordSet(ebnfKeywords.FindAllStringSubmatch(EBNF(), -1))
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("keyword %q of the grammar is not highlighted in %s", w, file)
		}
	}
	for _, w := range got {
		if !slices.Contains(want, w) {
			t.Errorf("%s highlights %q, which is no keyword of the grammar", file, w)
		}
	}
}

var (
	ebnfKeywords  = regexp.MustCompile(`"([a-z_]+)"`)
	keywordGroup  = regexp.MustCompile(`\\b\(([a-z_]+(?:\|[a-z_]+)*)\)\\b`)
	keywordInList = regexp.MustCompile(`[a-z_]+`)
)

// textMateKeywords collects the keyword groups of every regular
// expression in the grammar's rules.
func textMateKeywords(v any, out [][]string) [][]string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "match" || k == "begin" || k == "end") {
				for _, m := range keywordGroup.FindAllStringSubmatch(s, -1) {
					out = append(out, keywordInList.FindAllStringSubmatch(m[1], -1)...)
				}
				continue
			}
			out = textMateKeywords(x, out)
		}
	case []any:
		for _, x := range v {
			out = textMateKeywords(x, out)
		}
	}
	return out
}

// wordSet returns the sorted distinct first submatches (or whole matches).
func wordSet(ms [][]string) []string {
	var out []string
	for _, m := range ms {
		w := m[len(m)-1]
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// TestVimSyntax opens a spec in a headless Neovim with editors/nvim first
// on the runtime path, and checks that its syntax file and plugin, not the
// built-in ones of the mail-filter language Sieve, are what colours it.
func TestVimSyntax(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("no nvim on PATH (.ci/run installs it)")
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "x.sieve")
	src := "plan p {\n  on create pod/default/ds-* #2: crash // why\n}\n"
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rtp, err := filepath.Abs("../../editors/nvim")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	probe := `lua local r = {vim.bo.commentstring}
for _, p in ipairs({{1, 1}, {1, 6}, {2, 3}, {2, 13}, {2, 30}, {2, 34}, {2, 41}}) do
  table.insert(r, vim.fn.synIDattr(vim.fn.synID(p[1], p[2], 1), "name"))
end
vim.fn.writefile(r, "` + out + `")`
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "--cmd", "set rtp^="+rtp,
		"--cmd", "filetype plugin on", "--cmd", "syntax on", spec, "-c", strings.ReplaceAll(probe, "\n", " "), "-c", "qa!")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "// %s\nsieveDeclaration\nsieveName\nsieveKeyword\nsieveKey\nsieveOperator\nsieveAction\nsieveComment\n"
	if string(got) != want {
		t.Errorf("commentstring and syntax groups:\n%s\nwant:\n%s", got, want)
	}
}
