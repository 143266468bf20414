package controller

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sievetool/sieve/interp/internal/cachedir"
	"github.com/sievetool/sieve/interp/internal/gocmd"
)

// Build builds the Go package pkg (a path relative to dir, or an import
// path) and returns the binary's path. Binaries are cached in cacheDir by
// the package's build ID, which changes whenever any of its sources or
// dependencies do, so an unchanged controller is built (linked) once;
// binaries not used for cachedir.MaxAge, and the least recently used past
// cachedir.MaxEntries, are removed.
func Build(ctx context.Context, dir, pkg, cacheDir string) (string, error) {
	id, err := buildID(ctx, dir, pkg)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(id + "\x00" + runtime.GOOS + "/" + runtime.GOARCH))
	bin := filepath.Join(cacheDir, hex.EncodeToString(sum[:8]), path.Base(strings.TrimSuffix(pkg, "/")))
	if _, err := os.Stat(bin); err == nil {
		cachedir.Use(filepath.Dir(bin))
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", fmt.Errorf("controller build: %w", err)
	}
	// Built in a directory of its own beside bin, then renamed into place:
	// builds of one binary at once (parallel tests, workers) each rename a
	// whole binary.
	tmp, err := os.MkdirTemp(filepath.Dir(bin), ".build-")
	if err != nil {
		return "", fmt.Errorf("controller build: %w", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, filepath.Base(bin))
	if _, err := goCmd(ctx, dir, "build", "-o", out, pkg); err != nil {
		return "", err
	}
	if err := os.Rename(out, bin); err != nil {
		return "", fmt.Errorf("controller build: %w", err)
	}
	_ = cachedir.Trim(cacheDir) // best effort: a cache left untrimmed only takes room
	return bin, nil
}

// buildID compiles the package (go list -export) and returns its build ID.
func buildID(ctx context.Context, dir, pkg string) (string, error) {
	out, err := goCmd(ctx, dir, "list", "-export", "-f", "{{.Name}} {{.BuildID}}", pkg)
	if err != nil {
		return "", err
	}
	name, id, _ := strings.Cut(strings.TrimSpace(out), " ")
	if name != "main" {
		return "", fmt.Errorf("controller build: %s is package %s, not a command (package main)", pkg, name)
	}
	if id == "" {
		return "", fmt.Errorf("controller build: no build ID for %s", pkg)
	}
	return id, nil
}

func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := gocmd.Command(ctx, "go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := gocmd.Run(cmd); err != nil {
		return "", fmt.Errorf("controller build: go %s: %w\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
