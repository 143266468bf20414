package mask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestGolden runs every testdata/*.txtar archive: masks.json (a list of
// ir.Mask), key (kind/ns/name), optional oracle, in.json, and queries (one
// field path per line). The outputs out/strip, out/redact and out/queries
// are golden; SIEVE_UPDATE=1 rewrites them.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar archives")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { runGolden(t, f) })
	}
}

func runGolden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := golden.Files(ar)
	var masks []*ir.Mask
	mustUnmarshal(t, in["masks.json"], &masks)
	set, err := Compile(masks)
	if err != nil {
		t.Fatal(err)
	}
	m := set.For(ir.Oracle(strings.TrimSpace(string(in["oracle"]))))
	key := parseKey(t, strings.TrimSpace(string(in["key"])))
	var obj map[string]any
	mustUnmarshal(t, in["in.json"], &obj)
	before := canonical(t, obj)
	got := map[string][]byte{
		"out/strip":   canonical(t, m.Strip(key, obj)),
		"out/redact":  canonical(t, m.Redact(key, obj)),
		"out/queries": queries(t, m, key, string(in["queries"])),
	}
	if !bytes.Equal(before, canonical(t, obj)) {
		t.Errorf("Strip or Redact modified its input")
	}
	golden.Check(t, file, ar, got)
}

// queries answers Masked for each path line.
func queries(t *testing.T, m *Matcher, k trace.Key, lines string) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		if l == "" {
			continue
		}
		p, err := ir.ParsePath(l)
		if err != nil {
			t.Fatalf("query %q: %v", l, err)
		}
		verdict := "kept"
		if m.Masked(k, p) {
			verdict = "masked"
		}
		fmt.Fprintf(&b, "%s: %s\n", l, verdict)
	}
	return b.Bytes()
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
}

func canonical(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func parseKey(t *testing.T, s string) trace.Key {
	p := strings.Split(s, "/")
	switch len(p) {
	case 2:
		return trace.Key{Kind: p[0], Name: p[1]}
	case 3:
		return trace.Key{Kind: p[0], Namespace: p[1], Name: p[2]}
	}
	t.Fatalf("bad key %q", s)
	return trace.Key{}
}

func TestCompileErrors(t *testing.T) {
	for _, r := range []*ir.MaskRule{
		{},
		{Value: "uuid"},
		{Path: "a..b"},
		{Path: "status.conditions[type=Ready].status"},
		{Key: "x", Oracle: "liveness"},
	} {
		_, err := Compile([]*ir.Mask{{Name: "m", Rules: []*ir.MaskRule{r}}})
		if err == nil || !strings.HasPrefix(err.Error(), "mask m: rule 1: ") {
			t.Errorf("Compile(%+v): error %v", r, err)
		}
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"", "x", true}, {"*", "", true}, {"pod", "pod", true}, {"pod", "pods", false},
		{"data-*", "data-ds-0", true}, {"data-*", "ds", false}, {"*-leader", "a-leader", true},
		{"ds-?", "ds-1", true}, {"ds-?", "ds-12", false}, {"a*b*c", "axxbyyc", true},
		{"a.b*", "axb", false},
	} {
		if got := compileGlob(c.pat).match(c.s); got != c.want {
			t.Errorf("glob %q on %q: got %v", c.pat, c.s, got)
		}
	}
}

func TestKindGlob(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"datastore", "datastore.example.com", true}, {"datastore", "datastore", true},
		{"datastore", "datastores.example.com", false}, {"datastore.example.com", "datastore.other.io", false},
		{"data*", "datastore.example.com", true}, {"pod", "pod", true},
	} {
		if got := compileKindGlob(c.pat).match(c.s); got != c.want {
			t.Errorf("kind glob %q on %q: got %v", c.pat, c.s, got)
		}
	}
}

func TestValueKinds(t *testing.T) {
	for _, c := range []struct {
		s      string
		ts, ip bool
	}{
		{"2026-12-02T10:00:00Z", true, false},
		{"2026-12-02T10:00:00.123456+01:00", true, false},
		{"2026-12-02", false, false},
		{"10.244.0.7", false, true},
		{"fd00::1", false, true},
		{"10.244.0.7:80", false, false},
		{"abc", false, false},
	} {
		if IsTimestamp(c.s) != c.ts || IsIP(c.s) != c.ip {
			t.Errorf("%q: timestamp %v ip %v", c.s, IsTimestamp(c.s), IsIP(c.s))
		}
	}
}

func TestNilMasksNothing(t *testing.T) {
	var s *Set
	m := s.For(ir.OracleEnd)
	k := trace.Key{Kind: "pod", Namespace: "default", Name: "p"}
	if m.Masked(k, ir.Path{ir.FieldElem("metadata"), ir.FieldElem("uid")}) || m.Whole(k) {
		t.Error("nil set masks something")
	}
	obj := map[string]any{"a": 1.0}
	if got := m.Strip(k, obj); got["a"] != 1.0 {
		t.Errorf("Strip lost a field: %v", got)
	}
}

func BenchmarkStrip(b *testing.B) {
	var masks []*ir.Mask
	data, err := os.ReadFile("testdata/bench_masks.json")
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(data, &masks); err != nil {
		b.Fatal(err)
	}
	set, err := Compile(masks)
	if err != nil {
		b.Fatal(err)
	}
	var obj map[string]any
	ar, err := txtar.ParseFile("testdata/pod.txtar")
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "in.json" {
			_ = json.Unmarshal(f.Data, &obj)
		}
	}
	m := set.For(ir.OracleEnd)
	k := trace.Key{Kind: "pod", Namespace: "default", Name: "ds-0"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Strip(k, obj)
	}
}
