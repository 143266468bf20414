package load_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// TestRepositorySpecsCheck checks every .sieve file under stdlib/ and
// specs/: each must check with no diagnostic at all.
func TestRepositorySpecsCheck(t *testing.T) {
	t.Chdir("../..")
	var files []string
	for _, root := range []string{"stdlib", "specs"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".sieve") {
				files = append(files, p)
			}
			return err
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if len(files) < 3 {
		t.Fatalf("found only %d .sieve files; the standard library alone has 3", len(files))
	}
	for _, f := range files {
		if _, ds := load.Load(f, load.Options{}); len(ds) > 0 {
			var b strings.Builder
			_ = diag.WriteText(&b, ds, diag.RenderOptions{Source: load.Source})
			t.Errorf("%s does not check clean:\n%s", f, b.String())
		}
	}
}

func TestLoadDispatch(t *testing.T) {
	dir := t.TempDir()
	for name, want := range map[string]string{
		"x.yaml":        "unknown spec file type",
		"missing.sieve": "cannot read spec",
	} {
		_, ds := load.Load(filepath.Join(dir, name), load.Options{})
		if len(ds) != 1 || !strings.Contains(ds[0].Summary, want) {
			t.Errorf("Load(%s) = %v, want one diagnostic containing %q", name, ds, want)
		}
	}
}

func TestSearchPath(t *testing.T) {
	got := load.SearchPath([]string{"a", "", "b"}, "c"+string(filepath.ListSeparator)+""+string(filepath.ListSeparator)+"d")
	if strings.Join(got, ",") != "a,b,c,d" {
		t.Errorf("SearchPath = %q, want a,b,c,d", got)
	}
}

func TestSelectTest(t *testing.T) {
	spec := &ir.Spec{File: "x.sieve", Tests: []*ir.Test{{Name: "buggy"}, {Name: "fixed"}}}
	if got, d := load.SelectTest(spec, "fixed"); d != nil || got.Name != "fixed" {
		t.Errorf("SelectTest(fixed) = %v, %v", got, d)
	}
	_, d := load.SelectTest(spec, "bugy")
	if d == nil || d.Detail != `did you mean "buggy"?` {
		t.Errorf("SelectTest(bugy) = %v, want a did-you-mean hint", d)
	}
}

func TestSourceStd(t *testing.T) {
	if b, ok := load.Source("std/masks.sieve"); !ok || !strings.Contains(string(b), "mask default") {
		t.Errorf("Source(std/masks.sieve) = %q, %v", b, ok)
	}
}

// TestLoadDirectory loads a CUE package directory through the CUE front
// end, and refuses a directory of .sieve files.
func TestLoadDirectory(t *testing.T) {
	pkg := t.TempDir()
	files := map[string]string{
		"a.cue": "package p\n\ncontrollers: c: command: \"x\"\n",
		"b.cue": "package p\n\nworkload: w: steps: [{settle: true}]\n\ntest: t: {controller: controllers.c, workloads: [workload.w]}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec, ds := load.Load(pkg, load.Options{})
	if ds.HasErrors() || len(spec.Tests) != 1 || spec.Tests[0].Name != "t" {
		t.Fatalf("Load(package dir) = %v, %v; want one test t", spec, ds)
	}
	sieveDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(sieveDir, "x.sieve"), []byte("controller c { command \"x\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds = load.Load(sieveDir, load.Options{})
	if len(ds) != 1 || !strings.Contains(ds[0].Summary, "not a CUE package") {
		t.Errorf("Load(.sieve dir) = %v, want one 'not a CUE package' diagnostic", ds)
	}
}

// TestLoadEndlessFile stops reading a spec that never ends (a link to
// /dev/zero, or a FIFO with a writer that keeps writing) at the spec size
// limit, with the limit in the message, instead of reading it all.
func TestLoadEndlessFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	dir := t.TempDir()
	for _, name := range []string{"zero.sieve", "zero.cue"} {
		p := filepath.Join(dir, name)
		if err := os.Symlink("/dev/zero", p); err != nil {
			t.Skipf("cannot make a symbolic link: %v", err)
		}
		_, ds := load.Load(p, load.Options{})
		if len(ds) != 1 || ds[0].Summary != "file too large: more than 2 MiB (the limit for spec files)" {
			t.Errorf("%s: got %v, want the size limit's error", name, ds)
		}
	}
}

// TestIncludesCUE checks that -I directories given for a CUE spec, which
// imports through its CUE module, get a warning that says they do not
// apply, and that the spec still loads; a .sieve spec gets none.
func TestIncludesCUE(t *testing.T) {
	dir := t.TempDir()
	cueSpec := filepath.Join(dir, "spec.cue")
	sieveSpec := filepath.Join(dir, "spec.sieve")
	files := map[string]string{
		cueSpec:   "package spec\n\ncontrollers: c: command: \"x\"\nworkload: w: steps: [{settle: true}]\ntest: t: {controller: controllers.c, workloads: [workload.w]}\n",
		sieveSpec: "controller c {\n  command \"x\"\n}\n\nworkload w {\n  settle\n}\n\ntest t {\n  controller c\n  workloads  [w]\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := load.Options{SearchPath: []string{dir}, Includes: []string{dir}}
	spec, ds := load.Load(cueSpec, opts)
	if spec == nil || len(ds) != 1 || ds[0].Severity != diag.Warning || !strings.Contains(ds[0].Summary, "-I does not apply to CUE specs") {
		t.Errorf("CUE spec with -I: spec %v, diagnostics %v; want the spec and one warning", spec != nil, ds)
	}
	if _, ds := load.Load(cueSpec, load.Options{SearchPath: []string{dir}}); len(ds) != 0 {
		t.Errorf("CUE spec with SIEVE_PATH only: %v, want no diagnostic", ds)
	}
	if _, ds := load.Load(sieveSpec, opts); len(ds) != 0 {
		t.Errorf(".sieve spec with -I: %v, want no diagnostic", ds)
	}
}
