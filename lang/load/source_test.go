package load_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sievetool/sieve/lang/load"
)

// TestLoadSourceSameAsLoad holds the editor's entry point to sieve check's:
// the text of a file given as a buffer yields the diagnostics of the file
// on disk, a checker error, a lint error (a field its kind lacks) and a CUE
// spec's error alike.
func TestLoadSourceSameAsLoad(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "web.yaml"), []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"checker": "controller d {\n  builtin \"deployment\"\n}\n\ntest t {\n  controller d\n  workloads [w]\n}\n",
		"cue.cue": "package x\n\ncontrollers: d: {builtin: \"deployment\", namespace: 3}\n",
		"lint":    "controller d {\n  builtin \"deployment\"\n}\n\nworkload w {\n  apply \"web.yaml\"\n  wait  deployment/default/web where \"object.sepc.replicas == 2\"\n}\n\ntest t {\n  controller d\n  workloads [w]\n}\n",
	} {
		path := filepath.Join(dir, name)
		if filepath.Ext(name) == "" {
			path += ".sieve"
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, want := load.Load(path, load.Options{})
		if len(want) == 0 {
			t.Fatalf("%s: no diagnostics to compare", name)
		}
		// The buffer differs from the file on disk, which must not be read.
		if err := os.WriteFile(path, []byte("garbage {"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, got := load.LoadSource(path, []byte(src), load.Options{}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: LoadSource gives\n%v\nLoad gives\n%v", name, got, want)
		}
	}
}
