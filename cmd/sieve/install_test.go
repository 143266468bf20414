package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// installVersion is the version the test publishes both modules at,
// with a build suffix per content (see contentVersion).
const installVersion = "v0.99.0"

const (
	rootModule         = "github.com/sievetool/sieve"
	controlPlaneModule = rootModule + "/controlplane"
)

// TestInstall installs sieve as a user would. Both modules of this
// checkout are published at installVersion in a file-based module proxy,
// and `go install github.com/sievetool/sieve/cmd/sieve@VERSION` installs
// into an empty GOBIN. The installed binary checks a spec and builds its
// control plane into an empty user cache (sieve setup, from a generated
// module that requires the control-plane module at sieve's version). It
// runs one plan of the datastore example on the embedded backend. The Go
// build cache and module cache are the user's own, so a warm machine
// compiles only sieve's packages and links the two binaries. It logs the
// time and size of each build.
func TestInstall(t *testing.T) {
	needPackaging(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	version := publish(t, repo, proxy)
	forgetVersion(t, version)
	t.Cleanup(func() { forgetVersion(t, version) })

	env := installEnv(t, tmp, proxy)
	gobin := filepath.Join(tmp, "bin")
	start := time.Now()
	run(t, tmp, append(env, "GOBIN="+gobin, "GOFLAGS=-mod=mod"), "go", "install", rootModule+"/cmd/sieve@"+version)
	sieve := filepath.Join(gobin, "sieve")
	t.Logf("go install: %s, sieve binary %s", time.Since(start).Round(time.Second), size(t, sieve))

	run(t, repo, env, sieve, "check", "specs/datastore/datastore.sieve")
	start = time.Now()
	cp := strings.TrimSpace(run(t, repo, env, sieve, "setup"))
	t.Logf("sieve setup (control plane build): %s, sieve-controlplane binary %s", time.Since(start).Round(time.Second), size(t, cp))
	if want := filepath.Join(tmp, "cache", "sieve", "controlplane", version); filepath.Dir(cp) != want {
		t.Errorf("sieve setup: %s, want a binary in %s", cp, want)
	}
	if v := run(t, repo, env, sieve, "version"); !strings.Contains(v, "sieve "+version) || !strings.Contains(v, cp+" (kubernetes v1.") {
		t.Errorf("sieve version:\n%s\nwant version %s and the control plane %s with its Kubernetes", v, version, cp)
	}
	runExample(t, repo, env, sieve)
}

// packagingEnv opts in to the packaging tests, TestInstall and
// TestDownstream: they publish sieve to a module proxy and build and use it
// as its users do, which takes minutes. .ci/run runs them after ./test.sh.
const packagingEnv = "SIEVE_PACKAGING"

// needPackaging skips the test unless packagingEnv is 1, and in -short
// mode.
func needPackaging(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv(packagingEnv) != "1" {
		t.Skipf("a packaging test (minutes): run by .ci/run, or by %s=1 go test -run '^%s$' ./cmd/sieve", packagingEnv, t.Name())
	}
}

// runExample runs one plan of the datastore example with the installed
// binary; it exits 0 or 1 (finding) and writes a results directory.
func runExample(t *testing.T, repo string, env []string, sieve string) {
	out := filepath.Join(t.TempDir(), "results")
	cmd := exec.Command(sieve, "run", "specs/datastore/datastore.sieve", "--test", "buggy", "--max-plans", "1", "-o", out)
	cmd.Dir, cmd.Env = repo, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("sieve run (1 plan): %s, exit %d", time.Since(start).Round(time.Second), cmd.ProcessState.ExitCode())
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		t.Fatalf("sieve run: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}
	if strings.Contains(stderr.String(), "building the control plane") {
		t.Errorf("sieve run built the control plane again after sieve setup:\n%s", &stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err != nil {
		t.Errorf("sieve run wrote no summary: %v\nstdout:\n%s", err, &stdout)
	}
}

// installEnv is the environment of the go command and of sieve: the file
// proxy first, no checksum database for sieve's modules, no workspace, and
// an empty user cache (XDG_CACHE_HOME) but the user's Go build cache.
func installEnv(t *testing.T, tmp, proxy string) []string {
	goenv := map[string]string{}
	if err := json.Unmarshal([]byte(run(t, tmp, os.Environ(), "go", "env", "-json", "GOPROXY", "GOCACHE")), &goenv); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+goenv["GOPROXY"],
		"GONOSUMDB="+rootModule,
		"GOWORK=off",
		"GOCACHE="+goenv["GOCACHE"],
		"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"SIEVE_CONTROLPLANE=",
		// No sieve-controlplane from elsewhere on PATH.
		"PATH="+filepath.Dir(goBinary(t))+string(os.PathListSeparator)+"/usr/bin"+string(os.PathListSeparator)+"/bin",
	)
}

// publish writes both modules of the checkout at repo into a file-based
// module proxy (the layout of GOPROXY=file://) and returns the version it
// gave them (contentVersion).
func publish(t *testing.T, repo, proxy string) string {
	files := embeddedtest.CheckoutFiles(t, repo)
	version := contentVersion(t, repo, files)
	var root, cp []string
	for _, f := range files {
		if rest, ok := strings.CutPrefix(f, "controlplane/"); ok {
			cp = append(cp, rest)
		} else {
			root = append(root, f)
		}
	}
	publishModule(t, proxy, rootModule, version, repo, root)
	publishModule(t, proxy, controlPlaneModule, version, filepath.Join(repo, "controlplane"), cp)
	return version
}

// contentVersion is installVersion with a pre-release suffix that hashes
// the checkout's files. The go command takes a module version to be
// immutable, and keeps what it learnt of one (the package index in the
// build cache) across runs. With a fixed version, the next run of a
// changed checkout would build the new files with the old files' imports.
func contentVersion(t *testing.T, repo string, files []string) string {
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return fmt.Sprintf("%s-test.%x", installVersion, h.Sum(nil)[:6])
}

func publishModule(t *testing.T, proxy, path, version, dir string, files []string) {
	escaped, err := module.EscapePath(path)
	if err != nil {
		t.Fatal(err)
	}
	at := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var zfiles []zip.File
	for _, f := range files {
		zfiles = append(zfiles, zipFile{dir: dir, path: f})
	}
	z := &bytes.Buffer{}
	if err := zip.Create(z, module.Version{Path: path, Version: version}, zfiles); err != nil {
		t.Fatalf("zipping %s: %v", path, err)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":%q}`, version, time.Now().UTC().Format(time.RFC3339))
	for name, data := range map[string][]byte{
		"list": []byte(version + "\n"), version + ".info": []byte(info),
		version + ".mod": gomod, version + ".zip": z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// zipFile is a file of the checkout for zip.Create.
type zipFile struct{ dir, path string }

func (f zipFile) Path() string                 { return f.path }
func (f zipFile) Lstat() (os.FileInfo, error)  { return os.Lstat(filepath.Join(f.dir, f.path)) }
func (f zipFile) Open() (io.ReadCloser, error) { return os.Open(filepath.Join(f.dir, f.path)) }

// forgetVersion removes version of both modules from the module cache,
// which is the user's own: the test leaves nothing of its own there.
func forgetVersion(t *testing.T, version string) {
	modcache := strings.TrimSpace(run(t, os.TempDir(), os.Environ(), "go", "env", "GOMODCACHE"))
	for _, path := range []string{rootModule, controlPlaneModule} {
		escaped, _ := module.EscapePath(path)
		dirs := []string{filepath.Join(modcache, filepath.FromSlash(escaped)+"@"+version)}
		downloads, _ := filepath.Glob(filepath.Join(modcache, "cache", "download", filepath.FromSlash(escaped), "@v", version+".*"))
		for _, d := range append(dirs, downloads...) {
			_ = filepath.WalkDir(d, func(p string, _ os.DirEntry, _ error) error { _ = os.Chmod(p, 0o755); return nil })
			if err := os.RemoveAll(d); err != nil {
				t.Fatalf("removing %s from the module cache: %v", d, err)
			}
		}
	}
}

// run runs a command and returns its standard output; a failure fails the
// test with both outputs.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, &stdout, &stderr)
	}
	return stdout.String()
}

func goBinary(t *testing.T) string {
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("needs the go command: %v", err)
	}
	return p
}

func size(t *testing.T, path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6)
}
