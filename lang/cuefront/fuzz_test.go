package cuefront

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzCUE feeds arbitrary bytes to the CUE front end as a spec: it must
// never panic, and every diagnostic must name a file and a line. Seeds are
// the spec.cue files of the golden archives.
func FuzzCUE(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "spec.cue" {
				f.Add(af.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := filepath.Join(t.TempDir(), "spec.cue")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		spec, ds := Load(file, Options{})
		if spec == nil && !ds.HasErrors() {
			t.Fatal("no spec and no error")
		}
		for _, d := range ds {
			if d.Subject == nil || d.Subject.Start.Filename == "" {
				t.Fatalf("diagnostic without a file: %v", d)
			}
		}
	})
}
