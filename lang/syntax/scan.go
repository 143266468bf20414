package syntax

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sievetool/sieve/lang/diag"
)

// definition is the participle lexer definition: the token types of rules,
// scanned by the hand-written scanner below rather than by trying each
// rule's regular expression in turn, which is about ten times slower.
// TestScannerMatchesRules holds the scanner to the rules.
type definition struct {
	symbols map[string]lexer.TokenType
}

// Token types, in the order of rules (participle's EOF is -1).
const (
	tComment lexer.TokenType = iota
	tWhitespace
	tRawString
	tString
	tKey
	tDuration
	tNumber
	tIdent
	tPunct
	tBadComment
	tBadRawString
	tBadString
	tInvalid
)

func newDefinition() *definition {
	d := &definition{symbols: map[string]lexer.TokenType{"EOF": lexer.EOF}}
	for i, r := range rules {
		d.symbols[r.Name] = lexer.TokenType(i)
	}
	return d
}

// Symbols returns the token types by name.
func (d *definition) Symbols() map[string]lexer.TokenType { return d.symbols }

// Lex reads all of r and scans it.
func (d *definition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("lex %s: %w", filename, err)
	}
	return &replay{toks: scanAll(filename, string(b), -1)}, nil
}

// scanAll returns the tokens of src, ending with EOF. When maxBad >= 0 it
// stops after that many bad tokens.
func scanAll(filename, src string, maxBad int) []lexer.Token {
	var toks []lexer.Token
	scan(filename, src, maxBad, func(t lexer.Token) { toks = append(toks, t) })
	return toks
}

// scanSignificant returns the tokens of src without whitespace and
// comments, ending with EOF, and the comments.
func scanSignificant(filename, src string, maxBad int) ([]lexer.Token, []*Comment) {
	toks := make([]lexer.Token, 0, len(src)/6+1)
	var cs []*Comment
	scan(filename, src, maxBad, func(t lexer.Token) {
		switch t.Type {
		case tWhitespace:
		case tComment:
			end := t.Pos
			advance(&end, t.Value)
			cs = append(cs, &Comment{Span: Span{Pos: diag.Position(t.Pos), EndPos: diag.Position(end)}, Text: t.Value})
		default:
			toks = append(toks, t)
		}
	})
	return toks, cs
}

// scan calls emit for each token of src, then for EOF. When maxBad >= 0 it
// stops after that many bad tokens. It returns how many bytes it looked at
// for keys that were not there, which tests hold linear in len(src).
func scan(filename, src string, maxBad int, emit func(lexer.Token)) (looked int) {
	pos := lexer.Position{Filename: filename, Line: 1, Column: 1}
	start := 0
	if strings.HasPrefix(src, bom) {
		// Editors on Windows start UTF-8 files with a byte order mark; it
		// is whitespace that takes no column.
		emit(lexer.Token{Type: tWhitespace, Value: bom, Pos: pos})
		pos.Offset, start = len(bom), len(bom)
	}
	noKey := 0 // no key starts before this offset (see scanKey)
	for i := start; i < len(src); {
		typ, n, run := scanToken(src[i:], i < noKey)
		noKey, looked = max(noKey, i+run), looked+run
		val := src[i : i+n]
		emit(lexer.Token{Type: typ, Value: val, Pos: pos})
		advance(&pos, val)
		i += n
		if typ >= tBadComment && maxBad >= 0 {
			if maxBad--; maxBad == 0 {
				break
			}
		}
	}
	emit(lexer.EOFToken(pos))
	return looked
}

// bom is the UTF-8 byte order mark, accepted at the start of a file.
const bom = "\uFEFF"

// advance moves p over s (lexer.Position.Advance without the allocation
// of counting lines twice).
func advance(p *lexer.Position, s string) {
	p.Offset += len(s)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			p.Line++
			p.Column = 1
			i++
		case c < utf8.RuneSelf:
			p.Column++
			i++
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			p.Column++
			i += n
		}
	}
}

// scanToken returns the type and length of the token at the start of s,
// which is not empty. The cases follow rules, in order. noKey says that no
// key starts here (a previous scanKey found none in this run); otherwise
// run is how far scanKey looked without finding one (see scanKey).
func scanToken(s string, noKey bool) (typ lexer.TokenType, n, run int) {
	if n := scanComment(s); n > 0 {
		return tComment, n, 0
	}
	if n := scanSpace(s); n > 0 {
		return tWhitespace, n, 0
	}
	switch s[0] {
	case '`':
		if n := strings.IndexByte(s[1:], '`'); n >= 0 {
			return tRawString, n + 2, 0
		}
		return tBadRawString, len(s), 0
	case '"':
		typ, n := scanString(s)
		return typ, n, 0
	}
	if !noKey {
		if n, run = scanKey(s); n > 0 {
			return tKey, n, 0
		}
	}
	typ, n = scanOther(s)
	return typ, n, run
}

// scanOther scans the tokens that follow a key in rules.
func scanOther(s string) (lexer.TokenType, int) {
	if isDigit(s[0]) {
		if n := scanDuration(s); n > 0 {
			return tDuration, n
		}
		return tNumber, scanNumber(s)
	}
	if isIdentStart(s[0]) {
		n := 1
		for n < len(s) && isIdentChar(s[n]) {
			n++
		}
		return tIdent, n
	}
	if n := scanPunct(s); n > 0 {
		return tPunct, n
	}
	if len(s) >= 2 && s[0] == '/' && s[1] == '*' {
		return tBadComment, len(s)
	}
	_, n := utf8.DecodeRuneInString(s)
	return tInvalid, n
}

func scanComment(s string) int {
	if len(s) < 2 || s[0] != '/' {
		return 0
	}
	switch s[1] {
	case '/':
		if n := strings.IndexByte(s, '\n'); n >= 0 {
			return n
		}
		return len(s)
	case '*':
		for i := 2; i+1 < len(s); i++ {
			if s[i] == '*' && s[i+1] == '/' {
				return i + 2
			}
		}
	}
	return 0
}

func scanSpace(s string) int {
	n := 0
	for n < len(s) && (s[n] == ' ' || s[n] == '\t' || s[n] == '\r' || s[n] == '\n') {
		n++
	}
	return n
}

// scanString scans a string starting at s[0] == '"'.
func scanString(s string) (lexer.TokenType, int) {
	for i := 1; i < len(s); {
		switch s[i] {
		case '"':
			return tString, i + 1
		case '\n':
			return tBadString, i
		case '\\':
			if i+1 >= len(s) || s[i+1] == '\n' {
				return tBadString, i + 1
			}
			_, n := utf8.DecodeRuneInString(s[i+1:])
			i += 1 + n
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
		}
	}
	return tBadString, len(s)
}

// scanKey scans seg/seg or seg/seg/seg. When it finds no key, run is the
// length of the first segment's run of characters. No key starts inside
// that run either: from any place inside, the first segment ends at the
// same place (or, inside ${...}, at its "}"), where no key went on.
// The scanner skips scanKey there, so that a long run of segment
// characters that is no key ("------1", "a.b.c.d...") scans in linear
// time, not in time quadratic in its length.
func scanKey(s string) (n, run int) {
	n = scanSeg(s)
	if n == 0 || n >= len(s) || s[n] != '/' {
		return 0, n
	}
	m := scanSeg(s[n+1:])
	if m == 0 {
		return 0, n
	}
	n += 1 + m
	if n < len(s) && s[n] == '/' {
		if m := scanSeg(s[n+1:]); m > 0 {
			n += 1 + m
		}
	}
	return n, 0
}

// scanSeg scans one key segment: name characters, globs and ${ident}.
func scanSeg(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		switch {
		case isIdentChar(c) || c == '.' || c == '*' || c == '?' || c == '-':
			n++
		case c == '$' && n+2 < len(s) && s[n+1] == '{' && isIdentStart(s[n+2]):
			j := n + 3
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			if j >= len(s) || s[j] != '}' {
				return n
			}
			n = j + 1
		default:
			return n
		}
	}
	return n
}

var durationUnits = []string{"ns", "us", "µs", "ms", "s", "m", "h"}

// scanDuration scans (digits unit)+, or returns 0.
func scanDuration(s string) int {
	n := 0
	for {
		d := scanDigits(s[n:])
		if d == 0 {
			return n
		}
		u := scanUnit(s[n+d:])
		if u == 0 {
			return n
		}
		n += d + u
	}
}

func scanUnit(s string) int {
	for _, u := range durationUnits {
		if len(s) >= len(u) && s[:len(u)] == u {
			return len(u)
		}
	}
	return 0
}

func scanNumber(s string) int {
	n := scanDigits(s)
	if n+1 < len(s) && s[n] == '.' && isDigit(s[n+1]) {
		n += 1 + scanDigits(s[n+1:])
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		j := n + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if d := scanDigits(s[j:]); d > 0 {
			n = j + d
		}
	}
	return n
}

func scanDigits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

func scanPunct(s string) int {
	if len(s) >= 2 && (s[:2] == "+=" || s[:2] == "==") {
		return 2
	}
	switch s[0] {
	case '-', '+', '*', '{', '}', '[', ']', '(', ')', ':', ',', '.', ';', '&', '|', '#', '=':
		return 1
	}
	return 0
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }

// replay is a lexer.Lexer over tokens lexed beforehand.
type replay struct {
	toks []lexer.Token
	i    int
}

func (r *replay) Next() (lexer.Token, error) {
	t := r.toks[r.i]
	if r.i < len(r.toks)-1 {
		r.i++
	}
	return t, nil
}
