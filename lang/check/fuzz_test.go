package check_test

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/stdlib"
)

// FuzzCheck feeds arbitrary files to the checker, seeded with every
// golden input: it must never panic, every diagnostic it reports must have
// a position in the file, and a spec without errors must dump.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if filepath.Ext(af.Name) == ".sieve" {
				f.Add(af.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		name := filepath.Join(t.TempDir(), "in.sieve")
		spec, ds := check.File(name, src, check.Options{Std: stdlib.FS()})
		for _, d := range ds {
			if d.Subject == nil || !d.Subject.IsValid() {
				t.Errorf("diagnostic without a position: %v", d)
			}
		}
		if spec != nil {
			if _, err := ir.Dump(spec); err != nil {
				t.Errorf("dump: %v", err)
			}
		}
	})
}
