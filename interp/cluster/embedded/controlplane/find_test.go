package controlplane

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestFindExplicit takes $SIEVE_CONTROLPLANE as it is and names the
// variable when the file is missing.
func TestFindExplicit(t *testing.T) {
	bin := writeFile(t, filepath.Join(t.TempDir(), "cp"), "x")
	t.Setenv(Env, bin)
	if got, err := Find(Options{}); err != nil || got != bin {
		t.Errorf("Find: %q, %v; want %q", got, err, bin)
	}
	t.Setenv(Env, bin+".missing")
	if _, err := Find(Options{}); err == nil || !strings.HasPrefix(err.Error(), Env+": ") {
		t.Errorf("Find of a missing file: %v, want an error naming %s", err, Env)
	}
}

// TestFindCache finds the binary in the cache under the key of this
// checkout's sources, and nowhere else when PATH is empty.
func TestFindCache(t *testing.T) {
	t.Setenv(Env, "")
	t.Setenv("PATH", "")
	opts := Options{CacheDir: t.TempDir()}
	if _, err := Find(opts); err == nil {
		t.Fatal("Find in an empty cache: no error")
	}
	src, err := locateSource()
	if err != nil {
		t.Fatal(err)
	}
	if src.dir == "" || !strings.HasPrefix(src.key, "src-") {
		t.Fatalf("source of a test binary: %+v, want this checkout", src)
	}
	want := writeFile(t, filepath.Join(opts.CacheDir, src.key, Name()), "x")
	if got, err := Find(opts); err != nil || got != want {
		t.Errorf("Find: %q, %v; want %q", got, err, want)
	}
}

// TestSeedPath keeps a seed beside a build in the default cache, and none
// for a binary elsewhere.
func TestSeedPath(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	build := filepath.Join(cache, "sieve", "controlplane", "src-0123", Name())
	if got, want := SeedPath(build, "bootstrap.seed"), filepath.Join(filepath.Dir(build), "bootstrap.seed"); got != want {
		t.Errorf("SeedPath(%q) = %q, want %q", build, got, want)
	}
	for _, bin := range []string{filepath.Join(t.TempDir(), Name()), filepath.Join(cache, "sieve", Name())} {
		if got := SeedPath(bin, "bootstrap.seed"); got != "" {
			t.Errorf("SeedPath(%q) = %q, want none", bin, got)
		}
	}
}

// TestEnsureWithoutGo says what to do when the go command is missing.
func TestEnsureWithoutGo(t *testing.T) {
	t.Setenv(Env, "")
	t.Setenv("PATH", "")
	_, err := Ensure(context.Background(), Options{CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "install Go ≥1.26 or run `sieve setup` on a machine that has it, or set SIEVE_CONTROLPLANE") {
		t.Errorf("Ensure without go: %v", err)
	}
}

// TestHashSources changes with the control plane's sources and the root
// packages it imports, and not with a binary built in its directory.
func TestHashSources(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "controlplane", "go.mod"), "module "+Module+"\n")
	writeFile(t, filepath.Join(root, "controlplane", "cmd", "main.go"), "package main\n")
	nodesim := writeFile(t, filepath.Join(root, rootPackages[0], "nodesim.go"), "package nodesim\n")
	base := mustHash(t, root)
	writeFile(t, filepath.Join(root, "controlplane", "cmd", "sieve-controlplane"), "binary")
	writeFile(t, filepath.Join(root, rootPackages[0], "nodesim_test.go"), "package nodesim\n")
	writeFile(t, filepath.Join(root, "controlplane", "cmd", "main_test.go"), "package main\n")
	if got := mustHash(t, root); got != base {
		t.Errorf("a binary or a test file changed the hash")
	}
	writeFile(t, nodesim, "package nodesim // edited\n")
	if got := mustHash(t, root); got == base {
		t.Errorf("editing %s left the hash alone", rootPackages[0])
	}
}

// TestRootPackages holds rootPackages equal to the packages of the root
// module that the control-plane binary imports, so that the cache key of a
// build from a checkout covers every source of the binary.
func TestRootPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the package graph of Kubernetes; skipped in -short mode")
	}
	dir, ok := checkout()
	if !ok {
		t.Skip("needs the checkout this test was built from")
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./cmd/sieve-controlplane")
	cmd.Dir = filepath.Join(dir, "controlplane")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var got []string
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, rootModule+"/"); ok && !strings.HasPrefix(p, Module+"/") {
			got = append(got, rel)
		}
	}
	if !slices.Equal(got, rootPackages) {
		t.Errorf("root packages the control plane imports: %q, rootPackages says %q", got, rootPackages)
	}
}

func mustHash(t *testing.T, root string) string {
	t.Helper()
	h, err := hashSources(root)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func writeFile(t *testing.T, path, data string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestVersionedReplaces takes from the control plane's go.mod every
// replace of a staging module, and not the one of the root module by
// directory.
func TestVersionedReplaces(t *testing.T) {
	dir, ok := checkout()
	if !ok {
		t.Skip("needs the checkout this test was built from")
	}
	name := filepath.Join(dir, "controlplane", "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := versionedReplaces(name, data)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rs {
		got[r.Old.Path] = r.New.Version
	}
	if got["k8s.io/api"] == "" || got["k8s.io/kube-aggregator"] == "" {
		t.Errorf("replaces: %v, want k8s.io/api and k8s.io/kube-aggregator among them", got)
	}
	if _, ok := got[rootModule]; ok {
		t.Errorf("replaces: %v, want no replace of %s (a directory)", got, rootModule)
	}
}

// TestCheckoutLinked takes the checkout a -trimpath build names at link
// time (checkoutDir), when it holds both modules, and none otherwise.
func TestCheckoutLinked(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module "+rootModule+"\n")
	defer func(dir string) { checkoutDir = dir }(checkoutDir)
	checkoutDir = root
	if dir, ok := checkout(); ok {
		t.Errorf("checkout without controlplane/go.mod: %q, want none", dir)
	}
	writeFile(t, filepath.Join(root, "controlplane", "go.mod"), "module "+Module+"\n")
	if dir, ok := checkout(); !ok || dir != root {
		t.Errorf("checkout: %q, %v; want %q", dir, ok, root)
	}
	if want := reflect.TypeOf(Options{}).PkgPath() + ".checkoutDir"; CheckoutVar != want {
		t.Errorf("CheckoutVar = %q, want %q", CheckoutVar, want)
	}
}
