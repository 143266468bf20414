package manifest

import (
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
)

// FuzzParse feeds arbitrary bytes to the manifest check, seeded with the
// manifests and CRD files of the example specs. It must never panic. An
// error is clear, and quotes at most a short excerpt of a large file.
// Every object it returns has the apiVersion, kind and name it promises.
func FuzzParse(f *testing.F) {
	hostile.Seeds(f, 4<<10, "../../specs/*/*.yaml", "../cuefront/testdata/parity/*/*.yaml")
	f.Fuzz(func(t *testing.T, b []byte) {
		var objs []Object
		var err error
		hostile.Within(t, hostile.MaxTime, func() { objs, err = Parse(b) })
		if err != nil {
			hostile.CheckError(t, err, b)
			return
		}
		for _, o := range objs {
			if o.APIVersion == "" || o.Kind == "" || o.Name == "" || o.Line < 1 {
				t.Fatalf("accepted an object without apiVersion, kind, name or line: %+v", o)
			}
		}
	})
}
