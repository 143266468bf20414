package mask

import (
	"encoding/json"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/stdlib"
)

// TestStdMasks compiles std/masks as the checker lowers it and strips the
// pod of testdata/pod.txtar: what differs between runs goes, the rest
// stays.
func TestStdMasks(t *testing.T) {
	src := `import "std/masks"
controller c { command ["true"] }
workload w { settle 1s }
test t {
  controller c
  workloads [w]
  masks [masks.default]
}
`
	spec, ds := check.File("t.sieve", []byte(src), check.Options{Std: stdlib.FS()})
	if ds.HasErrors() {
		t.Fatalf("std/masks does not check: %v", ds)
	}
	set, err := Compile(spec.Tests[0].Masks)
	if err != nil {
		t.Fatal(err)
	}
	got := set.For(ir.OracleEnd).Strip(trace.Key{Kind: "pod", Namespace: "default", Name: "ds-0"}, fixturePod(t))
	meta := got["metadata"].(map[string]any)
	for _, gone := range []string{"uid", "resourceVersion", "creationTimestamp"} {
		if _, ok := meta[gone]; ok {
			t.Errorf("metadata.%s not masked", gone)
		}
	}
	if spec := got["spec"].(map[string]any); spec["nodeName"] != nil {
		t.Error("spec.nodeName not masked")
	}
	status := got["status"].(map[string]any)
	for _, gone := range []string{"podIP", "startTime"} {
		if _, ok := status[gone]; ok {
			t.Errorf("status.%s not masked", gone)
		}
	}
	if status["phase"] != "Running" || meta["name"] != "ds-0" || meta["labels"].(map[string]any)["app"] != "ds" {
		t.Errorf("std masks removed a field they should keep: %v", got)
	}
}

func fixturePod(t *testing.T) map[string]any {
	ar, err := txtar.ParseFile("testdata/pod.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "in.json" {
			var obj map[string]any
			if err := json.Unmarshal(f.Data, &obj); err != nil {
				t.Fatal(err)
			}
			return obj
		}
	}
	t.Fatal("no in.json in testdata/pod.txtar")
	return nil
}
