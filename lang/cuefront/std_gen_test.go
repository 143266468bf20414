package cuefront

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
	"github.com/sievetool/sieve/stdlib"
)

// TestStdGenerated holds std/std_gen.cue, the masks and fault policies of
// the CUE standard library, equal to what the .sieve checker lowers
// stdlib/std/*.sieve to, written as CUE: the .sieve files stay the one
// source of truth. SIEVE_UPDATE=1 rewrites the file.
func TestStdGenerated(t *testing.T) {
	gen, ds := stdGenerated()
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	decls, _ := stdDeclNames()
	for _, kind := range []string{"mask", "policy"} {
		if len(decls[kind]) == 0 {
			t.Errorf("the .sieve stdlib has no %s", kind)
		}
		for _, name := range decls[kind] {
			alias, decl, _ := strings.Cut(name, ".")
			if alias == "faults" || alias == "masks" {
				if !strings.Contains(string(gen), "\n"+alias+": "+decl+": {") {
					t.Errorf("generated std has no %s %s", kind, name)
				}
			}
		}
	}
	golden.File(t, "std/"+stdGenName, gen)
}

// TestStdWorkloads checks that the hand-written CUE workloads are exactly
// the .sieve standard library's; the parity pair testdata/parity/stdlib
// holds their IR equal.
func TestStdWorkloads(t *testing.T) {
	decls, ds := stdDeclNames()
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	want := decls["workload"]
	src, err := fs.ReadFile(StdFS(), "workloads.cue")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "workloads: "); ok {
			got = append(got, "workloads."+strings.TrimSuffix(rest, ": {"))
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("CUE std workloads %v, .sieve std workloads %v", got, want)
	}
	pair, err := os.ReadFile("testdata/parity/stdlib/stdlib.sieve")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(string(pair), w+"(") {
			t.Errorf("testdata/parity/stdlib/stdlib.sieve does not call %s", w)
		}
	}
}

// TestStdInvariants checks that the hand-written CUE invariants are
// exactly the .sieve standard library's and that the parity pair
// testdata/parity/stdlib, which holds their IR equal, uses each.
func TestStdInvariants(t *testing.T) {
	decls, ds := stdDeclNames()
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	want := decls["invariant"]
	src, err := fs.ReadFile(StdFS(), "invariants.cue")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "invariants: "); ok {
			got = append(got, "invariants."+strings.TrimSuffix(rest, ": {"))
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("CUE std invariants %v, .sieve std invariants %v", got, want)
	}
	pair, err := os.ReadFile("testdata/parity/stdlib/stdlib.sieve")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(string(pair), w+"(") {
			t.Errorf("testdata/parity/stdlib/stdlib.sieve does not use %s", w)
		}
	}
}

// stdDecl is a declaration of the .sieve standard library.
type stdDecl struct {
	alias, kind, name string
}

// stdDeclNames lists the masks, policies, workloads and invariants of the
// .sieve standard library as "ALIAS.NAME" by kind ("mask", "policy",
// "workload", "invariant").
func stdDeclNames() (map[string][]string, diag.Diagnostics) {
	decls, ds := stdDecls()
	out := map[string][]string{}
	for _, d := range decls {
		out[d.kind] = append(out[d.kind], d.alias+"."+d.name)
	}
	return out, ds
}

// stdDecls returns the masks, policies and workloads of the .sieve
// standard library, in file and declaration order.
func stdDecls() ([]stdDecl, diag.Diagnostics) {
	files, _ := fs.Glob(stdlib.FS(), "std/*.sieve")
	var out []stdDecl
	var all diag.Diagnostics
	for _, name := range files {
		src, _ := fs.ReadFile(stdlib.FS(), name)
		f, ds := syntax.Parse(name, src)
		all = append(all, ds...)
		if f == nil {
			continue
		}
		alias := strings.TrimSuffix(path.Base(name), ".sieve")
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *syntax.Mask:
				out = append(out, stdDecl{alias, "mask", d.Name.Name})
			case *syntax.Policy:
				out = append(out, stdDecl{alias, "policy", d.Name.Name})
			case *syntax.Workload:
				out = append(out, stdDecl{alias, "workload", d.Name.Name})
			case *syntax.Invariant:
				out = append(out, stdDecl{alias, "invariant", d.Name.Name})
			}
		}
	}
	return out, all
}

// stdGenerated returns std_gen.cue: the masks and fault policies of
// stdlib/std/*.sieve as the .sieve checker lowers them, written as CUE
// (masks: default: {...}, faults: stale: {...}). The workloads, which CUE
// expresses with its own parameters, are std/workloads.cue.
func stdGenerated() ([]byte, diag.Diagnostics) {
	decls, ds := stdDecls()
	if ds.HasErrors() {
		return nil, ds
	}
	test, ds := compileStdUser(decls)
	if ds.HasErrors() {
		return nil, ds
	}
	var b strings.Builder
	b.WriteString("// Code generated from stdlib/std/*.sieve (the .sieve checker's IR) by\n")
	b.WriteString("// TestStdGenerated (SIEVE_UPDATE=1 go test ./lang/cuefront); DO NOT EDIT.\n\npackage std\n")
	i, j := 0, 0
	for _, d := range decls {
		switch d.kind {
		case "mask":
			writeMask(&b, d, test.Masks[i])
			i++
		case "policy":
			writePolicy(&b, d, test.Policies[j])
			j++
		}
	}
	return Format(stdGenName, []byte(b.String()))
}

// compileStdUser compiles a .sieve test that uses every std mask and
// policy, in declaration order, and returns it.
func compileStdUser(decls []stdDecl) (*ir.Test, diag.Diagnostics) {
	var imports, masks, policies []string
	seen := map[string]bool{}
	for _, d := range decls {
		if d.kind == "workload" || d.kind == "invariant" {
			continue
		}
		if !seen[d.alias] {
			seen[d.alias] = true
			imports = append(imports, fmt.Sprintf("import %q", "std/"+d.alias))
		}
		if d.kind == "mask" {
			masks = append(masks, d.alias+"."+d.name)
		} else {
			policies = append(policies, d.alias+"."+d.name)
		}
	}
	src := strings.Join(imports, "\n") + `
controller c { command "true" }
workload w { settle }
test t {
  controller c
  workloads  [w]
  masks      [` + strings.Join(masks, ", ") + `]
  policies   [` + strings.Join(policies, ", ") + `]
}
`
	spec, ds := check.File("std-user.sieve", []byte(src), check.Options{Std: stdlib.FS()})
	if ds.HasErrors() || spec == nil || len(spec.Tests) != 1 {
		return nil, append(ds, fileDiags("std-user.sieve", "std", "cannot lower the .sieve standard library for CUE")...)
	}
	return spec.Tests[0], nil
}

// writeMask writes a std mask as CUE.
func writeMask(b *strings.Builder, d stdDecl, m *ir.Mask) {
	fmt.Fprintf(b, "\n%s: %s: {\n\tname: %s\n\trules: [\n", d.alias, d.name, q(m.Name))
	for _, r := range m.Rules {
		var fs []string
		if r.Target != anyObject {
			fs = append(fs, "target: "+q(r.Target.String()))
		}
		switch {
		case r.Key != "":
			fs = append(fs, "key: "+q(r.Key))
		case r.Path != "":
			fs = append(fs, "path: "+q(r.Path))
		case r.Value != "":
			fs = append(fs, "value: "+q(r.Value))
		case r.Whole:
			fs = append(fs, "whole: true")
		}
		if r.Oracle != "" {
			fs = append(fs, "in: "+q(string(r.Oracle)))
		}
		fmt.Fprintf(b, "\t\t{%s},\n", strings.Join(fs, ", "))
	}
	b.WriteString("\t]\n}\n")
}

// writePolicy writes a std policy as CUE.
func writePolicy(b *strings.Builder, d stdDecl, p *ir.Policy) {
	fmt.Fprintf(b, "\n%s: %s: {\n\tname: %s\n", d.alias, d.name, q(p.Name))
	var pats []string
	for _, x := range p.Patterns {
		pats = append(pats, q(string(x)))
	}
	fmt.Fprintf(b, "\tpatterns: [%s]\n", strings.Join(pats, ", "))
	writeFilters(b, "include", p.Include)
	writeFilters(b, "exclude", p.Exclude)
	if p.MaxPlans != 0 {
		fmt.Fprintf(b, "\tmax_plans: %d\n", p.MaxPlans)
	}
	if p.Prune != ir.DefaultPrune {
		pr := p.Prune
		fmt.Fprintf(b, "\tprune: {causality: %t, noop: %t, failed: %t, nondeterministic: %t, duplicates: %t}\n",
			pr.Causality, pr.NoOp, pr.Failed, pr.Nondeterministic, pr.Duplicates)
	}
	for _, d := range []struct {
		name string
		d    ir.Duration
	}{{"stale_for", p.StaleFor}, {"stale_quiet", p.StaleQuiet}, {"hold_for", p.HoldFor}} {
		if d.d != 0 {
			fmt.Fprintf(b, "\t%s: %s\n", d.name, q(d.d.String()))
		}
	}
	b.WriteString("}\n")
}

// writeFilters writes a policy's include or exclude filters as CUE.
func writeFilters(b *strings.Builder, name string, fs []ir.Filter) {
	if len(fs) == 0 {
		return
	}
	var out []string
	for _, f := range fs {
		key := q(ir.Ref{Kind: f.Kind, Namespace: f.Namespace, Name: f.Name}.String())
		if len(f.Verbs) == 0 {
			out = append(out, key)
			continue
		}
		var verbs []string
		for _, v := range f.Verbs {
			verbs = append(verbs, q(v))
		}
		out = append(out, fmt.Sprintf("{target: %s, verbs: [%s]}", key, strings.Join(verbs, ", ")))
	}
	fmt.Fprintf(b, "\t%s: [%s]\n", name, strings.Join(out, ", "))
}

// q quotes a CUE string.
func q(s string) string { return strconv.Quote(s) }
