package syntax

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"sort"
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
	got := wordSet(textMateKeywords(g, nil))
	want := wordSet(ebnfKeywords.FindAllStringSubmatch(EBNF(), -1))
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("keyword %q of the grammar is not highlighted in %s", w, textMatePath)
		}
	}
	for _, w := range got {
		if !slices.Contains(want, w) {
			t.Errorf("%s highlights %q, which is no keyword of the grammar", textMatePath, w)
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
