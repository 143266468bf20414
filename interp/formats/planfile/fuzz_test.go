package planfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/syntax"
)

// FuzzDecode feeds arbitrary bytes to the plan reader: it must never
// panic, an error is clear (hostile.Unclear: JSON's words, not Go's), and a plan it accepts has the version it reads. Seeds are the
// plans of the report fixtures. A plan it accepts that has a .sieve form
// prints as text that parses.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../../report/testdata/results/plans/*/plan.json")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"sievePlan":1}`))
	f.Add([]byte("{\n\"sievePlan\": \"1\"}")) // an error in Go's words, once
	f.Add([]byte(`{"sievePlan":1,"name":"p","actions":{}}`))
	f.Add([]byte(everyForm))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if err != nil {
			hostile.CheckError(t, err, b)
			return
		}
		if p.Format != Version {
			t.Fatalf("accepted a plan of version %d", p.Format)
		}
		text, err := p.Sieve("p")
		if err != nil {
			return
		}
		if f, ds := syntax.Parse("p.sieve", []byte(text)); len(ds) > 0 || len(f.Decls) != 1 {
			t.Fatalf("the .sieve form does not parse as one plan: %v\n%s", ds, text)
		}
	})
}
