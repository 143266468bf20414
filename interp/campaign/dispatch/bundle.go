package dispatch

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/sievetool/sieve/interp/campaign/image"
	"github.com/sievetool/sieve/interp/internal/gocmd"
)

// Paths in the worker image. Root is the working directory of a worker;
// the others are relative to it.
const (
	Root         = "/sieve"
	ManifestFile = "bundle.json"
	binDir       = "bin"
	specDir      = "bundle/spec"
	includeDir   = "bundle/include"
	// Tmp is the worker's one writable directory (an emptyDir volume):
	// HOME, TMPDIR, the caches, the reference runs and the results.
	Tmp = "/tmp"
)

// Manifest is bundle.json: what a worker finds in its image, the paths
// relative to the manifest's directory.
type Manifest struct {
	// Spec is the spec file.
	Spec string `json:"spec"`
	// Includes are the directories given with -I.
	Includes []string `json:"includes,omitempty"`
	// ControlPlane is the sieve-controlplane binary.
	ControlPlane string `json:"controlPlane"`
	// Controllers are the controller binaries built from the tests' Go
	// packages, by test name.
	Controllers map[string]string `json:"controllers,omitempty"`
}

// ReadManifest reads a bundle.json and makes its paths absolute.
func ReadManifest(file string) (*Manifest, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("worker bundle: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("worker bundle: %s: %w", file, err)
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	abs := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	m.Spec, m.ControlPlane = abs(m.Spec), abs(m.ControlPlane)
	for i, p := range m.Includes {
		m.Includes[i] = abs(p)
	}
	for t, p := range m.Controllers {
		m.Controllers[t] = abs(p)
	}
	return &m, nil
}

// Bundle is what goes into a worker image, as files of this machine.
type Bundle struct {
	// Spec is the spec file; its whole directory is carried (but for
	// names starting with a dot), so that imports, manifests and CRDs
	// below it are found as on this machine.
	Spec string
	// Includes are -I directories, carried whole.
	Includes []string
	// Sieve is the sieve binary for linux/amd64.
	Sieve string
	// ControlPlane is the sieve-controlplane binary for linux/amd64.
	ControlPlane string
	// Controllers are controller binaries (BuildController) by test name.
	Controllers map[string]string
}

// Layers lists the image's layers, the least likely to change first (so a
// registry keeps the big control-plane layer between campaigns): the
// scratch files, the C library, the control plane, sieve, the controllers,
// the spec bundle with bundle.json. Without base (scratch), the scratch
// files are included, and the loader and shared libraries that the
// dynamically linked binaries need (Libraries), if any.
func (b Bundle) Layers(scratch bool) ([][]image.Entry, error) {
	var layers [][]image.Entry
	if scratch {
		layers = append(layers, image.ScratchEntries())
		libs, err := Libraries(b.binaries()...)
		if err != nil {
			return nil, err
		}
		if len(libs) > 0 {
			layers = append(layers, libs)
		}
	}
	bin := func(name, src string) image.Entry {
		return image.Entry{Name: path.Join(Root, binDir, name), Source: src, Mode: 0o755}
	}
	layers = append(layers, []image.Entry{bin("sieve-controlplane", b.ControlPlane)}, []image.Entry{bin("sieve", b.Sieve)})
	m := Manifest{Spec: path.Join(specDir, filepath.Base(b.Spec)), ControlPlane: path.Join(binDir, "sieve-controlplane")}
	var ctrls []image.Entry
	for _, t := range slices.Sorted(maps.Keys(b.Controllers)) {
		name := "controller-" + safe(t)
		ctrls = append(ctrls, bin(name, b.Controllers[t]))
		if m.Controllers == nil {
			m.Controllers = map[string]string{}
		}
		m.Controllers[t] = path.Join(binDir, name)
	}
	if len(ctrls) > 0 {
		layers = append(layers, ctrls)
	}
	bundle, err := b.bundleEntries(&m)
	if err != nil {
		return nil, err
	}
	return append(layers, bundle), nil
}

// binaries are the executables the bundle carries.
func (b Bundle) binaries() []string {
	return append([]string{b.ControlPlane, b.Sieve}, slices.Sorted(maps.Values(b.Controllers))...)
}

// bundleEntries lists the spec's directory, the include directories and
// bundle.json.
func (b Bundle) bundleEntries(m *Manifest) ([]image.Entry, error) {
	skip := func(name string) bool { return strings.HasPrefix(name, ".") }
	entries, err := image.DirEntries(filepath.Dir(b.Spec), path.Join(Root, specDir), skip)
	if err != nil {
		return nil, err
	}
	for i, dir := range b.Includes {
		rel := path.Join(includeDir, fmt.Sprint(i+1))
		more, err := image.DirEntries(dir, path.Join(Root, rel), skip)
		if err != nil {
			return nil, err
		}
		entries = append(entries, more...)
		m.Includes = append(m.Includes, rel)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(entries, image.Entry{Name: path.Join(Root, ManifestFile), Data: append(data, '\n')}), nil
}

// Config is the worker image's config: sieve on PATH, the working
// directory Root, the unprivileged user 65532, HOME and TMPDIR in Tmp.
func Config() v1.Config {
	return v1.Config{
		Env:        Env(),
		WorkingDir: Root,
		User:       "65532:65532",
		Labels:     map[string]string{"org.opencontainers.image.title": "sieve worker"},
	}
}

// Env is the worker's environment (the image's, and the pod's again).
func Env() []string {
	return []string{
		"PATH=" + path.Join(Root, binDir),
		"HOME=" + Tmp,
		"TMPDIR=" + Tmp,
		"XDG_CACHE_HOME=" + path.Join(Tmp, "cache"),
	}
}

// BuildController builds a controller's Go package (relative to dir) for
// linux/amd64 without cgo, so that it runs on an image with no C library,
// into out.
func BuildController(ctx context.Context, dir, pkg, out string) error {
	cmd := gocmd.Command(ctx, "go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := gocmd.Run(cmd); err != nil {
		return fmt.Errorf("controller build: go build %s: %w\n%s", pkg, err, strings.TrimSpace(msg.String()))
	}
	return nil
}

// Dynamic reports whether the executable file needs a dynamic loader and
// a C library (Libraries lists what it needs).
func Dynamic(file string) (bool, error) {
	f, err := openELF(file)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return interpreter(f) != "", nil
}

// libDirs are where Libraries looks for a shared library, in order: the
// Debian multiarch directories first, then the classic ones.
var libDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}

// Libraries lists what the dynamically linked executables among files
// need to start on an image with no base. That is their loader, the shared
// libraries they name (DT_NEEDED), and those the libraries name in turn.
// Each is copied from this machine (libDirs) to the same path in the
// image, in name order. A static executable needs none.
func Libraries(files ...string) ([]image.Entry, error) {
	found := map[string]bool{} // path on this machine, and in the image
	// need adds the libraries that the ELF file names, transitively.
	var need func(file string, f *elf.File) error
	need = func(file string, f *elf.File) error {
		names, err := f.ImportedLibraries()
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		for _, name := range names {
			lib, err := findLibrary(name)
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			if found[lib] {
				continue
			}
			found[lib] = true
			lf, err := elf.Open(lib)
			if err != nil {
				return fmt.Errorf("%s: %w", lib, err)
			}
			err = need(lib, lf)
			lf.Close()
			if err != nil {
				return err
			}
		}
		return nil
	}
	for _, file := range files {
		f, err := openELF(file)
		if err != nil {
			return nil, err
		}
		if interp := interpreter(f); interp != "" {
			found[interp] = true
			err = need(file, f)
		}
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	var entries []image.Entry
	for _, lib := range slices.Sorted(maps.Keys(found)) {
		entries = append(entries, image.Entry{Name: lib, Source: lib, Mode: 0o755})
	}
	return entries, nil
}

// findLibrary finds a shared library by its DT_NEEDED name in libDirs.
func findLibrary(name string) (string, error) {
	for _, dir := range libDirs {
		p := path.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("needs the shared library %s, not found in %s", name, strings.Join(libDirs, ", "))
}

// openELF opens a linux/amd64 ELF file.
func openELF(file string) (*elf.File, error) {
	f, err := elf.Open(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (want a linux/amd64 executable)", file, err)
	}
	if f.Machine != elf.EM_X86_64 {
		f.Close()
		return nil, fmt.Errorf("%s: built for %v (want linux/amd64)", file, f.Machine)
	}
	return f, nil
}

// interpreter is an executable's dynamic loader (PT_INTERP), or "" for a
// static one.
func interpreter(f *elf.File) string {
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b, err := io.ReadAll(p.Open())
			if err != nil {
				return ""
			}
			return strings.TrimRight(string(b), "\x00")
		}
	}
	return ""
}

// safe turns a test name into a file or label value: letters, digits,
// '-' and '.' kept, the rest '-'.
func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '-'
	}, s)
}
