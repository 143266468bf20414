package oracle

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/sievetool/sieve/lang/format"
	"github.com/sievetool/sieve/lang/ir"
)

// FormatMask renders rules as a .sieve mask declaration named name (see
// grammar.md, "mask"), one rule per line, preceded by the comment lines in
// comment (without "//"). The output is what `sieve record` writes for
// learned masks; the .sieve front end reads it back. lang/format lays it
// out, so it fails only if a rule has no .sieve form.
func FormatMask(name string, comment []string, rules []*ir.MaskRule) ([]byte, error) {
	var b bytes.Buffer
	for _, c := range comment {
		fmt.Fprintf(&b, "// %s\n", c)
	}
	fmt.Fprintf(&b, "mask %s {\n", name)
	for _, r := range rules {
		fmt.Fprintf(&b, "  %s\n", formatRule(r))
	}
	b.WriteString("}\n")
	out, ds := format.Source(name+".sieve", b.Bytes())
	if ds.HasErrors() {
		return nil, fmt.Errorf("oracle: mask %s: %w", name, ds.Err())
	}
	return out, nil
}

// formatRule renders one rule: [KEY] (key NAME | path PATH | value KIND |
// whole) [in end|history].
func formatRule(r *ir.MaskRule) string {
	var parts []string
	if t := r.Target; !isAny(t) {
		parts = append(parts, t.String())
	}
	switch {
	case r.Whole:
		parts = append(parts, "whole")
	case r.Key != "":
		parts = append(parts, "key "+ir.FieldElem(r.Key).String())
	case r.Path != "":
		parts = append(parts, "path "+r.Path) // already in ir.Path's text form
	case r.Value != "":
		parts = append(parts, "value "+r.Value)
	}
	if r.Oracle != ir.OracleAll {
		parts = append(parts, "in "+string(r.Oracle))
	}
	return strings.Join(parts, " ")
}

// isAny reports whether a target matches every object.
func isAny(t ir.Ref) bool {
	all := func(s string) bool { return s == "" || s == "*" }
	return all(t.Kind) && all(t.Namespace) && all(t.Name)
}
