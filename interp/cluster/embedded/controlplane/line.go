package controlplane

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/kinds"
)

// A Line is an older Kubernetes minor version the embedded backend can run
// instead of its own: kube-apiserver, kube-controller-manager and
// kube-scheduler of that line, from a module of the repository; etcd and
// the node simulator stay the default binary's.
type Line struct {
	// Version is the minor version, "1.21".
	Version string
	// Dir is the module's directory in the repository.
	Dir string
	// Serves says what the line serves that the default does not.
	Serves string
}

// Lines are the older lines there are, by version.
var Lines = map[string]Line{
	"1.21": {Version: "1.21", Dir: "controlplane-1.21", Serves: "policy/v1beta1, apiextensions.k8s.io/v1beta1 and the other beta APIs removed in 1.22 and 1.25"},
}

// LineVersions lists the versions of Lines, sorted.
func LineVersions() []string {
	var vs []string
	for v := range Lines {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	return vs
}

// LookupLine returns the line of version, or an error naming those there
// are.
func LookupLine(version string) (Line, error) {
	l, ok := Lines[version]
	if !ok {
		return Line{}, fmt.Errorf("no Kubernetes %s control plane (there are the default, %s, and %s)", version, kinds.DefaultKubernetes, strings.Join(LineVersions(), ", "))
	}
	return l, nil
}

// binaryName is the line's binary's file name.
func (l Line) binaryName() string { return "sieve-controlplane-" + l.Version }

// EnsureLine returns the path of the line's binary, building it into the
// cache on first use: about as long as the default's first build, since
// that line's Kubernetes shares nothing with it. It needs sieve's checkout
// (the line's module is not part of a go install).
func EnsureLine(ctx context.Context, l Line, opts Options) (string, error) {
	src, err := locateSource()
	if err != nil {
		return "", err
	}
	if src.dir == "" {
		return "", fmt.Errorf("Kubernetes %s: its control plane is built from sieve's repository (%s), and this sieve was installed by version", l.Version, l.Dir)
	}
	moduleDir := filepath.Join(src.dir, l.Dir)
	key, err := hashLine(moduleDir)
	if err != nil {
		return "", err
	}
	key = lineRecipe + key
	dir, err := cacheDir(opts)
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "k8s-"+l.Version+"-"+key, l.binaryName())
	if _, err := os.Stat(out); err == nil {
		touch(out)
		return out, nil
	}
	return out, buildLine(ctx, l, moduleDir, out, opts.Progress)
}

// lineRecipe names how buildLine builds; a change to it that changes the
// binary changes it, and so the cache key.
const lineRecipe = "2-"

// hashLine hashes the line module's sources: its Go files, go.mod, go.sum
// and the list of packages its OpenAPI definitions come from.
func hashLine(moduleDir string) (string, error) {
	entries, err := os.ReadDir(moduleDir)
	if err != nil {
		return "", fmt.Errorf("the control plane's module: %w", err)
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") || n == "go.mod" || n == "go.sum" || n == openAPIInputs {
			files = append(files, filepath.Join(moduleDir, n))
		}
	}
	return hashFiles(moduleDir, files)
}

// openAPIInputs lists, one per line, the packages whose types the line's
// pkg/generated/openapi describes.
const openAPIInputs = "openapi-inputs.txt"

// buildLine builds the line's binary into out. The module zip of
// k8s.io/kubernetes lacks pkg/generated/openapi/zz_generated.openapi.go,
// which its Makefile generates, and Go refuses to overlay a file of the
// module cache. So the build copies the module and generates the file
// into the copy with openapi-gen, at the version the line pins. It builds
// with the copy replacing the module (an alternate go.mod, -modfile).
func buildLine(ctx context.Context, l Line, moduleDir, out string, progress io.Writer) error {
	// One build of a line at a time, in one work directory: the copy of
	// k8s.io/kubernetes at the same path keeps Go's build cache valid for
	// the next build of the line.
	base := filepath.Join(filepath.Dir(filepath.Dir(out)), "k8s-"+l.Version)
	return buildOnce(ctx, buildJob{
		what:     "the Kubernetes " + l.Version + " control plane",
		waitFor:  "Kubernetes " + l.Version + " control-plane build",
		took:     "~12 min on 2 cores",
		lock:     base + ".lock",
		out:      out,
		progress: progress,
		noGo:     fmt.Sprintf("install Go ≥%s", goVersion),
		build: func(goBin, tmp string) error {
			work := base + "-work"
			defer os.RemoveAll(work)
			version, err := generateLine(ctx, goBin, moduleDir, work)
			if err != nil {
				return err
			}
			env := []string{"GOWORK=off"}
			return goCmd(ctx, goBin, moduleDir, env, "build", "-modfile", filepath.Join(work, "go.mod"), "-ldflags", versionFlags(version), "-o", tmp, ".")
		},
	})
}

// versionFlags set the version the components report (the API server's
// /version), which a release build of Kubernetes sets the same way.
func versionFlags(version string) string {
	major, minor, _ := strings.Cut(strings.TrimPrefix(version, "v"), ".")
	minor, _, _ = strings.Cut(minor, ".")
	var flags []string
	for _, pkg := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		flags = append(flags, "-X "+pkg+".gitVersion="+version, "-X "+pkg+".gitMajor="+major, "-X "+pkg+".gitMinor="+minor,
			"-X "+pkg+".gitTreeState=clean")
	}
	return strings.Join(flags, " ")
}

// generateLine prepares work: a copy of the line's k8s.io/kubernetes with
// its generated OpenAPI definitions, and go.mod and go.sum replacing the
// module with the copy. It returns the module's version.
func generateLine(ctx context.Context, goBin, moduleDir, work string) (string, error) {
	env := []string{"GOWORK=off"}
	if err := os.RemoveAll(work); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, goBin, "mod", "download", "-json", "k8s.io/kubernetes")
	cmd.Dir, cmd.Env = moduleDir, append(os.Environ(), env...)
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download k8s.io/kubernetes: %w", err)
	}
	var mod struct{ Dir, Version, Error string }
	if err := json.Unmarshal(b, &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("go mod download k8s.io/kubernetes: no directory (%v%s)", err, mod.Error)
	}
	kube := filepath.Join(work, "kubernetes")
	// The module cache's files are read-only; CopyFS's copies are
	// writable (0o666 before umask), and work is new, so nothing is
	// overwritten.
	if err := os.CopyFS(kube, os.DirFS(mod.Dir)); err != nil {
		return "", err
	}
	gen := filepath.Join(work, "openapi-gen")
	if err := goCmd(ctx, goBin, moduleDir, env, "build", "-o", gen, "k8s.io/kube-openapi/cmd/openapi-gen"); err != nil {
		return "", err
	}
	inputs, err := os.ReadFile(filepath.Join(moduleDir, openAPIInputs))
	if err != nil {
		return "", err
	}
	header := filepath.Join(work, "header.txt")
	if err := os.WriteFile(header, []byte("// Code generated by openapi-gen. DO NOT EDIT.\n"), 0o644); err != nil {
		return "", err
	}
	genOut := filepath.Join(work, "gen")
	args := []string{"--input-dirs", strings.Join(strings.Fields(string(inputs)), ","),
		"--output-package", "k8s.io/kubernetes/pkg/generated/openapi", "--output-file-base", "zz_generated.openapi",
		"-o", genOut, "--go-header-file", header, "--report-filename", filepath.Join(work, "api-rules.txt")}
	g := exec.CommandContext(ctx, gen, args...)
	g.Dir, g.Env = moduleDir, append(os.Environ(), env...)
	if msg, err := g.CombinedOutput(); err != nil {
		return "", fmt.Errorf("openapi-gen: %w\n%s", err, diag.Tail(msg, 20))
	}
	generated := filepath.Join(genOut, "k8s.io", "kubernetes", "pkg", "generated", "openapi", "zz_generated.openapi.go")
	data, err := os.ReadFile(generated)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(kube, "pkg", "generated", "openapi", "zz_generated.openapi.go"), data, 0o644); err != nil {
		return "", err
	}
	gomod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return "", err
	}
	gomod = append(gomod, fmt.Sprintf("\nreplace k8s.io/kubernetes => %s\n", kube)...)
	if err := os.WriteFile(filepath.Join(work, "go.mod"), gomod, 0o644); err != nil {
		return "", err
	}
	sum, err := os.ReadFile(filepath.Join(moduleDir, "go.sum"))
	if err != nil {
		return "", err
	}
	return mod.Version, os.WriteFile(filepath.Join(work, "go.sum"), sum, 0o644)
}
