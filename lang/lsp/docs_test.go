package lsp

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/check"
)

// TestDocsFromGrammar holds docs.txt equal to what grammar.md says, so
// that hover text has one source.
func TestDocsFromGrammar(t *testing.T) {
	md, err := os.ReadFile("../../grammar.md")
	if err != nil {
		t.Fatal(err)
	}
	got := docsFromGrammar(string(md))
	for _, want := range []string{"== test", "== policy.stale_quiet", "== test.settle_max", "== controller.crds", "== workload.wait", "== workload.settle"} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("docs from grammar.md lack %q", want)
		}
	}
	golden.File(t, "docs.txt", []byte(got))
}

var (
	sectionRE = regexp.MustCompile(`(?m)^### (\w+)\n`)
	attrRE    = regexp.MustCompile(`^  ([a-z_]+)\s+(?:\+=\s*)?\S.*?\s//\s*(.+)$`)
	stepRE    = regexp.MustCompile("^\\| `(([a-z]+)[^`]*)` \\| (.+) \\|$")
)

// docsFromGrammar builds docs.txt from grammar.md's declaration sections.
func docsFromGrammar(md string) string {
	var b strings.Builder
	keywords := append([]string{"import"}, check.DeclKeywords()...)
	locs := sectionRE.FindAllStringSubmatchIndex(md, -1)
	for i, loc := range locs {
		kw := md[loc[2]:loc[3]]
		if !slices.Contains(keywords, kw) {
			continue
		}
		end := len(md)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		code, para := firstExample(md[loc[1]:end])
		b.WriteString("== " + kw + "\n" + para + "\n")
		for _, a := range exampleComments(kw, code) {
			b.WriteString("== " + kw + "." + a[0] + "\n" + a[1] + "\n")
		}
		for _, st := range stepRows(md[loc[1]:end]) {
			b.WriteString("== " + kw + "." + st[0] + "\n" + st[1] + "\n")
		}
	}
	return b.String()
}

// firstExample returns a section's first code block and the paragraph
// after it.
func firstExample(sec string) (code, para string) {
	_, rest, _ := strings.Cut(sec, "```")
	code, rest, _ = strings.Cut(rest, "\n```")
	para, _, _ = strings.Cut(strings.TrimLeft(rest, "\n"), "\n\n")
	return code, para
}

// exampleComments returns, for each attribute of kw's blocks that an
// example line documents with a trailing comment, its name and comment;
// the first comment of a name wins.
func exampleComments(kw, code string) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	in := false
	for _, l := range strings.Split(code, "\n") {
		if !strings.HasPrefix(l, " ") && strings.TrimSpace(l) != "" {
			in = strings.HasPrefix(l, kw+" ")
		}
		m := attrRE.FindStringSubmatch(l)
		if !in || m == nil || seen[m[1]] || !slices.Contains(check.Attributes(kw), m[1]) {
			continue
		}
		seen[m[1]] = true
		out = append(out, [2]string{m[1], m[2]})
	}
	return out
}

// stepRows returns, for each step keyword of a section's step table
// (| `SYNTAX` | meaning |), its rows as markdown lines, in table order.
func stepRows(sec string) [][2]string {
	var out [][2]string
	at := map[string]int{}
	for _, l := range strings.Split(sec, "\n") {
		m := stepRE.FindStringSubmatch(l)
		if m == nil || !slices.Contains(stepKeywords, m[2]) {
			continue
		}
		row := strings.ReplaceAll("`"+m[1]+"`: "+m[3], `\|`, "|") // a table cell's escape
		if i, ok := at[m[2]]; ok {
			out[i][1] += "\n\n" + row
			continue
		}
		at[m[2]] = len(out)
		out = append(out, [2]string{m[2], row})
	}
	return out
}
