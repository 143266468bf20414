package diag

import (
	"fmt"
	"sort"
)

// Severity says how bad a diagnostic is.
type Severity int

// Severities, most severe first.
const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText encodes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes "error" or "warning".
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("diag: unknown severity %q", b)
	}
	return nil
}

// Position is a place in a source file. Line and Column are 1-based; Column
// counts runes. Offset is the 0-based byte offset.
type Position struct {
	Filename string `json:"file,omitempty"`
	Offset   int    `json:"offset"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// IsValid reports whether the position names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String formats the position as file:line:col.
func (p Position) String() string {
	switch {
	case !p.IsValid() && p.Filename == "":
		return "-"
	case !p.IsValid():
		return p.Filename
	case p.Filename == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// Before reports whether p sorts before q (by file, then offset).
func (p Position) Before(q Position) bool {
	if p.Filename != q.Filename {
		return p.Filename < q.Filename
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Column < q.Column
}

// Range is a span of source text, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// String formats the start of the range as file:line:col.
func (r Range) String() string { return r.Start.String() }

// IsValid reports whether the range names a line.
func (r Range) IsValid() bool { return r.Start.IsValid() }

// Related is a secondary position attached to a diagnostic, such as the
// first definition of a duplicated name.
type Related struct {
	Message string `json:"message"`
	Subject Range  `json:"subject"`
}

// Diagnostic is one problem found in the user's input.
//
// Summary is lowercase with no trailing period, in the form "what: detail";
// Detail is an optional hint. Code is a short stable identifier such as
// "undefined" or "duplicate" that tools may match on.
type Diagnostic struct {
	Severity Severity  `json:"severity"`
	Code     string    `json:"code,omitempty"`
	Summary  string    `json:"summary"`
	Detail   string    `json:"detail,omitempty"`
	Subject  *Range    `json:"subject,omitempty"`
	Context  *Range    `json:"context,omitempty"`
	Related  []Related `json:"related,omitempty"`
}

// Error formats the diagnostic as "file:line:col: summary (detail)".
func (d *Diagnostic) Error() string {
	s := d.Summary
	if d.Detail != "" {
		s += " (" + d.Detail + ")"
	}
	if d.Subject != nil {
		return d.Subject.Start.String() + ": " + s
	}
	return s
}

// Diagnostics is a list of diagnostics. A nil list means no problems.
type Diagnostics []*Diagnostic

// Errorf returns an error diagnostic at r.
func Errorf(r Range, code, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Error, Code: code, Summary: fmt.Sprintf(format, args...), Subject: &r}
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns ds as an error if it holds any error diagnostics, else nil.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Error joins the diagnostics, one per line.
func (ds Diagnostics) Error() string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += "\n"
		}
		s += d.Error()
	}
	return s
}

// Sort orders the diagnostics by position, then summary, and drops exact
// duplicates (same position and summary). It returns the result.
func (ds Diagnostics) Sort() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		pi, pj := subjectStart(ds[i]), subjectStart(ds[j])
		if pi != pj {
			return pi.Before(pj)
		}
		return ds[i].Summary < ds[j].Summary
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && subjectStart(ds[i-1]) == subjectStart(d) && ds[i-1].Summary == d.Summary {
			continue
		}
		out = append(out, d)
	}
	return out
}

func subjectStart(d *Diagnostic) Position {
	if d.Subject == nil {
		return Position{}
	}
	return d.Subject.Start
}
