package lsp

import (
	_ "embed"
	"strings"
	"sync"
)

// docs.txt holds the hover text of keywords and attributes, taken from
// grammar.md by TestDocsFromGrammar (SIEVE_UPDATE=1 rewrites it): for each
// declaration keyword, the paragraph that follows its section's first
// example; for each attribute, the comment its example line carries; for
// each workload step, its rows of the step table (workload.STEP). An
// entry is a line "== KEY" (a keyword, or KEYWORD.ATTRIBUTE), then its
// text.
//
//go:embed docs.txt
var docsTxt string

// docs returns the hover text of keywords and attributes, parsed once.
var docs = sync.OnceValue(func() map[string]string { return parseDocs(docsTxt) })

func parseDocs(s string) map[string]string {
	out := map[string]string{}
	key, body := "", []string(nil)
	flush := func() {
		if key != "" {
			out[key] = strings.TrimSpace(strings.Join(body, "\n"))
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if k, ok := strings.CutPrefix(l, "== "); ok {
			flush()
			key, body = k, nil
			continue
		}
		body = append(body, l)
	}
	flush()
	return out
}

// attrDoc returns the text of attribute name in a block of keyword; a
// test's controller attributes are documented under controller.
func attrDoc(keyword, name string) string {
	if d, ok := docs()[keyword+"."+name]; ok {
		return d
	}
	if keyword == "test" {
		return docs()["controller."+name]
	}
	return ""
}
