package workload

import (
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/manifest"
)

// FuzzDecodeManifest feeds arbitrary bytes to the reader that applies a
// manifest, seeded with the example specs' manifests. It must never panic,
// and an error must be clear. A manifest that the check (lang/manifest)
// accepts is read here as the same objects, so that what sieve check
// passes does not fail at run time.
func FuzzDecodeManifest(f *testing.F) {
	hostile.Seeds(f, 4<<10, "../../../specs/*/*.yaml", "../session/testdata/existing/*.yaml")
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  ? [a, b]\n  : x\n"))
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {~: x}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		objs, err := decodeManifest(b)
		if err != nil {
			hostile.CheckError(t, err, b)
		}
		checked, cerr := manifest.Parse(b)
		if cerr != nil {
			return
		}
		if err != nil {
			t.Fatalf("the check accepts the manifest, the run does not: %v", err)
		}
		if len(objs) != len(checked) {
			t.Fatalf("the check reads %d objects, the run %d", len(checked), len(objs))
		}
		for i, o := range objs {
			c := checked[i]
			if o.GetAPIVersion() != c.APIVersion || o.GetKind() != c.Kind || o.GetName() != c.Name {
				t.Fatalf("object %d: the check reads %s %s/%s, the run %s %s/%s", i+1,
					c.APIVersion, c.Kind, c.Name, o.GetAPIVersion(), o.GetKind(), o.GetName())
			}
		}
	})
}
