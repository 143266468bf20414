package oracle

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/stdlib"
)

// fixtureOptions is options.json in a golden archive. Std names masks of
// std/masks (as the checker lowers them) that come before Masks.
type fixtureOptions struct {
	Std        []string        `json:"std"`
	Masks      []*ir.Mask      `json:"masks"`
	Invariants []*ir.Invariant `json:"invariants"`
	OwnKeys    []trace.Key     `json:"ownKeys"`
	// Converge asks for out/converge.json and out/transient.json: the
	// objects Oracle.Converge follows on the test run up to its converge
	// mark (or all of it), those still pending after Observe of the rest,
	// and Oracle.Transient.
	Converge bool `json:"converge"`
}

// TestGolden runs every testdata/*.txtar archive: ref1.jsonl, ref2.jsonl,
// ... (reference traces), test.jsonl and options.json in; out/findings.json
// (the test run against the reference), out/reference.json (the first
// reference run on its own) and, with two or more references,
// out/learned.sieve out. SIEVE_UPDATE=1
// rewrites the outputs.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar archives")
	}
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { runGolden(t, f, env) })
	}
}

func runGolden(t *testing.T, file string, env *celenv.Env) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	refs, test, fo := loadFixture(t, ar)
	masks := append(stdMasks(t, fo.Std), fo.Masks...)
	o, err := New(refs, Options{Masks: masks, Invariants: fo.Invariants, OwnKeys: fo.OwnKeys, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := o.Check(test)
	if err != nil {
		t.Fatal(err)
	}
	if fs == nil {
		fs = []*Finding{}
	}
	refFs, err := o.CheckReference()
	if err != nil {
		t.Fatal(err)
	}
	if refFs == nil {
		refFs = []*Finding{}
	}
	got := map[string][]byte{"out/findings.json": indent(t, fs), "out/reference.json": indent(t, refFs)}
	if fo.Converge {
		got["out/converge.json"] = indent(t, convergence(t, o, test))
		tr, err := o.Transient(test)
		if err != nil {
			t.Fatal(err)
		}
		if tr == nil {
			tr = []*Finding{}
		}
		got["out/transient.json"] = indent(t, tr)
	}
	if len(refs) > 1 {
		b, err := FormatMask("learned", []string{"learned from the reference runs"}, o.Learned())
		if err != nil {
			t.Fatal(err)
		}
		got["out/learned.sieve"] = b
	}
	golden.Check(t, file, ar, got)
	checkExpectation(t, ar, fs)
}

// converged is what out/converge.json shows.
type converged struct {
	Followed []trace.Key `json:"followed"`
	Pending  []trace.Key `json:"pending"`
}

// convergence follows the test run as a plan run does: Converge on the
// trace up to its converge mark, then Observe of every later entry.
func convergence(t *testing.T, o *Oracle, test *trace.Trace) converged {
	n := len(test.Entries)
	for i, e := range test.Entries {
		if e.Type == trace.Converge && e.What == "start" {
			n = i
			break
		}
	}
	c, err := o.Converge(&trace.Trace{Header: test.Header, Entries: test.Entries[:n]})
	if err != nil {
		t.Fatal(err)
	}
	if c == nil {
		return converged{}
	}
	out := converged{Followed: c.Pending()}
	for i := n; i < len(test.Entries); i++ {
		c.Observe(&test.Entries[i])
	}
	out.Pending = c.Pending()
	return out
}

// checkExpectation holds the archive's comment to its claim: "no finding"
// or "one finding" (a golden could otherwise be refreshed into a wrong
// answer unnoticed).
func checkExpectation(t *testing.T, ar *txtar.Archive, fs []*Finding) {
	c := string(ar.Comment)
	switch {
	case strings.Contains(c, "no finding") && len(fs) != 0:
		t.Errorf("want no finding, got %d: %s", len(fs), fs[0].Message)
	case strings.Contains(c, "one finding") && len(fs) != 1:
		t.Errorf("want one finding, got %d", len(fs))
	case strings.Contains(c, "two findings") && len(fs) != 2:
		t.Errorf("want two findings, got %d", len(fs))
	}
}

// stdMasks returns the masks of std/masks with the given names.
func stdMasks(t *testing.T, names []string) []*ir.Mask {
	if len(names) == 0 {
		return nil
	}
	src := "import \"std/masks\"\ncontroller c { command [\"true\"] }\nworkload w { settle 1s }\n" +
		"test t {\n  controller c\n  workloads [w]\n  masks [masks." + strings.Join(names, ", masks.") + "]\n}\n"
	spec, ds := check.File("t.sieve", []byte(src), check.Options{Std: stdlib.FS()})
	if ds.HasErrors() {
		t.Fatalf("std/masks %v: %v", names, ds)
	}
	return spec.Tests[0].Masks
}

func loadFixture(t *testing.T, ar *txtar.Archive) ([]*trace.Trace, *trace.Trace, fixtureOptions) {
	var refs []*trace.Trace
	var test *trace.Trace
	var fo fixtureOptions
	names := golden.Files(ar)
	keys := make([]string, 0, len(names))
	for n := range names {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	for _, n := range keys {
		switch {
		case strings.HasPrefix(n, "ref") && strings.HasSuffix(n, ".jsonl"):
			refs = append(refs, decodeTrace(t, n, names[n]))
		case n == "test.jsonl":
			test = decodeTrace(t, n, names[n])
		case n == "options.json":
			if err := json.Unmarshal(names[n], &fo); err != nil {
				t.Fatalf("options.json: %v", err)
			}
		}
	}
	if len(refs) == 0 || test == nil {
		t.Fatal("archive needs ref1.jsonl and test.jsonl")
	}
	return refs, test, fo
}

func decodeTrace(t *testing.T, name string, data []byte) *trace.Trace {
	tr, err := trace.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tr
}

func indent(t *testing.T, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestInjected counts a plan as injected only when every one of its
// actions fired; the injector's own entries (a hold lifted, a write
// refused) are not actions.
func TestInjected(t *testing.T) {
	fault := func(action int) trace.Entry {
		if action < 0 {
			return trace.Entry{Type: trace.Fault, What: "release"}
		}
		return trace.Entry{Type: trace.Fault, What: "hold", Action: &action}
	}
	cases := []struct {
		actions int
		fired   []int
		want    bool
	}{
		{2, []int{0, 1}, true},
		{2, []int{0}, false},
		{2, []int{0, -1}, false},
		{2, nil, false},
		{0, []int{-1}, true}, // a trace that does not say how many: any fault
		{0, nil, false},
	}
	for _, c := range cases {
		tr := &trace.Trace{Header: trace.Header{Plan: "p", Actions: c.actions}}
		for _, a := range c.fired {
			tr.Entries = append(tr.Entries, fault(a))
		}
		if got := Injected(tr); got != c.want {
			t.Errorf("%d actions, fired %v: injected %v, want %v", c.actions, c.fired, got, c.want)
		}
	}
}

// TestShowUnescaped holds a finding's rendering of a value to the value's
// own characters: a ConfigMap entry "shop.example.com -> shop:8080" reads
// so in the message, not with its ">" escaped as JSON output escapes it.
func TestShowUnescaped(t *testing.T) {
	for v, want := range map[string]string{
		"shop.example.com -> shop:8080": `"shop.example.com -> shop:8080"`,
		"a=1&b=<2>":                     `"a=1&b=<2>"`,
	} {
		if got := show(v); got != want {
			t.Errorf("show(%q) = %s, want %s", v, got, want)
		}
	}
}
