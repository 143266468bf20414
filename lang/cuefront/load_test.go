package cuefront

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
)

// TestLoadPackageDir loads a CUE package spread over two files by its
// directory; positions name each file under the directory as given.
func TestLoadPackageDir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.cue": "package p\n\ncontrollers: c: command: \"x\"\n",
		"b.cue": "package p\n\nworkload: w: steps: [{settle: true}]\n\ntest: t: {controller: controllers.c, workloads: [workload.w]}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	spec, ds := Load(".", Options{})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if len(spec.Tests) != 1 || spec.Tests[0].Controller.Command[0] != "x" {
		t.Fatalf("unexpected spec: %+v", spec.Tests)
	}
	if got := spec.Tests[0].Src.Start.Filename; got != "b.cue" {
		t.Errorf("test position names %q, want b.cue", got)
	}
}

// TestLoadMissing reports a path that does not exist.
func TestLoadMissing(t *testing.T) {
	_, ds := Load(filepath.Join(t.TempDir(), "nope.cue"), Options{})
	if !ds.HasErrors() {
		t.Fatal("no error for a missing file")
	}
}

// TestHostileInput checks that bad bytes give diagnostics, never a panic.
func TestHostileInput(t *testing.T) {
	inputs := map[string]string{
		"empty":    "",
		"nul":      "package p\n\ntest: t: {\x00}\n",
		"badutf8":  "package p\n\na: \"\xff\xfe\"\n",
		"nested":   "package p\n\na: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n",
		"random":   string([]byte{0x8f, 0x01, '{', '"', 0xfe, ':', '[', 0x00}),
		"unclosed": "package p\n\na: \"\"\"\nnever closed\n",
		"cycle":    "package p\n\na: b\nb: a\ntest: t: runs: a\n",
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "spec.cue")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			spec, ds := Load(file, Options{})
			if name == "empty" {
				if ds.HasErrors() || spec == nil || len(spec.Tests) != 0 {
					t.Errorf("empty file: spec %v, diagnostics %v", spec, ds)
				}
				return
			}
			if !ds.HasErrors() || spec != nil {
				t.Fatalf("no error for %s input", name)
			}
			for _, d := range ds {
				if d.Subject == nil || d.Subject.Start.Filename == "" || d.Subject.Start.Line == 0 {
					t.Errorf("diagnostic without file:line:col: %v", d)
				}
			}
		})
	}
}

// TestLoadOwnModule loads a spec inside a CUE module of its own, which
// imports a package of that module and the standard library.
func TestLoadOwnModule(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"cue.mod/module.cue": "module: \"example.com/ops\"\nlanguage: version: \"v0.17.0\"\n",
		"lib/lib.cue":        "package lib\n\nctl: {name: \"c\", command: \"x\"}\n",
		"specs/spec.cue": "package spec\n\nimport (\n\t\"example.com/ops/lib\"\n\t\"sieve.dev/std\"\n)\n\n" +
			"test: t: {controller: lib.ctl, workloads: [{name: \"w\", steps: [{settle: true}]}], masks: [std.masks.default]}\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec, ds := Load(filepath.Join(dir, "specs", "spec.cue"), Options{})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if got := spec.Tests[0].Controller.Name; got != "c" || len(spec.Tests[0].Masks) != 1 {
		t.Errorf("unexpected test: controller %q, %d masks", got, len(spec.Tests[0].Masks))
	}
}

// TestLoadSizeLimit refuses a .cue file over the spec size limit while
// reading it, naming the file at 1:1.
func TestLoadSizeLimit(t *testing.T) {
	dir := t.TempDir()
	src := "package spec\n// " + strings.Repeat("x", input.SpecLimit) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "big.cue"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	_, ds := Load("big.cue", Options{})
	if len(ds) != 1 || ds[0].Subject.Start.Line != 1 || ds[0].Summary != "file too large: more than 2 MiB (the limit for spec files)" {
		t.Errorf("got %v; want one file too large error at big.cue:1:1", ds)
	}
}

// TestLoadTimeout holds the evaluation of a spec that CUE takes long over
// to the time bound, with a message that says so.
func TestLoadTimeout(t *testing.T) {
	var b strings.Builder
	b.WriteString("package spec\ncontrollers: ds: {builtin: \"job\"}\nworkload: w: steps: [{settle: \"1s\"}]\n")
	b.WriteString("test: t: {controller: controllers.ds, workloads: [workload.w]}\n_l: [")
	for i := range 50000 {
		fmt.Fprintf(&b, "%d,", i)
	}
	b.WriteString("]\n")
	p := filepath.Join(t.TempDir(), "big.cue")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	spec, ds := Load(p, Options{Timeout: 200 * time.Millisecond})
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("Load took %v with a 200ms bound", elapsed)
	}
	if spec != nil || len(ds) != 1 || !strings.Contains(ds[0].Summary, "CUE evaluation took longer than 200ms (the limit)") {
		t.Errorf("got spec %v, diagnostics %v; want the time bound's error", spec != nil, ds)
	}
}

// TestLoadMaxHeap holds the evaluation of a spec of a few lines that
// builds a long string to the memory bound, with a message that says so.
func TestLoadMaxHeap(t *testing.T) {
	src := "package spec\n\nimport \"strings\"\n\n_a: strings.Repeat(\"x\", 1000000)\n" +
		"_b: _a + _a + _a + _a + _a + _a + _a + _a + _a + _a\n_c: [for i, _ in strings.Split(strings.Repeat(\"y\", 40), \"\") {_b + \"\\(i)\"}]\n" +
		"controllers: c: {builtin: \"job\"}\nworkload: w: steps: [{settle: true}]\ntest: t: {controller: controllers.c, workloads: [workload.w], runs: len(_c)}\n"
	p := filepath.Join(t.TempDir(), "big.cue")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, ds := Load(p, Options{Timeout: time.Minute, MaxHeap: 64 << 20})
	if spec != nil || len(ds) != 1 || !strings.Contains(ds[0].Summary, "CUE evaluation took more than 64 MiB of memory (the limit)") {
		t.Errorf("got spec %v, diagnostics %v; want the memory bound's error", spec != nil, ds)
	}
}

// TestLoadManyErrors shows the first 100 errors of a comprehension that
// makes hundreds, and says how many more there are.
func TestLoadManyErrors(t *testing.T) {
	src := "package spec\n\nimport \"strings\"\n\ncontrollers: c: {builtin: \"job\"}\nworkload: w: steps: [{settle: true}]\n" +
		"test: t: {controller: controllers.c, workloads: [workload.w]}\n" +
		"test: t: {for i, _ in strings.Split(strings.Repeat(\"y\", 150), \"\") {\"bad\\(i)\": 1}}\n"
	p := filepath.Join(t.TempDir(), "many.cue")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := Load(p, Options{})
	if len(ds) != 101 || !slices.ContainsFunc(ds, func(d *diag.Diagnostic) bool {
		return strings.HasSuffix(d.Summary, "00 more CUE errors not shown (the first 100 are)")
	}) {
		t.Errorf("got %d diagnostics, want 100 and a count of the rest: %v", len(ds), ds[:min(3, len(ds))])
	}
}
