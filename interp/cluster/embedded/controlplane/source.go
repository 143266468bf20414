package controlplane

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// source is what the binary is built from: the repository checkout sieve
// was compiled from (dir), or else the published modules at version.
type source struct {
	dir     string // root of the checkout, or ""
	version string // sieve's module version, when dir is ""
	key     string // the cache key: a hash of dir's sources, or version
}

// rootPackages are the packages of the root module that the control plane
// imports, relative to the repository root. Their sources are part of the
// cache key of a build from a checkout (a test holds the list true).
var rootPackages = []string{"interp/cluster/embedded/nodesim", "interp/cluster/embedded/seed"}

// locateSource prefers the checkout this package was compiled from, when
// it is still there, and falls back to the module version recorded in the
// binary (a go install by version).
func locateSource() (source, error) {
	if dir, ok := checkout(); ok {
		key, err := hashSources(dir)
		if err != nil {
			return source{}, err
		}
		return source{dir: dir, key: "src-" + key}, nil
	}
	v := moduleVersion()
	if !semver.IsValid(v) || semver.Build(v) != "" {
		return source{}, fmt.Errorf("sieve %s was built outside a checkout and without a release version, so the control plane cannot be built to match it (set %s)", v, Env)
	}
	return source{version: v, key: v}, nil
}

// checkoutDir, when set at link time, is the checkout the binary was
// built from: a build with -trimpath records no source path, so test.sh
// names its checkout with -ldflags "-X" and CheckoutVar.
var checkoutDir string

// CheckoutVar is the name of the variable that -ldflags "-X" sets to a
// -trimpath build's checkout.
const CheckoutVar = "github.com/sievetool/sieve/interp/cluster/embedded/controlplane.checkoutDir"

// checkout returns the repository root that this file was compiled from
// (or checkoutDir), if it still holds the control-plane module.
func checkout() (string, bool) {
	if checkoutDir != "" {
		return isCheckout(checkoutDir)
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", false // unknown, or built with -trimpath
	}
	return isCheckout(filepath.Join(filepath.Dir(file), "..", "..", "..", ".."))
}

// isCheckout says whether root is a checkout of sieve: its go.mod and
// controlplane/go.mod declare the two modules.
func isCheckout(root string) (string, bool) {
	for path, module := range map[string]string{"go.mod": rootModule, filepath.Join("controlplane", "go.mod"): Module} {
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil || modfile.ModulePath(data) != module {
			return "", false
		}
	}
	return filepath.Clean(root), true
}

// moduleVersion is the version of sieve's module in this binary's build
// information: the main module's, or a dependency's when sieve is a
// library of another program.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if bi.Main.Path == rootModule {
		return bi.Main.Version
	}
	for _, m := range bi.Deps {
		if m.Path != rootModule {
			continue
		}
		if m.Replace != nil {
			return m.Replace.Version // "" when replaced by a directory
		}
		return m.Version
	}
	return "unknown"
}

// hashSources hashes what a build from the checkout at root depends on:
// the Go files (not tests), go.mod and go.sum of the control-plane module,
// the Go files of rootPackages, and the root module's and workspace's
// go.mod, go.sum and go.work files.
func hashSources(root string) (string, error) {
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "controlplane"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && isSource(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hashing the control plane sources: %w", err)
	}
	for _, pkg := range rootPackages {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pkg), "*.go"))
		for _, m := range matches {
			if !strings.HasSuffix(m, "_test.go") {
				files = append(files, m)
			}
		}
	}
	for _, name := range []string{"go.mod", "go.sum", "go.work", "go.work.sum"} {
		files = append(files, filepath.Join(root, name))
	}
	return hashFiles(root, files)
}

// isSource says whether a file of the control-plane module is part of its
// build (a test, or a binary built in its directory, is not).
func isSource(name string) bool {
	if strings.HasSuffix(name, "_test.go") {
		return false
	}
	return strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum"
}

// hashFiles hashes the names (relative to root) and contents of files;
// a missing file counts as empty.
func hashFiles(root string, files []string) (string, error) {
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("hashing the control plane sources: %w", err)
		}
		rel, _ := filepath.Rel(root, f)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:8]), nil
}
