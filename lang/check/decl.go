package check

import (
	"sort"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// declKind is the kind of a declaration.
type declKind int

const (
	dController declKind = iota
	dWorkload
	dPolicy
	dMask
	dInvariant
	dPlan
	dTest
)

const declKindNames = "controller workload policy mask invariant plan test"

func (k declKind) String() string { return strings.Fields(declKindNames)[k] }

// decl is one named declaration and what the checker learnt about it.
type decl struct {
	kind      declKind
	name      string
	file      *file
	node      syntax.Decl
	nameRange diag.Range

	// Lowered forms, filled once by checkDecl.
	checked    bool
	policy     *ir.Policy
	mask       *ir.Mask
	invariant  *ir.Invariant
	plan       *ir.Plan
	paramTypes map[string]kind // workload and invariant parameters: inferred types
	celFailed  bool            // invariant: its expression does not compile on its own
	ctrlAttrs  *attrSet        // controller body, evaluated once

	// Tests: flattening state.
	flat    *testAttrs
	badBase bool // the base is undefined or in a cycle: skip completeness errors
}

// qualified is the name as another file refers to it.
func (d *decl) qualified(from *file) string {
	if from == nil || from.unit == d.file.unit {
		return d.name
	}
	for alias, im := range from.imports {
		if im.unit == d.file.unit {
			return alias + "." + d.name
		}
	}
	return d.name
}

// newDecl describes a declaration node; nil for imports.
func newDecl(f *file, n syntax.Decl) *decl {
	var k declKind
	var id *syntax.Ident
	switch n := n.(type) {
	case *syntax.Controller:
		k, id = dController, n.Name
	case *syntax.Workload:
		k, id = dWorkload, n.Name
	case *syntax.Policy:
		k, id = dPolicy, n.Name
	case *syntax.Mask:
		k, id = dMask, n.Name
	case *syntax.Invariant:
		k, id = dInvariant, n.Name
	case *syntax.Plan:
		k, id = dPlan, n.Name
	case *syntax.Test:
		k, id = dTest, n.Name
	default:
		return nil
	}
	if id == nil {
		return nil
	}
	return &decl{kind: k, name: id.Name, file: f, node: n, nameRange: id.Range()}
}

// lookup finds the declaration a (possibly qualified) name refers to from
// file f. tests selects the test namespace. It reports nothing; see
// undefined.
func (c *checker) lookup(f *file, name string, tests bool) *decl {
	alias, rest, qualified := strings.Cut(name, ".")
	u := f.unit
	if qualified {
		im, ok := f.imports[alias]
		if !ok || im.unit == nil || strings.Contains(rest, ".") {
			return nil
		}
		im.used = true
		u, name = im.unit, rest
	}
	if tests {
		return u.tests[name]
	}
	return u.decls[name]
}

// candidates lists the names visible from f that have kind k, qualified
// as f would write them, for "did you mean".
func (c *checker) candidates(f *file, k declKind) []string {
	var out []string
	add := func(u *unit, prefix string) {
		for _, d := range u.order {
			if d.kind == k {
				out = append(out, prefix+d.name)
			}
		}
	}
	add(f.unit, "")
	for alias, im := range f.imports {
		if im.unit != nil {
			add(im.unit, alias+".")
		}
	}
	sort.Strings(out)
	return out
}

// allCandidates lists every non-test name visible from f.
func (c *checker) allCandidates(f *file) []string {
	var out []string
	for k := dController; k < dTest; k++ {
		out = append(out, c.candidates(f, k)...)
	}
	return out
}

// resolveRef turns a value into a declaration of kind k, reporting what is
// wrong: an undefined name (with did you mean), or a name of another kind.
func (c *checker) resolveRef(v *value, k declKind, what string) *decl {
	switch v.kind {
	case kUnknown:
		return nil
	case kRef:
		if v.ref.kind == k {
			return v.ref
		}
		c.errorf(v.rng, "type", "%s: %s is a %s, not a %s", what, v.s, v.ref.kind, k)
		return nil
	case kWord:
		d := c.errorf(v.rng, "undefined", "undefined %s %q", k, v.s)
		hint(d, spellHint(v.s, c.candidates(v.file, k)))
		if d.Detail == "" {
			hint(d, spellHint(v.s, c.allCandidates(v.file)))
		}
		if d.Detail == "" && strings.Contains(v.s, ".") {
			alias, _, _ := strings.Cut(v.s, ".")
			if _, ok := v.file.imports[alias]; !ok {
				d.Detail = "no import is named " + strconv.Quote(alias)
			}
		}
		return nil
	}
	c.errorf(v.rng, "type", "%s: want the name of a %s, got %s", what, k, v.describe())
	return nil
}

// spellHint is spell.Hint.
func spellHint(x string, names []string) string { return spell.Hint(x, names) }

// irName is the name a declaration gets in the IR: its own name in the
// root file, and otherwise its qualified name, the alias the root file
// imports its unit under (masks.default), or for a unit the root file does
// not import itself, the alias of the first import that loaded it. The
// name does not depend on where the declaration is used from.
func (c *checker) irName(d *decl) string {
	root := c.units[0]
	if d.file.unit == root {
		return d.name
	}
	best := ""
	for _, f := range root.files {
		for alias, im := range f.imports {
			if im.unit == d.file.unit && (best == "" || alias < best) {
				best = alias // the smallest, should two imports load the unit
			}
		}
	}
	if best != "" {
		return best + "." + d.name
	}
	if q := d.file.unit.qualifier; q != "" {
		return q + "." + d.name
	}
	return d.name
}
