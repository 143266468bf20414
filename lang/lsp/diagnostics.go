package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/sievetool/sieve/lang/diag"
)

// convert turns the checker's diagnostics of one file, whose text is t,
// into the protocol's: the same summary and hint as sieve check prints,
// the code, and related positions.
func (s *server) convert(t *text, ds diag.Diagnostics) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, s.convertOne(t, d))
	}
	return out
}

func (s *server) convertOne(t *text, d *diag.Diagnostic) protocol.Diagnostic {
	pd := protocol.Diagnostic{
		Severity: protocol.DiagnosticSeverityError,
		Source:   "sieve",
		Message:  message(d),
	}
	if d.Severity == diag.Warning {
		pd.Severity = protocol.DiagnosticSeverityWarning
	}
	if d.Code != "" {
		pd.Code = d.Code
	}
	if d.Subject != nil {
		pd.Range = t.rangeOf(*d.Subject)
	}
	for _, r := range d.Related {
		rt := t
		if r.Subject.Start.Filename != "" && !sameFile(r.Subject.Start.Filename, d) {
			rt = s.textOf(r.Subject.Start.Filename)
		}
		if rt == nil {
			continue
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri.File(absPath(r.Subject.Start.Filename)), Range: rt.rangeOf(r.Subject)},
			Message:  r.Message,
		})
	}
	return pd
}

// message is the diagnostic as sieve check words it, without position.
func message(d *diag.Diagnostic) string {
	if d.Detail != "" {
		return d.Summary + " (" + d.Detail + ")"
	}
	return d.Summary
}

func sameFile(name string, d *diag.Diagnostic) bool {
	return d.Subject != nil && d.Subject.Start.Filename == name
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// didYouMean finds the suggestion in a hint made by lang/internal/spell.
var didYouMean = regexp.MustCompile(`did you mean ("(?:[^"\\]|\\.)*")\?`)

// codeAction offers, for each diagnostic in the range that suggests a name,
// the quick fix that writes that name in place of the misspelt one.
func (s *server) codeAction(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.CodeActionParams](s, raw)
	if err != nil {
		return nil, err
	}
	actions := []protocol.CodeAction{}
	for _, d := range doc.diags {
		if d.Subject == nil {
			continue
		}
		r := doc.text.nameRange(*d.Subject)
		if !overlaps(r, p.Range) {
			continue
		}
		if a, ok := s.quickFix(doc, d, r); ok {
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// quickFix is the action replacing the name at r (d's subject) by the
// name d's hint suggests; ok is false when there is none or the subject is
// not a single name.
func (s *server) quickFix(doc *document, d *diag.Diagnostic, r protocol.Range) (protocol.CodeAction, bool) {
	m := didYouMean.FindStringSubmatch(d.Detail)
	if m == nil {
		return protocol.CodeAction{}, false
	}
	name, err := strconv.Unquote(m[1])
	if err != nil {
		return protocol.CodeAction{}, false
	}
	start, end := doc.text.offset(r.Start), doc.text.offset(r.End)
	if end < start {
		return protocol.CodeAction{}, false
	}
	old := string(doc.text.src[start:end])
	switch {
	case isName(old):
	case len(old) > 1 && old[0] == '"':
		name = strconv.Quote(name)
	default:
		return protocol.CodeAction{}, false
	}
	return protocol.CodeAction{
		Title:       "change to " + name,
		Kind:        protocol.QuickFix,
		Diagnostics: []protocol.Diagnostic{s.convertOne(doc.text, d)},
		IsPreferred: true,
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
			doc.uri: {{Range: r, NewText: name}},
		}},
	}, true
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(p, q protocol.Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}

// nameRange is r, a diagnostic's subject, extended to the end of the
// identifier it starts: the field lint marks only a field's first
// character.
func (t *text) nameRange(r diag.Range) protocol.Range {
	pr := t.rangeOf(r)
	end := t.offset(pr.End)
	for end < len(t.src) && end > t.offset(pr.Start) && isIdentByte(t.src[end]) {
		end++
	}
	pr.End = t.position(end)
	return pr
}

func isIdentByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
