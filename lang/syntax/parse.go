package syntax

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sievetool/sieve/lang/diag"
)

// MaxDepth is the deepest bracket nesting Parse accepts. Deeper input is
// reported, not parsed, so that the recursive-descent parser cannot exhaust
// the stack.
const MaxDepth = 100

// maxLexErrors caps the lexical diagnostics of one file.
const maxLexErrors = 10

// grammar builds the participle parser from the AST's tags, once, on first
// use (the CLI never needs it): the reference implementation of the
// grammar. It prints the EBNF of grammar.md. Parse runs the hand-written
// descent parser, which tests hold to this one; participle's reflective
// parser is too slow for large specs (BenchmarkParse10MB measures Parse).
// Participle parsers are safe for concurrent use.
//
// Lookahead is 0: an alternative that consumed a token is committed to, so
// a syntax error is reported where it is (`controller c { args }` fails at
// "}", not at "args"). Every alternative is decided by its first token,
// except two that use an explicit lookahead group. Write and Timeout both
// start with "after" (Write checks for "after write"). A named argument
// starts like a positional one (Arg checks for IDENT "=").
var grammar = sync.OnceValue(func() *participle.Parser[File] {
	return participle.MustBuild[File](
		participle.Lexer(lexDef),
		participle.UseLookahead(0),
		participle.Elide("Comment", "Whitespace"),
		participle.Union[Decl](&Import{}, &Controller{}, &Workload{}, &Policy{}, &Mask{}, &Invariant{}, &Plan{}, &Test{}),
		participle.Union[Step](&Apply{}, &Patch{}, &Delete{}, &Scale{}, &Wait{}, &Settle{}, &Sleep{}, &Explore{}),
		participle.Union[Action](&Crash{}, &Restart{}, &Stale{}, &Hold{}, &Release{}, &Pause{}, &PauseController{}, &ResumeController{}, &APIError{}, &AppFault{}),
		participle.Union[TriggerAtom](&Group{}, &CallLeaf{}, &ReadLeaf{}, &Event{}, &Write{}, &Quiet{}, &Timeout{}),
		participle.Union[Primary](&KeyLit{}, &DurationLit{}, &NumberLit{}, &StringLit{}, &BoolLit{}, &NullLit{}, &List{}, &Object{}, &Call{}, &Paren{}),
	)
})

// EBNF returns the grammar in participle's EBNF notation; grammar.md holds
// the same text.
func EBNF() string { return grammar().String() }

// Parse parses one .sieve file. It always returns a non-nil File: the part
// it could parse, with every comment; the diagnostics say what went wrong,
// at file:line:col. Syntax errors stop the parse at the first one.
func Parse(filename string, src []byte) (*File, diag.Diagnostics) {
	if i := invalidUTF8(src); i >= 0 {
		p := positionAt(filename, src, i)
		return emptyFile(p), diag.Diagnostics{diag.Errorf(diag.Range{Start: p, End: p}, "syntax",
			"invalid UTF-8 encoding (save the file as UTF-8)")}
	}
	toks, comments := scanSignificant(filename, string(src), maxLexErrors)
	// The file spans all of src, comments and blank lines included.
	f := &File{Comments: comments}
	f.Pos, f.EndPos = positionAt(filename, src, 0), diag.Position(toks[len(toks)-1].Pos)
	if ds := checkTokens(toks); len(ds) > 0 {
		return f, ds
	}
	parsed, ds := parseTokens(toks)
	parsed.Span, parsed.Comments = f.Span, f.Comments
	if len(ds) > 0 {
		return parsed, ds
	}
	return parsed, nil
}

// repairRanges ends the nodes of a partial tree (a file or a declaration)
// that the parser left unfinished (EndPos unset) at the syntax error.
func repairRanges(f Node, at diag.Position) {
	Walk(f, func(n Node) bool {
		s := span(n)
		if s != nil && (!s.EndPos.IsValid() || s.EndPos.Offset < s.Pos.Offset) {
			s.EndPos = at
			if at.Offset < s.Pos.Offset {
				s.EndPos = s.Pos
			}
		}
		return true
	})
}

func emptyFile(p diag.Position) *File {
	return &File{Span: Span{Pos: p, EndPos: p}}
}

// checkTokens reports bad tokens, bad string escapes and nesting deeper
// than MaxDepth.
func checkTokens(toks []lexer.Token) diag.Diagnostics {
	var ds diag.Diagnostics
	depth := 0
	for _, t := range toks {
		if len(ds) >= maxLexErrors {
			break
		}
		if d := checkToken(t); d != nil {
			ds = append(ds, d)
			continue
		}
		if t.Type != tPunct {
			continue
		}
		switch t.Value {
		case "(", "[", "{":
			depth++
			if depth > MaxDepth {
				return append(ds, tokenError(t, "syntax", "brackets nested too deeply: more than %d levels", MaxDepth))
			}
		case ")", "]", "}":
			depth--
		}
	}
	return ds
}

func checkToken(t lexer.Token) *diag.Diagnostic {
	switch t.Type {
	case tBadComment:
		return tokenError(t, "syntax", "unterminated block comment (missing */)")
	case tBadRawString:
		return tokenError(t, "syntax", "unterminated raw string (missing `)")
	case tBadString:
		return tokenError(t, "syntax", "unterminated string (missing \" before the end of the line)")
	case tInvalid:
		return tokenError(t, "syntax", "invalid character %s", quoteRune(t.Value))
	case tString:
		return checkEscapes(t)
	}
	return nil
}

// quoteShort quotes s, cut to its first line and at most 40 bytes.
func quoteShort(s string) string {
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if len(s) > 40 {
		n := 40
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = s[:n], true
	}
	if cut {
		return strconv.Quote(s) + "..."
	}
	return strconv.Quote(s)
}

// checkEscapes reports the first invalid escape sequence of a string token.
func checkEscapes(t lexer.Token) *diag.Diagnostic {
	s := t.Value[1 : len(t.Value)-1]
	for len(s) > 0 {
		_, _, tail, err := strconv.UnquoteChar(s, '"')
		if err != nil {
			seq := s[:min(2, len(s))]
			bad := lexer.Token{Pos: t.Pos, Value: seq}
			bad.Pos.Advance(t.Value[:len(t.Value)-1-len(s)])
			return tokenError(bad, "syntax", "invalid escape %s in string (write \\\\ for a backslash)", seq)
		}
		s = tail
	}
	return nil
}

func quoteRune(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	return strconv.QuoteRune(r)
}

func tokenError(t lexer.Token, code, format string, args ...any) *diag.Diagnostic {
	start := t.Pos
	end := start
	end.Advance(t.Value)
	return diag.Errorf(diag.Range{Start: diag.Position(start), End: diag.Position(end)}, code, format, args...)
}

// unexpectedToken is the diagnostic for an unexpected token.
func unexpectedToken(t lexer.Token, expected string) *diag.Diagnostic {
	return tokenError(t, "syntax", "%s", unexpectedText(t, expected))
}

func unexpectedText(t lexer.Token, expected string) string {
	what := quoteShort(t.Value)
	if t.EOF() {
		what = "end of file"
	}
	return "unexpected " + what + " (expected " + expected + ")"
}

// invalidUTF8 returns the offset of the first invalid UTF-8 byte, or -1.
func invalidUTF8(src []byte) int {
	if utf8.Valid(src) {
		return -1
	}
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// positionAt returns the position of byte offset off in src.
func positionAt(filename string, src []byte, off int) diag.Position {
	p := lexer.Position{Filename: filename, Line: 1, Column: 1}
	p.Advance(string(src[:off]))
	return diag.Position(p)
}
