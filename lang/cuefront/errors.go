package cuefront

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/sievetool/sieve/lang/diag"
)

// Bounds on what sieve prints of CUE's errors: a CUE error quotes the
// values it compares, which a spec of a few lines can make megabytes long,
// and a comprehension can make errors by the thousand.
const (
	maxMessage = 4 << 10 // bytes of one message
	maxErrors  = 100     // diagnostics of one CUE error
)

// clip shortens a message to maxMessage bytes, saying how much it left out.
func clip(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", msg[:cut], len(msg)-cut)
}

// errDiags turns a CUE error (a list of errors) into diagnostics: the
// first position in a spec file is the subject, the others (in the spec or
// in the schema) are related positions. Past maxErrors, one diagnostic
// says how many more there are.
func (s *source) errDiags(err error) diag.Diagnostics {
	var ds diag.Diagnostics
	errs := cueerrors.Errors(err)
	more := 0
	for _, e := range errs {
		if len(errs) > 1 && strings.Contains(e.Error(), "errors in empty disjunction") {
			continue // a summary of the errors that follow
		}
		if len(ds) == maxErrors {
			more++
			continue
		}
		ds = append(ds, s.errDiag(e))
	}
	if len(ds) == 0 {
		ds = fileDiags(s.given, "cue", "%s", clip(lowerFirst(err.Error())))
	}
	if more > 0 {
		ds = append(ds, fileDiags(s.given, "cue", "%d more CUE errors not shown (the first %d are)", more, maxErrors)...)
	}
	return ds
}

func (s *source) errDiag(e cueerrors.Error) *diag.Diagnostic {
	msg := clip(lowerFirst(innerPos.ReplaceAllString(e.Error(), "")))
	if p := e.Path(); len(p) > 0 && !strings.HasPrefix(msg, strings.Join(p, ".")+": ") {
		msg = strings.Join(p, ".") + ": " + msg
	}
	d := &diag.Diagnostic{Severity: diag.Error, Code: "cue", Summary: strings.TrimSuffix(msg, ".")}
	schemaNote := false
	for _, p := range positions(e) {
		r := s.rangeAt(p, p)
		switch {
		case d.Subject == nil && !s.isInternal(p):
			d.Subject = &r
		case d.Subject != nil && *d.Subject == r:
		case s.isInternal(p) && schemaNote:
		default:
			schemaNote = schemaNote || s.isInternal(p)
			d.Related = append(d.Related, diag.Related{Message: s.relatedMessage(p), Subject: r})
		}
	}
	if d.Subject == nil {
		r := s.pathRange(e.Path())
		d.Subject = &r
	}
	return d
}

// innerPos matches positions that wrapped CUE errors repeat in their
// messages; the diagnostic has them already.
var innerPos = regexp.MustCompile(`\S+\.cue:\d+:\d+: `)

// pathRange is where the value at path was written, for errors CUE gives
// no position in a spec file: the value's position, else its field's in
// the source (syntaxPos); the spec itself when both are unknown.
func (s *source) pathRange(path []string) diag.Range {
	at := diag.Position{Filename: s.given}
	fallback := diag.Range{Start: at, End: at}
	if p := s.syntaxPos(path); p.IsValid() {
		fallback = s.rangeAt(p, p)
	}
	if !s.orig.Exists() || len(path) == 0 {
		return fallback
	}
	var sels []cue.Selector
	for _, p := range path {
		if n, err := strconv.Atoi(p); err == nil {
			sels = append(sels, cue.Index(n))
		} else {
			sels = append(sels, cue.Str(p))
		}
	}
	for n := len(sels); n > 0; n-- {
		if u := s.orig.LookupPath(cue.MakePath(sels[:n]...)); u.Exists() && u.Pos().IsValid() && !s.isInternal(u.Pos()) {
			return s.rangeAt(u.Pos(), u.Pos())
		}
	}
	return fallback
}

// positions lists the error's positions, the primary one first, without
// duplicates or invalid ones.
func positions(e cueerrors.Error) []token.Pos {
	var out []token.Pos
	seen := map[token.Pos]bool{}
	for _, p := range append([]token.Pos{e.Position()}, e.InputPositions()...) {
		if p.IsValid() && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func (s *source) relatedMessage(p token.Pos) string {
	if s.isInternal(p) {
		return "constrained by the sieve schema"
	}
	return "conflicting or contributing value"
}

// isInternal reports whether p is in the embedded schema or stdlib rather
// than in the user's files.
func (s *source) isInternal(p token.Pos) bool {
	f := p.Filename()
	return f == schemaFile || strings.Contains(filepath.ToSlash(f), "/cue.mod/pkg/sieve.dev/")
}

// isInternalName reports whether a displayed file name is one of the
// embedded packages.
func (s *source) isInternalName(name string) bool {
	return strings.HasPrefix(name, "sieve.dev/")
}

// rangeAt converts CUE positions to a diagnostic range with the file name
// shown relative to the path the user gave and columns counted in runes.
func (s *source) rangeAt(start, end token.Pos) diag.Range {
	r := diag.Range{Start: s.position(start), End: s.position(end)}
	if !end.IsValid() || r.End.Offset < r.Start.Offset {
		r.End = r.Start
	}
	return r
}

func (s *source) position(p token.Pos) diag.Position {
	if !p.IsValid() {
		return diag.Position{Filename: s.given}
	}
	tp := p.Position()
	return diag.Position{
		Filename: s.displayName(tp.Filename),
		Offset:   tp.Offset,
		Line:     tp.Line,
		Column:   s.runeColumn(tp),
	}
}

// displayName shows files inside the spec directory relative to the path
// the user gave, internal files by their import path, others as they are.
func (s *source) displayName(file string) string {
	if i := strings.Index(filepath.ToSlash(file), "/cue.mod/pkg/"); i >= 0 {
		return filepath.ToSlash(file)[i+len("/cue.mod/pkg/"):]
	}
	if !filepath.IsAbs(file) {
		return filepath.ToSlash(file)
	}
	rel, err := filepath.Rel(s.dir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(file)
	}
	base := s.given
	if !s.isDir {
		base = filepath.Dir(s.given)
	}
	return filepath.ToSlash(filepath.Join(base, rel))
}

// runeColumn converts CUE's byte column to a rune column using the file's
// text when it is known.
func (s *source) runeColumn(tp token.Position) int {
	src, ok := s.files[tp.Filename]
	lineStart := tp.Offset - (tp.Column - 1)
	if !ok || lineStart < 0 || tp.Offset > len(src) {
		return tp.Column
	}
	return utf8.RuneCount(src[lineStart:tp.Offset]) + 1
}

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "CUE") {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToLower(string(r)) + s[n:]
}

func fileDiags(path, code, format string, args ...any) diag.Diagnostics {
	at := diag.Position{Filename: filepath.ToSlash(path)}
	return diag.Diagnostics{diag.Errorf(diag.Range{Start: at, End: at}, code, format, args...)}
}

// pathErr drops the path from an *fs.PathError, which the diagnostic names
// already.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
