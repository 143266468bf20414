package planfile

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the plan reader: it must never
// panic, and a plan it accepts has the version it reads. Seeds are the
// plans of the report fixtures.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../report/testdata/results/plans/*/plan.json")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"sievePlan":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if err == nil && p.Format != Version {
			t.Fatalf("accepted a plan of version %d", p.Format)
		}
	})
}
