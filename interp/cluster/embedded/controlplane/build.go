package controlplane

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/sievetool/sieve/interp/internal/filelock"
	"github.com/sievetool/sieve/interp/internal/gocmd"
)

// goVersion is the Go version the control plane needs, as go.mod says it.
const goVersion = "1.26"

// Ensure returns the path of the binary, building it into the cache when
// Find finds none. A build takes about ten minutes on two cores the first
// time (Kubernetes is large); later builds reuse Go's build cache.
func Ensure(ctx context.Context, opts Options) (string, error) {
	p, err := Find(opts)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return p, err
	}
	src, err := locateSource()
	if err != nil {
		return "", err
	}
	out, err := cachedPath(opts, src)
	if err != nil {
		return "", err
	}
	return out, buildLocked(ctx, opts, src, out)
}

// buildLocked builds the binary into out unless another process did while
// this one waited for the lock.
func buildLocked(ctx context.Context, opts Options, src source, out string) error {
	return buildOnce(ctx, buildJob{
		what:     "the control plane",
		waitFor:  "control-plane build",
		took:     "~15 min on 2 cores",
		lock:     filepath.Join(filepath.Dir(out), "build.lock"),
		out:      out,
		progress: opts.Progress,
		noGo:     fmt.Sprintf("install Go ≥%s or run `sieve setup` on a machine that has it, or set %s", goVersion, Env),
		build: func(goBin, tmp string) error {
			if src.dir != "" {
				return buildFromCheckout(ctx, goBin, src.dir, tmp)
			}
			return buildFromModule(ctx, goBin, src.version, tmp)
		},
	})
}

// buildJob is one build of a control-plane binary.
type buildJob struct {
	what, took string    // what is built, how long a first build takes
	waitFor    string    // what a process that waits for the lock waits for
	lock, out  string    // the lock file held while building, the binary
	progress   io.Writer // where the build says it starts and ends (nil: nowhere)
	noGo       string    // what to do when there is no go command
	build      func(goBin, tmp string) error
}

// buildOnce runs job.build, which writes the binary to a temporary file
// beside job.out. It then moves the file to job.out and prunes the older
// builds of the same binary, all under job.lock. It does nothing if
// job.out exists once it holds the lock (another process built it
// meanwhile). While another process holds the lock it says that it waits,
// and for whom, and the wait ends when ctx does.
func buildOnce(ctx context.Context, job buildJob) error {
	if err := os.MkdirAll(filepath.Dir(job.out), 0o755); err != nil {
		return fmt.Errorf("building %s: %w", job.what, err)
	}
	if job.progress == nil {
		job.progress = io.Discard
	}
	unlock, err := filelock.Lock(ctx, job.lock, func(pid int) {
		fmt.Fprintf(job.progress, "waiting for another sieve process's %s (%s)\n", job.waitFor, holderText(pid))
	})
	if err != nil {
		return fmt.Errorf("%s build lock: %w", job.what, err)
	}
	defer unlock()
	if _, err := os.Stat(job.out); err == nil {
		return nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("building %s: the go command is not on PATH (%s)", job.what, job.noGo)
	}
	fmt.Fprintf(job.progress, "building %s (first use, %s)...\n", job.what, job.took)
	start := time.Now()
	tmp := job.out + ".tmp"
	if err := job.build(goBin, tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("building %s: %w", job.what, err)
	}
	if err := os.Rename(tmp, job.out); err != nil {
		return fmt.Errorf("building %s: %w", job.what, err)
	}
	fmt.Fprintf(job.progress, "built %s in %s: %s\n", job.what, time.Since(start).Round(time.Second), job.out)
	entry := filepath.Dir(job.out)
	prune(filepath.Dir(entry), filepath.Base(entry), filepath.Base(job.out), job.progress)
	return nil
}

// holderText names the process that holds a build lock.
func holderText(pid int) string {
	if pid == 0 {
		return "pid unknown"
	}
	return fmt.Sprintf("pid %d", pid)
}

// buildFromCheckout builds the command from the checkout at root (its
// go.work, or the control-plane module's replace, supplies the root
// module).
func buildFromCheckout(ctx context.Context, goBin, root, out string) error {
	return goCmd(ctx, goBin, filepath.Join(root, "controlplane"), nil, "build", "-o", out, "./cmd/sieve-controlplane")
}

// buildFromModule builds the command from a generated module that requires
// the control-plane module and sieve's root module at version, with the
// replace directives of the control-plane module's go.mod copied in
// (replaces apply only in the main module).
func buildFromModule(ctx context.Context, goBin, version, out string) error {
	dir, err := os.MkdirTemp(filepath.Dir(out), "module-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env := []string{"GOWORK=off"}
	f := &modfile.File{}
	for _, step := range []func() error{
		func() error { return f.AddModuleStmt("sieve-controlplane-build") },
		func() error { return f.AddGoStmt(goVersion + ".0") },
		func() error { return f.AddRequire(rootModule, version) },
		func() error { return f.AddRequire(Module, version) },
		func() error { return writeModFile(dir, f) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	replaces, err := moduleReplaces(ctx, goBin, dir, env, version)
	if err != nil {
		return err
	}
	for _, r := range replaces {
		if err := f.AddReplace(r.Old.Path, r.Old.Version, r.New.Path, r.New.Version); err != nil {
			return err
		}
	}
	if err := writeModFile(dir, f); err != nil {
		return err
	}
	return goCmd(ctx, goBin, dir, env, "build", "-mod=mod", "-o", out, Command)
}

func writeModFile(dir string, f *modfile.File) error {
	f.Cleanup()
	data, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.mod"), data, 0o644)
}

// moduleReplaces downloads the control-plane module at version and returns
// the replace directives of its go.mod that name a module version (the
// ones naming a directory only serve the repository).
func moduleReplaces(ctx context.Context, goBin, dir string, env []string, version string) ([]*modfile.Replace, error) {
	var stdout bytes.Buffer
	cmd := exec.CommandContext(ctx, goBin, "mod", "download", "-json", Module+"@"+version)
	cmd.Dir, cmd.Env, cmd.Stdout = dir, append(os.Environ(), env...), &stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go mod download %s@%s: %w\n%s%s", Module, version, err, stdout.Bytes(), stderr.Bytes())
	}
	var info struct{ GoMod string }
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
		return nil, fmt.Errorf("go mod download %s@%s: %w", Module, version, err)
	}
	data, err := os.ReadFile(info.GoMod)
	if err != nil {
		return nil, err
	}
	return versionedReplaces(info.GoMod, data)
}

// versionedReplaces returns the replace directives of a go.mod that name a
// module version.
func versionedReplaces(name string, data []byte) ([]*modfile.Replace, error) {
	mf, err := modfile.Parse(name, data, nil) // ParseLax would drop the replaces
	if err != nil {
		return nil, err
	}
	var out []*modfile.Replace
	for _, r := range mf.Replace {
		if r.New.Version != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

// goCmd runs the go command in dir with env added, returning its output
// with the error.
func goCmd(ctx context.Context, goBin, dir string, env []string, args ...string) error {
	cmd := gocmd.Command(ctx, goBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := gocmd.Run(cmd); err != nil {
		return fmt.Errorf("go %s: %w\n%s", args[0], err, msg.Bytes())
	}
	return nil
}
