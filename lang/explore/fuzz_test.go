package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/syntax"
)

// FuzzExplore feeds arbitrary manifests to Load as both the seed (its
// first object) and the CRDs, seeded with the example specs' seeds and
// CRDs and the testdata archives: Load fails with a clear error or
// Generate returns at most Max operations, each applying to the state the
// ones before it left, and the printed workload parses.
func FuzzExplore(f *testing.F) {
	for _, ex := range [][2]string{{"datastore", "datastore.yaml"}, {"volresize", "cluster.yaml"}, {"ring", "ring.yaml"}} {
		seed, err1 := os.ReadFile(filepath.Join("../../specs", ex[0], ex[1]))
		crd, err2 := os.ReadFile(filepath.Join("../../specs", ex[0], "crd.yaml"))
		if err1 != nil || err2 != nil {
			f.Fatal(err1, err2)
		}
		f.Add(append(append(seed, "\n---\n"...), crd...))
	}
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if in := golden.Files(ar); in["seed.yaml"] != nil {
			f.Add(append(append(in["seed.yaml"], "---\n"...), in["crd.yaml"]...))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var clear, failed error
		hostile.Within(t, hostile.MaxTime, func() { clear, failed = explore(b) })
		if clear != nil {
			hostile.CheckError(t, clear, b)
		}
		if failed != nil {
			t.Fatal(failed)
		}
	})
}

// explore returns the error of Load or Print, which must be clear, or a
// failure of the properties.
func explore(b []byte) (clear, failed error) {
	r, err := Load(b, b)
	if err != nil {
		return err, nil
	}
	ops := Generate(r, Options{Max: 20})
	if len(ops) > 20 {
		return nil, fmt.Errorf("%d operations, max 20", len(ops))
	}
	state := r.Object
	for _, op := range ops {
		if state, err = Apply(state, op); err != nil {
			return nil, err
		}
	}
	text, err := Print("explored", "seed.yaml", r, ops)
	if err != nil {
		return err, nil
	}
	if _, ds := syntax.Parse("explored.sieve", text); ds.HasErrors() {
		return nil, fmt.Errorf("printed workload does not parse: %v\n%s", ds, text)
	}
	return nil, nil
}
