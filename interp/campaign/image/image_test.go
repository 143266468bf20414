package image_test

import (
	"context"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sievetool/sieve/interp/campaign/image"
)

// newRegistry starts an in-process registry and returns its host:port.
func newRegistry(t *testing.T) string {
	t.Helper()
	s := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(s.Close)
	return strings.TrimPrefix(s.URL, "http://")
}

// sample builds an image of a small tree: a binary, a spec bundle.
func sample(t *testing.T, dir string) v1.Image {
	t.Helper()
	write(t, filepath.Join(dir, "bin", "sieve"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(dir, "spec", "x.sieve"), "test t {}\n", 0o644)
	write(t, filepath.Join(dir, "spec", "sub", "crd.yaml"), "kind: CustomResourceDefinition\n", 0o600)
	bundle, err := image.DirEntries(filepath.Join(dir, "spec"), "sieve/bundle", nil)
	if err != nil {
		t.Fatal(err)
	}
	img, err := image.Build(image.Options{
		Layers: [][]image.Entry{
			image.ScratchEntries(),
			{{Name: "sieve/bin/sieve", Source: filepath.Join(dir, "bin", "sieve"), Mode: 0o755}},
			bundle,
		},
		Config: v1.Config{Entrypoint: []string{"/sieve/bin/sieve"}, WorkingDir: "/sieve"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func write(t *testing.T, p, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func TestPushPullReproducible(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	first, err := image.Push(ctx, sample(t, t.TempDir()), reg+"/sieve/worker:a")
	if err != nil {
		t.Fatal(err)
	}
	second, err := image.Push(ctx, sample(t, t.TempDir()), reg+"/sieve/worker:b")
	if err != nil {
		t.Fatal(err)
	}
	if d1, d2 := digestOf(first), digestOf(second); d1 != d2 {
		t.Errorf("the same inputs built twice: digests %s and %s, want equal", d1, d2)
	}
	img, err := image.Pull(ctx, reg+"/sieve/worker:a")
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := image.Digest(img); d != digestOf(first) {
		t.Errorf("pulled digest %s, pushed %s", d, digestOf(first))
	}
	out := t.TempDir()
	if err := image.Extract(img, out); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"sieve/bin/sieve":           "#!/bin/sh\n",
		"sieve/bundle/x.sieve":      "test t {}\n",
		"sieve/bundle/sub/crd.yaml": "kind: CustomResourceDefinition\n",
		"etc/passwd":                "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/tmp:/sbin/nologin\n",
	} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	if st, err := os.Stat(filepath.Join(out, "sieve/bin/sieve")); err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Errorf("sieve/bin/sieve lost its executable bit: %v %v", st.Mode(), err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.OS != "linux" || cf.Architecture != "amd64" || cf.Config.WorkingDir != "/sieve" || !cf.Created.Time.Equal(image.Epoch) {
		t.Errorf("config: os %s arch %s workdir %q created %v", cf.OS, cf.Architecture, cf.Config.WorkingDir, cf.Created)
	}
}

func digestOf(ref string) string {
	_, d, _ := strings.Cut(ref, "@")
	return d
}

func TestLayoutAndTarballLoad(t *testing.T) {
	dir := t.TempDir()
	img := sample(t, t.TempDir())
	want, _ := img.ConfigName()
	if err := image.WriteLayout(filepath.Join(dir, "layout"), "sieve/worker:t", img); err != nil {
		t.Fatal(err)
	}
	if err := image.WriteTarball(filepath.Join(dir, "img.tar"), "sieve/worker:t", img); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{filepath.Join(dir, "layout"), filepath.Join(dir, "img.tar")} {
		got, err := image.Load(context.Background(), src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		// A tarball has Docker's manifest, not OCI's: the config, which
		// names every layer, is what must be the same.
		if d, _ := got.ConfigName(); d != want {
			t.Errorf("%s: config digest %s, want %s", src, d, want)
		}
	}
}

func TestDirArtifact(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	src := t.TempDir()
	write(t, filepath.Join(src, "summary.json"), "{}", 0o644)
	write(t, filepath.Join(src, "plans", "p1", "trace.jsonl"), "{}\n", 0o644)
	if _, err := image.PushDir(ctx, src, reg+"/sieve/results:c-shard-1", map[string]string{"sieve.shard": "1"}); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := image.PullDir(ctx, reg+"/sieve/results:c-shard-1", dst); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "plans", "p1", "trace.jsonl")); err != nil || string(b) != "{}\n" {
		t.Errorf("plans/p1/trace.jsonl: %q, %v", b, err)
	}
	if err := image.PullDir(ctx, reg+"/sieve/results:missing", dst); err == nil {
		t.Errorf("pulling a tag that is not there: no error")
	}
}

func TestDuplicateEntry(t *testing.T) {
	_, err := image.Layer([]image.Entry{{Name: "a", Data: []byte("1")}, {Name: "/a", Data: []byte("2")}})
	if err == nil || !strings.Contains(err.Error(), "two entries of the same name") {
		t.Errorf("two entries named a: %v", err)
	}
}
