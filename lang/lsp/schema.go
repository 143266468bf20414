package lsp

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/lint"
	"github.com/sievetool/sieve/lang/manifest"
	"github.com/sievetool/sieve/lang/syntax"
)

// specCRDs are the CRD files of the controllers of spec's tests.
func specCRDs(spec *ir.Spec) []string {
	var out []string
	for _, t := range spec.Tests {
		if t.Controller != nil {
			out = append(out, t.Controller.CRDs...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// quoted is a string literal without escapes.
var quoted = regexp.MustCompile(`"([^"\\]+)"`)

// writtenCRDs are the CRD files that the controllers of a spec, which may
// not compile, name in their crds attributes, as written, and those of
// before (from the spec's last check that compiled).
func writtenCRDs(filename string, src []byte, before []string) []string {
	f, _ := syntax.Parse(filename, src)
	out := slices.Clone(before)
	for _, d := range f.Decls {
		c, ok := d.(*syntax.Controller)
		if !ok || c.Body == nil {
			continue
		}
		for _, a := range c.Body.Attrs {
			r := a.Range()
			if a.Name == nil || a.Name.Name != "crds" || r.Start.Offset >= r.End.Offset || r.End.Offset > len(src) {
				continue
			}
			for _, m := range quoted.FindAllSubmatch(src[r.Start.Offset:r.End.Offset], -1) {
				out = append(out, string(m[1]))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// schemas are the schemas of the kinds doc may name: built in, or defined
// by its controllers' CRD files, as written now or at its last check that
// compiled (found here, not at each check, which this would slow).
func schemas(doc *document) *lint.Schemas {
	return lint.NewSchemas(filepath.Dir(doc.path), writtenCRDs(doc.path, doc.text.src, doc.crds))
}

// fieldSite is a field path being written: the kinds of the objects it
// starts at (those of a manifest for a set) and the path up to the element
// at the cursor.
type fieldSite struct {
	kinds []string
	path  ir.Path
}

// fields are the fields the schemas give for the element at site, by
// name (the first kind's where two have one).
func (f fieldSite) fields(sc *lint.Schemas) []lint.Field {
	var out []lint.Field
	for _, k := range f.kinds {
		for _, x := range sc.Fields(k, f.path) {
			if !slices.ContainsFunc(out, func(y lint.Field) bool { return y.Name == x.Name }) {
				out = append(out, x)
			}
		}
	}
	slices.SortFunc(out, func(a, b lint.Field) int { return strings.Compare(a.Name, b.Name) })
	return out
}

var (
	// keyBefore finds the kind of the last resource key before a where,
	// the one the condition is on.
	keyBefore = regexp.MustCompile(`(?:^|\s)([a-z][a-z0-9.-]*)/\S*\s+(?:\S+\s+)*?where\s*$`)
	// maskPath is a mask rule's key and path keyword.
	maskPath = regexp.MustCompile(`^\s*([a-z][a-z0-9.-]*)/\S*\s+path\s+$`)
	// setKey is an apply step up to the start of a key of its set block.
	setKey = regexp.MustCompile(`^apply\s+"([^"]+)"[^{}]*\bset\s*\{(?:[^{}]*[,\n])?[ \t]*$`)
)

// fieldSiteAt finds the field path whose element starts at off in doc:
// after a key's where or a mask's path, a key of an apply's set, or a field
// selected in CEL from object, object("kind", ...) or a variable bound
// over objects("kind", ...). ok is false elsewhere.
func fieldSiteAt(doc *document, off int) (fieldSite, bool) {
	t := doc.text
	start := off
	for start > 0 && isWordByte(t.src[start-1]) {
		start--
	}
	written := string(t.src[start:off])
	elems := strings.Split(written, ".")
	elems = elems[:len(elems)-1] // the last is the element at off
	w := t.whereAt(start)
	if w.str >= 0 {
		return celSite(doc, w.str, start, elems)
	}
	line := string(t.src[lineStartOf(t, start):start])
	path := fieldPath(elems)
	if m := keyBefore.FindStringSubmatch(line); m != nil {
		return fieldSite{kinds: []string{m[1]}, path: path}, true
	}
	if m := maskPath.FindStringSubmatch(line); m != nil && w.block == "mask" {
		return fieldSite{kinds: []string{m[1]}, path: path}, true
	}
	if file, ok := setFile(t.src, start); ok && w.block == "workload" {
		return fieldSite{kinds: manifestKinds(filepath.Join(filepath.Dir(doc.path), file)), path: path}, true
	}
	return fieldSite{}, false
}

// setFile is the manifest file of the apply step whose set block has a
// key start at off.
func setFile(src []byte, off int) (string, bool) {
	i := bytes.LastIndex(src[:off], []byte("apply"))
	if i < 0 {
		return "", false
	}
	m := setKey.FindSubmatch(src[i:off])
	if m == nil {
		return "", false
	}
	return string(m[1]), true
}

// fieldPath is the path of dotted elements; a quoted or empty element
// (a map key, a typo) ends what is known of it.
func fieldPath(elems []string) ir.Path {
	out := make(ir.Path, 0, len(elems))
	for _, e := range elems {
		out = append(out, ir.FieldElem(e))
	}
	return out
}

// manifestKinds are the kinds of the documents of a manifest file.
func manifestKinds(path string) []string {
	objs, _ := manifest.ReadFile(path)
	var out []string
	for _, o := range objs {
		if o.Kind != "" {
			out = append(out, strings.ToLower(o.Kind))
		}
	}
	return out
}

func lineStartOf(t *text, off int) int {
	for off > 0 && t.src[off-1] != '\n' {
		off--
	}
	return off
}

// fieldItems are the fields the schemas give at site, with their types
// and descriptions.
func fieldItems(sc *lint.Schemas, site fieldSite) []protocol.CompletionItem {
	var out []protocol.CompletionItem
	for _, f := range site.fields(sc) {
		out = append(out, protocol.CompletionItem{
			Label: f.Name, Kind: protocol.CompletionItemKindField, Detail: typeLabel(f.Type), Documentation: plainText(f.Doc),
		})
	}
	return out
}

// fieldHover describes the field element of a path or CEL selection
// around off: its type and description; "" when off is on none the
// schemas know.
func fieldHover(doc *document, off int) (string, int, int) {
	t := doc.text
	start, end := off, off
	for start > 0 && isIdentByte(t.src[start-1]) {
		start--
	}
	for end < len(t.src) && isIdentByte(t.src[end]) {
		end++
	}
	if start == end {
		return "", 0, 0
	}
	site, ok := fieldSiteAt(doc, start)
	if !ok {
		return "", 0, 0
	}
	name := string(t.src[start:end])
	for _, f := range site.fields(schemas(doc)) {
		if f.Name == name {
			md := "`" + name + "`"
			if f.Type != "" {
				md += " `" + typeLabel(f.Type) + "`"
			}
			md += " (field of " + strings.Join(site.kinds, ", ") + ")"
			if f.Doc != "" {
				md += "\n\n" + markdownEscaper.Replace(f.Doc)
			}
			return md, start, end
		}
	}
	return "", 0, 0
}

// typeLabel is how a field's type reads in an editor: the kinds table's
// "{}" (a map, a quantity, a time: any value) as "any".
func typeLabel(t string) string {
	if t == "{}" {
		return "any"
	}
	return t
}

// plainText is a field's description as documentation; a schema's text is
// not Markdown (a pod's is named "<statefulsetname>-<podindex>").
func plainText(s string) any {
	if s == "" {
		return nil
	}
	return protocol.MarkupContent{Kind: protocol.PlainText, Value: s}
}

// markdownEscaper keeps a schema's text as written inside Markdown.
var markdownEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `<`, `\<`, `>`, `\>`, `[`, `\[`, `]`, `\]`)
