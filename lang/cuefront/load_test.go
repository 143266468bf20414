package cuefront

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
