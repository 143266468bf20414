package dispatch_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/campaign/dispatch"
	"github.com/sievetool/sieve/interp/campaign/image"
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
	} {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// This test's executable stands for each binary: linked as go test
	// links it, dynamically when cgo is on.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b := dispatch.Bundle{Spec: filepath.Join(src, "spec/x.sieve"), Includes: []string{filepath.Join(src, "lib")},
		Sieve: exe, ControlPlane: exe, Controllers: map[string]string{"a b": exe}}
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
	libs, err := dispatch.Libraries(exe)
	if err != nil {
		t.Fatal(err)
	}
	dynamic, err := dispatch.Dynamic(exe)
	if err != nil {
		t.Fatal(err)
	}
	if dynamic != (len(libs) > 0) {
		t.Errorf("dynamically linked %v, but %d libraries to carry", dynamic, len(libs))
	}
	for _, l := range libs {
		if _, err := os.Stat(filepath.Join(root, l.Name)); err != nil {
			t.Errorf("the image lacks %s, which the binaries need: %v", l.Name, err)
		}
	}
}

// TestLibraries finds what a dynamically linked executable needs: its
// loader and libc, each once; a file that is not an executable is an
// error.
func TestLibraries(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if dyn, err := dispatch.Dynamic(exe); err != nil || !dyn {
		t.Skipf("this test's executable is not linked dynamically (cgo off?): %v", err)
	}
	libs, err := dispatch.Libraries(exe, exe)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var loader, libc bool
	for _, l := range libs {
		if seen[l.Name] {
			t.Errorf("%s listed twice", l.Name)
		}
		seen[l.Name] = true
		base := filepath.Base(l.Name)
		loader = loader || strings.HasPrefix(base, "ld-linux")
		libc = libc || base == "libc.so.6"
	}
	if !loader || !libc {
		t.Errorf("libraries %v: want the loader and libc.so.6", libs)
	}
	text := filepath.Join(t.TempDir(), "sieve")
	if err := os.WriteFile(text, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := dispatch.Libraries(text); err == nil || !strings.Contains(err.Error(), "linux/amd64 executable") {
		t.Errorf("Libraries of a script: %v, want an error saying it is not an executable", err)
	}
}
