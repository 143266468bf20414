package oracle

import (
	"errors"
	"fmt"

	"github.com/sievetool/sieve/lang/format"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// FormatMask renders rules as a .sieve mask declaration named name (see
// grammar.md, "mask"), one rule per line, preceded by the comment lines in
// comment (without "//"). The output is what `sieve record` writes for
// learned masks; the .sieve front end reads it back. lang/format prints
// it, so it fails only if a rule has no .sieve form.
func FormatMask(name string, comment []string, rules []*ir.MaskRule) ([]byte, error) {
	id, err := syntax.NewIdent(name)
	if err != nil {
		return nil, fmt.Errorf("oracle: mask: %w", err)
	}
	m := &syntax.Mask{Name: id, Rules: make([]*syntax.MaskRule, len(rules))}
	for i, r := range rules {
		if m.Rules[i], err = maskRule(r); err != nil {
			return nil, fmt.Errorf("oracle: mask %s: rule %d: %w", name, i+1, err)
		}
	}
	return format.Decl(m, comment...), nil
}

// maskRule builds one rule: [KEY] (key NAME | path PATH | value KIND |
// whole) [in end|history].
func maskRule(r *ir.MaskRule) (*syntax.MaskRule, error) {
	out := &syntax.MaskRule{}
	var err error
	if t := r.Target; !isAny(t) {
		if out.Target, err = syntax.NewKey(t.String()); err != nil {
			return nil, err
		}
	}
	switch {
	case r.Whole:
		out.Whole = true
	case r.Key != "":
		out.Key = ir.FieldElem(r.Key).String() // a name or a quoted string
	case r.Path != "":
		out.Path, err = syntax.NewPath(r.Path) // already in ir.Path's text form
	case r.Value != "":
		var kind *syntax.Ident
		kind, err = syntax.NewIdent(r.Value)
		if err == nil {
			out.Value = kind.Name
		}
	default:
		err = errors.New("masks nothing: no key, path, value or whole")
	}
	switch r.Oracle {
	case ir.OracleAll:
	case ir.OracleEnd, ir.OracleHistory:
		out.Oracle = string(r.Oracle)
	default:
		err = fmt.Errorf("oracle %q: not end or history", r.Oracle)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// isAny reports whether a target matches every object.
func isAny(t ir.Ref) bool {
	all := func(s string) bool { return s == "" || s == "*" }
	return all(t.Kind) && all(t.Namespace) && all(t.Name)
}
