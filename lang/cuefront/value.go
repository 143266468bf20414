package cuefront

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/manifest"
)

// lowerer turns the unified, validated CUE value into IR, collecting
// diagnostics for what the schema cannot say (exactly-one rules, keys,
// durations, CEL, missing files).
type lowerer struct {
	src    *source
	orig   cue.Value // the spec before unification with the schema, for positions
	ds     diag.Diagnostics
	env    *celenv.Env
	envErr error
	// explores holds what each placeholder explore step stands for
	// (explore.Expand replaces them per test).
	explores map[*ir.Step]*explore.Use
}

// rng is the source range of v: where its value was written. Positions are
// looked up in the spec as written, since the unified value's come from the
// schema.
func (l *lowerer) rng(v cue.Value) diag.Range {
	if u := l.orig.LookupPath(v.Path()); u.Exists() && u.Pos().IsValid() {
		v = declaration(u)
	}
	start := v.Pos()
	end := start
	if n := v.Source(); n != nil && n.Pos().IsValid() {
		if start == n.Pos() || !start.IsValid() {
			start, end = n.Pos(), n.End()
		}
		if f, ok := n.(*ast.Field); ok && f.Value != nil {
			end = f.Value.End()
		}
	}
	return l.src.rangeAt(start, end)
}

// errorf reports a problem with v. A problem in the standard library's
// CUE (a bad argument a workload passes on) is reported where the spec
// uses it, since the user cannot see or change the library.
func (l *lowerer) errorf(v cue.Value, code, format string, args ...any) *diag.Diagnostic {
	r := l.rng(v)
	if l.src.isInternalName(r.Start.Filename) {
		r = l.userRange(v, r)
	}
	d := diag.Errorf(r, code, "%s", clip(fmt.Sprintf(format, args...)))
	l.ds = append(l.ds, d)
	return d
}

// warnf reports a warning about v, where errorf would an error.
func (l *lowerer) warnf(v cue.Value, code, format string, args ...any) {
	l.errorf(v, code, format, args...).Severity = diag.Warning
}

// userRange is the range of the nearest enclosing value of v written in a
// spec file, or r when there is none.
func (l *lowerer) userRange(v cue.Value, r diag.Range) diag.Range {
	sels := v.Path().Selectors()
	for n := len(sels) - 1; n > 0; n-- {
		u := l.orig.LookupPath(cue.MakePath(sels[:n]...))
		if u.Exists() && u.Pos().IsValid() && !l.src.isInternal(u.Pos()) {
			return l.src.rangeAt(u.Pos(), u.Pos())
		}
	}
	return r
}

// declaration follows a plain reference (controller: controllers.c) to
// the value it names, so a node's range is where it was declared, as the
// .sieve checker's is; anything else is returned as it is.
func declaration(v cue.Value) cue.Value {
	root, p := v.ReferencePath()
	if len(p.Selectors()) == 0 {
		return v
	}
	if d := root.LookupPath(p); d.Exists() && d.Pos().IsValid() {
		return d
	}
	return v
}

// field returns v's regular field name, if it exists.
func field(v cue.Value, name string) (cue.Value, bool) {
	f := v.LookupPath(cue.MakePath(cue.Str(name)))
	if d, ok := f.Default(); ok {
		f = d
	}
	return f, f.Exists()
}

// has reports whether v has the field name.
func has(v cue.Value, name string) bool {
	_, ok := field(v, name)
	return ok
}

// str returns the string field name of v, or "" when it is absent.
func str(v cue.Value, name string) string {
	f, ok := field(v, name)
	if !ok {
		return ""
	}
	s, _ := f.String()
	return s
}

// integer returns the integer field name of v, or def when it is absent.
// CUE integers have no bound; one that does not fit in 64 bits is an
// error, never a wrapped or defaulted value.
func (l *lowerer) integer(v cue.Value, name string, def int) int {
	f, ok := field(v, name)
	if !ok {
		return def
	}
	n, err := f.Int64()
	if err != nil {
		if f.Kind() == cue.IntKind {
			l.errorf(f, "overflow", "integer overflow: %s: %v is out of range (integers are 64-bit)", name, f)
		}
		return def
	}
	return int(n)
}

// count returns the integer field name of v, as integer does, and
// reports a value past the bound of count k (ir.CheckCount).
func (l *lowerer) count(v cue.Value, name string, def int, k ir.Count) int {
	n := l.integer(v, name, def)
	if msg := ir.CheckCount(k, name, int64(n)); msg != "" {
		f, _ := field(v, name)
		l.errorf(f, "range", "%s", msg)
		return def
	}
	return n
}

// boolean returns the bool field name of v, or def when it is absent.
func boolean(v cue.Value, name string, def bool) bool {
	f, ok := field(v, name)
	if !ok {
		return def
	}
	b, err := f.Bool()
	if err != nil {
		return def
	}
	return b
}

// elems returns the elements of the list field name of v.
func elems(v cue.Value, name string) []cue.Value {
	f, ok := field(v, name)
	if !ok {
		return nil
	}
	it, err := f.List()
	if err != nil {
		return nil
	}
	var out []cue.Value
	for it.Next() {
		out = append(out, it.Value())
	}
	return out
}

// listOf returns the elements of a list value.
func listOf(f cue.Value) []cue.Value {
	it, err := f.List()
	if err != nil {
		return nil
	}
	var out []cue.Value
	for it.Next() {
		out = append(out, it.Value())
	}
	return out
}

// stringsOf returns the strings of a list value.
func stringsOf(f cue.Value) []string {
	var out []string
	for _, e := range listOf(f) {
		s, _ := e.String()
		out = append(out, s)
	}
	return out
}

// strs returns the list-of-strings field name of v.
func strs(v cue.Value, name string) []string {
	var out []string
	for _, e := range elems(v, name) {
		s, _ := e.String()
		out = append(out, s)
	}
	return out
}

// fields iterates over the regular fields of v in order.
func fields(v cue.Value) []fieldValue {
	it, err := v.Fields()
	if err != nil {
		return nil
	}
	var out []fieldValue
	for it.Next() {
		out = append(out, fieldValue{it.Selector().Unquoted(), it.Value()})
	}
	return out
}

type fieldValue struct {
	name string
	v    cue.Value
}

// value converts a concrete CUE value to an IR value, integers as int64.
func (l *lowerer) value(v cue.Value) ir.Value {
	if d, ok := v.Default(); ok {
		v = d
	}
	switch v.Kind() {
	case cue.NullKind:
		return nil
	case cue.BoolKind:
		b, _ := v.Bool()
		return b
	case cue.IntKind:
		n, err := v.Int64()
		if err != nil {
			l.errorf(v, "overflow", "integer overflow: %v is out of range (integers are 64-bit)", v)
		}
		return n
	case cue.FloatKind:
		f, _ := v.Float64()
		return f
	case cue.StringKind:
		s, _ := v.String()
		return s
	case cue.BytesKind:
		b, _ := v.Bytes()
		return string(b)
	case cue.ListKind:
		return l.listValue(v)
	case cue.StructKind:
		m := map[string]any{}
		for _, f := range fields(v) {
			m[f.name] = l.value(f.v)
		}
		return m
	}
	l.errorf(v, "type", "value is not concrete: %v", v)
	return nil
}

func (l *lowerer) listValue(v cue.Value) ir.Value {
	out := []any{}
	it, _ := v.List()
	for it.Next() {
		out = append(out, l.value(it.Value()))
	}
	return out
}

// duration parses a duration string field, or returns def when absent.
func (l *lowerer) duration(v cue.Value, name string, def time.Duration) ir.Duration {
	f, ok := field(v, name)
	if !ok {
		return ir.Duration(def)
	}
	return l.durationOf(f)
}

// positive is duration for durations that must be more than zero.
func (l *lowerer) positive(v cue.Value, name string, def time.Duration) ir.Duration {
	d := l.duration(v, name, def)
	if f, ok := field(v, name); ok && d == 0 {
		l.errorf(f, "duration", "%s: duration must be positive, got 0s", name)
	}
	return d
}

func (l *lowerer) durationOf(f cue.Value) ir.Duration {
	s, _ := f.String()
	d, err := time.ParseDuration(strings.ReplaceAll(s, "µs", "us"))
	if err != nil || d < 0 || strings.HasPrefix(s, "+") {
		l.errorf(f, "duration", "bad duration: %q (write e.g. 30s, 2m, 1h30m)", s)
		return -1 // reported; not zero, so positive does not report it again
	}
	return ir.Duration(d)
}

// path checks a field path written as a string (grammar.md, "Field
// paths") and returns it in its text form, as the .sieve checker does.
func (l *lowerer) path(at cue.Value, s string) string {
	p, err := ir.ParsePattern(s)
	if err != nil {
		l.errorf(at, "path", "%v", err)
		return s
	}
	return p.String()
}

// key parses a resource key field: kind/namespace/name or kind/name.
func (l *lowerer) key(f cue.Value, globs bool) *ir.Ref {
	s, _ := f.String()
	ref, err := parseKey(s, globs)
	if err != nil {
		l.errorf(f, "key", "bad resource key: %q: %v", s, err)
		return &ir.Ref{}
	}
	return ref
}

func parseKey(s string, globs bool) (*ir.Ref, error) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, fmt.Errorf("want kind/namespace/name or kind/name")
	}
	for _, p := range parts {
		if err := checkSegment(p, globs); err != nil {
			return nil, err
		}
	}
	if len(parts) == 2 {
		return &ir.Ref{Kind: ir.CanonicalKind(parts[0]), Name: parts[1]}, nil
	}
	return &ir.Ref{Kind: ir.CanonicalKind(parts[0]), Namespace: parts[1], Name: parts[2]}, nil
}

func checkSegment(p string, globs bool) error {
	switch {
	case p == "":
		return fmt.Errorf("empty segment")
	case strings.ContainsAny(p, " \t\n"):
		return fmt.Errorf("space in key")
	case !globs && strings.ContainsAny(p, "*?["):
		return fmt.Errorf("globs are not allowed here")
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("bad glob %q", p)
	}
	return nil
}

// file resolves a file path written at f (relative to the file it was
// written in) to a path relative to the spec's directory, slash-separated
// and clean, and reports a missing file. what names the attribute; dir
// says a directory is wanted; keepDot keeps a leading ./ (build packages,
// where "x" would be an import path).
func (l *lowerer) file(f cue.Value, what string, dir, keepDot bool) string {
	s, _ := f.String()
	if s == "" {
		l.errorf(f, "file", "%s: empty path", what)
		return ""
	}
	abs := l.abs(f, s)
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		l.errorf(f, "file", "%s: %s not found (relative to %s)", what, s, l.src.displayName(l.fileOf(f)))
	case st.IsDir() != dir:
		l.errorf(f, "file", "%s: %s is %s", what, s, map[bool]string{true: "a directory", false: "not a directory"}[st.IsDir()])
	case what == "apply" || what == "crds" || what == "explore":
		if err := manifest.CheckFile(abs, what == "crds"); err != nil {
			l.errorf(f, "manifest", "%s: %s", what, strings.Replace(err.Error(), abs, s, 1))
		}
	}
	if filepath.IsAbs(filepath.FromSlash(s)) {
		return filepath.ToSlash(filepath.Clean(abs))
	}
	rel := l.relToSpec(abs)
	if keepDot && !strings.HasPrefix(rel, "../") && rel != ".." {
		rel = "./" + rel
	}
	return rel
}

// abs is path s, written in f, as an absolute path: a relative one is
// taken from the directory of the file that wrote it.
func (l *lowerer) abs(f cue.Value, s string) string {
	p := filepath.FromSlash(s)
	if !filepath.IsAbs(p) {
		p = filepath.Join(l.baseDir(f), p)
	}
	return p
}

// fileOf is the file f was written in (the spec when unknown).
func (l *lowerer) fileOf(f cue.Value) string {
	if u := l.orig.LookupPath(f.Path()); u.Exists() && u.Pos().IsValid() && !l.src.isInternal(u.Pos()) {
		return u.Pos().Filename()
	}
	if file := f.Pos().Filename(); file != "" && !l.src.isInternal(f.Pos()) {
		return file
	}
	return l.src.abs
}

// baseDir is the directory of the file where f was written, or the spec's
// directory for values from the schema, stdlib or elsewhere.
func (l *lowerer) baseDir(f cue.Value) string {
	file := l.fileOf(f)
	if !filepath.IsAbs(file) || l.src.isDir && file == l.src.abs {
		return l.src.dir
	}
	return filepath.Dir(file)
}

func (l *lowerer) relToSpec(abs string) string {
	rel, err := filepath.Rel(l.src.dir, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// exactlyOne reports the one field of names that v has, or an error.
func (l *lowerer) exactlyOne(v cue.Value, what string, names ...string) string {
	var set []string
	for _, n := range names {
		if has(v, n) {
			set = append(set, n)
		}
	}
	if len(set) == 1 {
		return set[0]
	}
	if len(set) == 0 {
		l.errorf(v, "missing", "%s: want one of %s", what, strings.Join(names, ", "))
	} else {
		l.errorf(v, "conflict", "%s: only one of %s may be set", what, strings.Join(set, ", "))
	}
	return ""
}

// only reports fields of v outside allowed (plus the kind field itself).
func (l *lowerer) only(v cue.Value, what string, allowed ...string) {
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for _, f := range fields(v) {
		if !ok[f.name] {
			l.errorf(f.v, "unknown", "%s: %s does not apply here", what, f.name)
		}
	}
}
