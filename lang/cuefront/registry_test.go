package cuefront

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"cuelang.org/go/mod/modregistrytest"
	"github.com/rogpeppe/go-internal/txtar"
)

// registrySpec is a spec whose module depends on example.com/faults at
// the version VERSION.
const registrySpec = `package spec

import "example.com/faults"

controllers: c: command: "x"
workload: w: steps: [{settle: true}]
test: t: {controller: controllers.c, workloads: [workload.w], masks: [faults.volumes]}
`

const registryModule = `module: "example.com/team"
language: version: "v0.17.0"
deps: {
	"example.com/faults@v0": v: "VERSION"
	"sieve.dev/schema@v0": v: "v0.1.0"
}
`

// TestLibraryRegistry loads a spec whose CUE module depends on a library
// from a CUE registry (in process, no network) at one version, then at
// another, as `cue mod get example.com/faults@v0.2.0` would switch it. The
// library depends on sieve.dev/schema, published from cue/schema.
func TestLibraryRegistry(t *testing.T) {
	reg := testRegistry(t)
	t.Setenv("CUE_REGISTRY", reg.Host()+"+insecure")
	t.Setenv("CUE_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "spec.cue"), registrySpec)
	t.Chdir(dir)
	for version, rules := range map[string]int{"v0.1.0": 1, "v0.2.0": 2} {
		writeFile(t, filepath.Join(dir, "cue.mod", "module.cue"), strings.Replace(registryModule, "VERSION", version, 1))
		spec, ds := Load("spec.cue", Options{})
		if ds.HasErrors() {
			t.Fatalf("%s: %v", version, ds)
		}
		masks := spec.Tests[0].Masks
		if len(masks) != 1 || len(masks[0].Rules) != rules {
			t.Errorf("%s: masks %+v, want volumes with %d rules", version, masks, rules)
		}
	}
}

// testRegistry serves the modules of testdata/registry.txtar and
// the published schema module (cue/schema) as sieve.dev/schema v0.1.0.
func testRegistry(t *testing.T) *modregistrytest.Registry {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "registry.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	for _, f := range ar.Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	for _, name := range []string{"cue.mod/module.cue", "schema.cue", "ir.cue"} {
		b, err := os.ReadFile(filepath.Join(publishedSchema, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		fsys["sieve.dev_schema_v0.1.0/"+name] = &fstest.MapFile{Data: b}
	}
	reg, err := modregistrytest.New(fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	return reg
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
