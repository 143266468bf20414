package syntax

import (
	"errors"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sievetool/sieve/lang/diag"
)

// This file runs participle's parser, the reference implementation of the
// grammar, for TestDescentMatchesParticiple.

// parseParticiple parses toks with participle's parser, the reference
// implementation of the grammar that descent must match.
func parseParticiple(filename string, toks []lexer.Token) (*File, *diag.Diagnostic) {
	peek, err := lexer.Upgrade(&replay{toks: dropRepeatedElided(toks)}, elided()...)
	if err != nil {
		return emptyFile(diag.Position{Filename: filename, Line: 1, Column: 1}), syntaxError(err, filename)
	}
	f, err := grammar().ParseFromLexer(peek)
	if f == nil {
		f = &File{}
	}
	if err != nil {
		d := syntaxError(err, filename)
		repairRanges(f, d.Subject.Start)
		return f, d
	}
	return f, nil
}

// dropRepeatedElided keeps only the first of each run of whitespace and
// comment tokens: the parser only needs where a run starts (it ends nodes
// there), and skipping fewer tokens is faster.
func dropRepeatedElided(toks []lexer.Token) []lexer.Token {
	out := toks[:0:0]
	prevElided := false
	for _, t := range toks {
		e := t.Type == tComment || t.Type == tWhitespace
		if !(e && prevElided) {
			out = append(out, t)
		}
		prevElided = e
	}
	return out
}

func elided() []lexer.TokenType {
	return []lexer.TokenType{tComment, tWhitespace}
}

// syntaxError turns a participle error into a diagnostic.
func syntaxError(err error, filename string) *diag.Diagnostic {
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		return tokenError(ute.Unexpected, "syntax", "%s", unexpected(ute))
	}
	var pe participle.Error
	if errors.As(err, &pe) {
		p := diag.Position(pe.Position())
		return diag.Errorf(diag.Range{Start: p, End: p}, "syntax", "%s", pe.Message())
	}
	p := diag.Position{Filename: filename, Line: 1, Column: 1}
	return diag.Errorf(diag.Range{Start: p, End: p}, "syntax", "%v", err)
}

func unexpected(e *participle.UnexpectedTokenError) string {
	short := *e // Message quotes the token; it may be megabytes long.
	short.Unexpected.Value = ""
	_, exp, ok := strings.Cut(short.Message(), " (expected ")
	if !ok {
		return unexpectedText(e.Unexpected, "a declaration: "+orWords(declKeywords))
	}
	return unexpectedText(e.Unexpected, friendlyExpect(strings.TrimSuffix(exp, ")")))
}

// expectWords names productions in error messages.
var expectWords = map[string]string{
	"Primary": "a value", "Expr": "a value", "Term": "a value", "Unary": "a value",
	"Ident": "a name", "Name": "a name", "Body": `"{"`, "StringLit": "a string",
	"KeyLit": "a resource key", "NumberLit": "a number", "DurationLit": "a duration",
	"Path": "a field path", "Cond": "a condition", "Object": `"{"`, "Trigger": "a trigger",
	"Action":   "an action: crash, restart, stale, hold, release or wait",
	"Step":     "a step: " + orWords(stepKeywords),
	"Decl":     "a declaration: " + orWords(declKeywords),
	"WaitCond": "exists, gone, ready, N ready or where",
	"<ident>":  "a name", "<string>": "a string", "<number>": "a number",
}

// friendlyExpect turns participle's expectation (a fragment of EBNF) into
// words: the tokens that could have come next.
func friendlyExpect(ebnf string) string {
	if w, ok := expectWords[ebnf]; ok {
		return w
	}
	first := firstTerm(ebnf)
	if first != ebnf {
		return friendlyExpect(first)
	}
	if strings.HasPrefix(first, "(") && strings.HasSuffix(first, ")") {
		var words []string
		for _, alt := range splitTop(first[1 : len(first)-1]) {
			words = append(words, friendlyExpect(firstTerm(alt)))
		}
		return orList(words)
	}
	return first
}

// firstTerm returns the first term of an EBNF sequence, with its
// parentheses (a trailing "?" or "*" is dropped).
func firstTerm(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ' ':
			if depth == 0 {
				return strings.TrimRight(s[:i], "?*+")
			}
		}
	}
	return strings.TrimRight(s, "?*+")
}

// splitTop splits an EBNF disjunction at its top-level bars.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
