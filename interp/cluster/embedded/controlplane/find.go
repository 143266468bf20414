package controlplane

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Names of the module, the command and the binary.
const (
	// Module is the module path of the nested control-plane module.
	Module = "github.com/sievetool/sieve/controlplane"
	// Command is the package path of the binary.
	Command = Module + "/cmd/sieve-controlplane"
	// Env names the environment variable that, when set, is the binary to
	// use: nothing is searched or built then.
	Env = "SIEVE_CONTROLPLANE"
	// rootModule is sieve's own module.
	rootModule = "github.com/sievetool/sieve"
)

// Options say where to look for the binary and where to build it. The zero
// value is the default.
type Options struct {
	// Path is the binary to use (default: $SIEVE_CONTROLPLANE). When set,
	// nothing else is searched and nothing is built.
	Path string
	// CacheDir holds the built binaries (default:
	// os.UserCacheDir()/sieve/controlplane).
	CacheDir string
	// Progress receives a line when a build starts and when it ends
	// (default: nothing is printed).
	Progress io.Writer
}

// ErrNotFound is returned by Find when no binary is found.
var ErrNotFound = errors.New("no sieve-controlplane binary found")

// Name is the binary's file name on this system.
func Name() string {
	if runtime.GOOS == "windows" {
		return "sieve-controlplane.exe"
	}
	return "sieve-controlplane"
}

// Find returns the path of the binary without building it: Options.Path or
// $SIEVE_CONTROLPLANE, else the one next to the running executable, on
// PATH, or in the cache for this sieve's sources or version. It returns an
// error wrapping ErrNotFound when there is none.
func Find(opts Options) (string, error) {
	if p := explicit(opts); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s: %w", Env, err)
		}
		return p, nil
	}
	if p := besideExecutable(); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath(Name()); err == nil {
		return filepath.Abs(p)
	}
	src, err := locateSource()
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrNotFound, err)
	}
	p, err := cachedPath(opts, src)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%w (run sieve setup, or set %s)", ErrNotFound, Env)
	}
	touch(p)
	return p, nil
}

func explicit(opts Options) string {
	if opts.Path != "" {
		return opts.Path
	}
	return os.Getenv(Env)
}

// besideExecutable is the binary in the running executable's directory,
// or "" if there is none.
func besideExecutable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	p := filepath.Join(filepath.Dir(exe), Name())
	if fi, err := os.Stat(p); err != nil || fi.IsDir() {
		return ""
	}
	return p
}

// SeedPath returns where the etcd seed called name (see package seed) of
// the control-plane binary bin is kept. It is beside bin when bin is a
// build in the default cache, so that pruning the build removes its seed.
// It is "" when bin is elsewhere (SIEVE_CONTROLPLANE, beside the sieve
// executable), which gets no seed.
func SeedPath(bin, name string) string {
	dir, err := cacheDir(Options{})
	if err != nil || filepath.Dir(filepath.Dir(bin)) != dir {
		return ""
	}
	return filepath.Join(filepath.Dir(bin), name)
}

// cachedPath is where the binary for src lives in the cache.
func cachedPath(opts Options, src source) (string, error) {
	dir, err := cacheDir(opts)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, src.key, Name()), nil
}

func cacheDir(opts Options) (string, error) {
	if opts.CacheDir != "" {
		return opts.CacheDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the cache directory: %w (set %s)", err, Env)
	}
	return filepath.Join(dir, "sieve", "controlplane"), nil
}
