package syntax

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/internal/spell"
)

// descent is the recursive-descent parser that Parse runs. It implements
// exactly the grammar of the participle tags on the AST types (the reference
// grammar, printed by EBNF), much faster than participle's reflective parser
// (BenchmarkParse10MB). TestDescentMatchesParticiple holds the two to the
// same trees, positions and first-error positions. Each method parses the
// production of the same name. After an error every method returns at once,
// so the declaration is best effort; parseTokens then recovers at the next
// declaration (see recover).
type descent struct {
	toks    []lexer.Token // without whitespace and comments, ending with EOF
	i       int
	lastEnd diag.Position // the end of the last consumed token
	err     *diag.Diagnostic

	// Slabs for the most frequent nodes (every value is an Expr, a Term
	// and a Unary): allocating them in blocks halves the allocations.
	exprs  slab[Expr]
	terms  slab[Term]
	unarys slab[Unary]
	calls  slab[Call]
	names  slab[Name]
	idents slab[Ident]
	paths  slab[Path]
}

// slab hands out pointers into blocks of T.
type slab[T any] struct{ block []T }

func (s *slab[T]) new() *T {
	if len(s.block) == cap(s.block) {
		s.block = make([]T, 0, 128)
	}
	s.block = s.block[:len(s.block)+1]
	return &s.block[len(s.block)-1]
}

// maxSyntaxErrors bounds the syntax errors of one file: after that many,
// the rest of the file is not parsed.
const maxSyntaxErrors = 10

// parseTokens parses the significant tokens of a file (no whitespace or
// comments), ending with EOF. After a syntax error it skips to the next
// word in column 1 (where declarations start) and goes on, so each broken
// declaration gives one error, in source order. A declaration cut short by
// an error is kept, its unfinished ranges ending at the error.
func parseTokens(toks []lexer.Token) (*File, diag.Diagnostics) {
	p := &descent{toks: toks}
	p.lastEnd = diag.Position(toks[0].Pos)
	f := &File{}
	var errs diag.Diagnostics
	for !p.peek().EOF() && len(errs) < maxSyntaxErrors {
		start := p.i
		d := p.decl()
		if d != nil {
			f.Decls = append(f.Decls, d)
		}
		if p.err == nil {
			continue
		}
		if d != nil {
			repairRanges(d, p.err.Subject.Start)
		}
		errs = append(errs, p.err)
		p.recover(start)
	}
	return f, errs
}

// recover skips, after an error in the declaration that started at token
// start, to the next word in column 1 (at or after the error, and after
// start): a declaration keyword, or a misspelt one that decl reports. It
// clears the error.
func (p *descent) recover(start int) {
	p.i = max(p.i, start+1)
	for ; p.i < len(p.toks)-1; p.i++ {
		t := &p.toks[p.i]
		if t.Pos.Column == 1 && t.Type == tIdent {
			break
		}
	}
	p.i = min(p.i, len(p.toks)-1)
	p.err = nil
}

func (p *descent) peek() *lexer.Token { return &p.toks[p.i] }

func (p *descent) peekAt(n int) *lexer.Token {
	return &p.toks[min(p.i+n, len(p.toks)-1)]
}

func (p *descent) next() lexer.Token {
	t := p.toks[p.i]
	if !t.EOF() {
		p.i++
		end := t.Pos
		advance(&end, t.Value)
		p.lastEnd = diag.Position(end)
	}
	return t
}

// ok reports whether parsing goes on.
func (p *descent) ok() bool { return p.err == nil }

func (p *descent) isWord(w string) bool {
	t := p.peek()
	return t.Type == tIdent && t.Value == w
}

func (p *descent) isPunct(s string) bool {
	t := p.peek()
	return t.Type == tPunct && t.Value == s
}

func (p *descent) isType(typ lexer.TokenType) bool { return p.peek().Type == typ }

// fail records a syntax error at the current token, once.
func (p *descent) fail(expected string) {
	if p.err == nil {
		p.err = unexpectedToken(*p.peek(), expected)
	}
}

// endBlock expects the "}" that closes a block of keyword-led items; an
// identifier there is a misspelt or unknown item, reported with the
// keywords and the nearest one.
func (p *descent) endBlock(item string, words []string) {
	if p.ok() && !p.isPunct("}") {
		if t := p.peek(); t.Type == tIdent {
			p.fail(item + ": " + orWords(words))
			p.err.Detail = hint(t.Value, words)
		} else {
			p.fail(item + ` or "}"`)
		}
	}
	p.expectPunct("}")
}

// hint is "did you mean" for a misspelt keyword (not for a long word,
// which would cost time for nothing).
func hint(word string, keywords []string) string {
	if len(word) > 32 {
		return ""
	}
	return spell.Hint(word, keywords)
}

// orWords joins words as "a, b or c".
func orWords(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Keywords that start the items of blocks.
var (
	declKeywords   = []string{"import", "controller", "workload", "policy", "mask", "invariant", "plan", "test"}
	stepKeywords   = []string{"apply", "patch", "delete", "scale", "wait", "settle", "sleep", "explore"}
	ruleKeywords   = []string{"key", "path", "value", "whole"}
	actionKeywords = []string{"crash", "restart", "stale", "hold", "release", "wait", "pause", "resume", "error", "appfault"}
	// writeStarts are the words after "after" that make a write leaf
	// rather than a timeout.
	writeStarts = []string{"write", "failed", "sending"}
)

func (p *descent) expectPunct(s string) {
	if p.ok() && !p.isPunct(s) {
		p.fail(`"` + s + `"`)
	}
	if p.ok() {
		p.next()
	}
}

func (p *descent) expectWord(w string) {
	if p.ok() && !p.isWord(w) {
		p.fail(`"` + w + `"`)
	}
	if p.ok() {
		p.next()
	}
}

// word consumes one of words and returns it, or fails.
func (p *descent) word(expected string, words ...string) string {
	if !p.ok() {
		return ""
	}
	for _, w := range words {
		if p.isWord(w) {
			p.next()
			return w
		}
	}
	p.fail(expected)
	return ""
}

// optWord consumes and returns one of words if it comes next.
func (p *descent) optWord(words ...string) string {
	for _, w := range words {
		if p.ok() && p.isWord(w) {
			p.next()
			return w
		}
	}
	return ""
}

func (p *descent) token(typ lexer.TokenType, expected string) string {
	if p.ok() && !p.isType(typ) {
		p.fail(expected)
	}
	if !p.ok() {
		return ""
	}
	return p.next().Value
}

// open starts a node at the current token; close ends it at the last
// consumed token.
func (p *descent) open(s *Span) { s.Pos = diag.Position(p.peek().Pos) }

func (p *descent) close(s *Span) {
	s.EndPos = p.lastEnd
	if s.EndPos.Offset < s.Pos.Offset {
		s.EndPos = s.Pos
	}
}

func (p *descent) decl() Decl {
	t := p.peek()
	if t.Type == tIdent {
		switch t.Value {
		case "import":
			return p.importDecl()
		case "controller":
			return p.controller()
		case "workload":
			return p.workload()
		case "policy":
			return p.policy()
		case "mask":
			return p.mask()
		case "invariant":
			return p.invariant()
		case "plan":
			return p.plan()
		case "test":
			return p.test()
		}
	}
	p.fail("a declaration: " + orWords(declKeywords))
	if t.Type == tIdent {
		p.err.Detail = hint(t.Value, declKeywords)
	}
	return nil
}

func (p *descent) ident() *Ident {
	n := p.idents.new()
	p.open(&n.Span)
	n.Name = p.token(tIdent, "a name")
	p.close(&n.Span)
	return n
}

func (p *descent) stringLit() *StringLit {
	n := &StringLit{}
	p.open(&n.Span)
	if p.ok() && !p.isType(tString) && !p.isType(tRawString) {
		p.fail("a string")
	}
	if p.ok() {
		n.Text = p.next().Value
	}
	p.close(&n.Span)
	return n
}

func (p *descent) importDecl() *Import {
	n := &Import{}
	p.open(&n.Span)
	p.expectWord("import")
	if p.isType(tIdent) {
		n.Alias = p.ident()
	}
	n.Path = p.stringLit()
	p.close(&n.Span)
	return n
}

func (p *descent) controller() *Controller {
	n := &Controller{}
	p.open(&n.Span)
	p.expectWord("controller")
	n.Name = p.ident()
	n.Body = p.body()
	p.close(&n.Span)
	return n
}

func (p *descent) policy() *Policy {
	n := &Policy{}
	p.open(&n.Span)
	p.expectWord("policy")
	n.Name = p.ident()
	n.Body = p.body()
	p.close(&n.Span)
	return n
}

func (p *descent) test() *Test {
	n := &Test{}
	p.open(&n.Span)
	p.expectWord("test")
	n.Name = p.ident()
	if p.ok() && p.isPunct(":") {
		p.next()
		n.Base = p.name()
	}
	n.Body = p.body()
	p.close(&n.Span)
	return n
}

func (p *descent) body() *Body {
	n := &Body{}
	p.open(&n.Span)
	p.expectPunct("{")
	for p.ok() && p.isType(tIdent) {
		n.Attrs = append(n.Attrs, p.attr())
	}
	p.expectPunct("}")
	p.close(&n.Span)
	return n
}

func (p *descent) attr() *Attr {
	n := &Attr{}
	p.open(&n.Span)
	n.Name = p.ident()
	if p.ok() && p.isPunct("+=") {
		p.next()
		n.Append = true
	}
	n.Value = p.expr()
	p.close(&n.Span)
	return n
}

func (p *descent) name() *Name {
	n := p.names.new()
	p.open(&n.Span)
	n.Parts = append(n.Parts, p.token(tIdent, "a name"))
	for p.ok() && p.isPunct(".") {
		p.next()
		n.Parts = append(n.Parts, p.token(tIdent, "a name"))
	}
	p.close(&n.Span)
	return n
}
