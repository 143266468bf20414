package dispatch_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/interp/dispatch"
	"github.com/sievetool/sieve/interp/image"
)

// TestBundleLayout builds a worker image from a spec directory and reads
// its bundle.json back as a worker does.
func TestBundleLayout(t *testing.T) {
	src := t.TempDir()
	for name, data := range map[string]string{
		"spec/x.sieve":     "test a {}\n",
		"spec/crd.yaml":    "kind: CustomResourceDefinition\n",
		"spec/.git/HEAD":   "ref: main\n",
		"lib/faults.sieve": "policy p {}\n",
		"bin/sieve":        "sieve",
		"bin/controlplane": "controlplane",
		"bin/controller-a": "controller",
	} {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b := dispatch.Bundle{Spec: filepath.Join(src, "spec/x.sieve"), Includes: []string{filepath.Join(src, "lib")},
		Sieve: filepath.Join(src, "bin/sieve"), ControlPlane: filepath.Join(src, "bin/controlplane"),
		Controllers: map[string]string{"a b": filepath.Join(src, "bin/controller-a")}}
	layers, err := b.Layers(true)
	if err != nil {
		t.Fatal(err)
	}
	img, err := image.Build(image.Options{Layers: layers, Config: dispatch.Config()})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := image.Extract(img, root); err != nil {
		t.Fatal(err)
	}
	m, err := dispatch.ReadManifest(filepath.Join(root, "sieve", dispatch.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	for what, p := range map[string]string{"spec": m.Spec, "control plane": m.ControlPlane, "controller": m.Controllers["a b"], "include": filepath.Join(m.Includes[0], "faults.sieve")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "sieve/bundle/spec/.git")); err == nil {
		t.Errorf("the spec directory's .git went into the image")
	}
	if want := filepath.Join(root, "sieve/bin/controller-a-b"); m.Controllers["a b"] != want {
		t.Errorf("controller of test \"a b\": %s, want %s", m.Controllers["a b"], want)
	}
}
