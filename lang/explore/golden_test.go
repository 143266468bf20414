package explore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestQuick(t *testing.T) {
	for _, d := range []string{"datastore", "volresize"} {
		seed, _ := os.ReadFile(filepath.Join("../../specs", d, d+".yaml"))
		if d == "volresize" {
			seed, _ = os.ReadFile("../../specs/volresize/cluster.yaml")
		}
		crd, _ := os.ReadFile(filepath.Join("../../specs", d, "crd.yaml"))
		r, err := Load(seed, crd)
		if err != nil {
			t.Fatal(err)
		}
		ops := Generate(r, Options{})
		out, err := Print("explored", "x.yaml", r, ops)
		if err != nil {
			t.Fatal(err)
		}
		t.Log("\n" + strings.TrimSpace(string(out)))
	}
}
