package embeddedtest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/internal/cachedir"
	"github.com/sievetool/sieve/interp/internal/filelock"
)

// BinaryEnv names an environment variable that, when set, is the sieve
// binary to use; nothing is built then.
const BinaryEnv = "SIEVE_TEST_BINARY"

// built remembers a build of a test process. Package-level state is the
// point here: tests of one process share the binaries.
type built struct {
	once sync.Once
	path string
	err  error
}

var sieveBuild, controlPlaneBuild built

func (b *built) get(t testing.TB, build func() (string, error)) string {
	t.Helper()
	b.once.Do(func() { b.path, b.err = build() })
	if b.err != nil {
		t.Fatalf("embeddedtest: %v", b.err)
	}
	return b.path
}

// Binary returns the path of a sieve binary built from the working tree.
// It builds it on the first call of the test process (`go build` skips the
// link when the binary is up to date). It makes sure the control-plane
// binary it runs is built too (see ControlPlane). A build failure fails
// the test.
func Binary(t testing.TB) string {
	t.Helper()
	ControlPlane(t)
	if p := os.Getenv(BinaryEnv); p != "" {
		return p
	}
	return sieveBuild.get(t, buildSieve)
}

// ControlPlane returns the path of the sieve-controlplane binary that
// runs the components of an embedded cluster. That is $SIEVE_CONTROLPLANE,
// or the one controlplane.Ensure finds or builds from the working tree
// into the user cache, where a sieve binary built from the same tree finds
// it.
func ControlPlane(t testing.TB) string {
	t.Helper()
	return controlPlaneBuild.get(t, func() (string, error) {
		return controlplane.Ensure(context.Background(), controlplane.Options{Progress: os.Stderr})
	})
}

// buildSieve runs go build for ./cmd/sieve of the module that holds the
// working directory, into the user cache directory, under a name of its
// own for each module root.
func buildSieve() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	dir, err := testDir()
	if err != nil {
		return "", err
	}
	unlock, err := filelock.Lock(context.Background(), filepath.Join(dir, "build.lock"), nil)
	if err != nil {
		return "", fmt.Errorf("build lock: %w", err)
	}
	defer unlock()
	// Those of checkouts gone (a CI clone) are trimmed.
	out := filepath.Join(dir, "bin", "sieve-"+checkoutID(root))
	cmd := exec.Command("go", append(buildFlags(root), "-o", out, "./cmd/sieve")...)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the sieve binary: %w\n%s", err, msg)
	}
	cachedir.Use(out)
	_ = cachedir.Trim(filepath.Dir(out)) // best effort: an untrimmed binary only takes room
	return out, nil
}

// buildFlags are the go build flags of the tests' sieve binary: those of
// this test binary, so that both share their package builds. test.sh
// builds with -trimpath, which then needs the checkout named at link time
// (controlplane.CheckoutVar).
func buildFlags(root string) []string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || !slices.Contains(bi.Settings, debug.BuildSetting{Key: "-trimpath", Value: "true"}) {
		return []string{"build"}
	}
	return []string{"build", "-trimpath", "-ldflags", "-X '" + controlplane.CheckoutVar + "=" + root + "'"}
}

// testDir is the directory of the user cache where the tests keep their
// builds and copies, created if need be.
func testDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "sieve-test")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	return dir, nil
}

// checkoutID names the checkout at root in testDir: one binary and one
// copy per checkout, so that tests of two work trees never use each
// other's.
func checkoutID(root string) string {
	sum := sha256.Sum256([]byte(root))
	return fmt.Sprintf("%x", sum[:6])
}

// CleanCopy copies the files of the checkout that holds the working
// directory (tracked ones, and new ones git does not ignore, as they are
// in the working tree) into a directory of the user cache, emptied first,
// and returns it: a clean clone of what is being tested, with no results,
// no binaries and no history. The directory is the same each time, for
// every checkout, so that the Go build cache serves a build there as it
// served the last one (a package's directory is part of its build's key);
// the test holds it locked until it ends, and a test of another checkout
// waits. A test without git to list the files is skipped.
func CleanCopy(t testing.TB) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("embeddedtest: %v", err)
	}
	files := CheckoutFiles(t, root)
	dir, err := testDir()
	if err != nil {
		t.Fatalf("embeddedtest: %v", err)
	}
	// One copy at one path for every checkout, so that a clone at a new
	// path (CI's) builds where the last one did.
	dst := filepath.Join(dir, "copy", "clean")
	unlock, err := filelock.Lock(context.Background(), filepath.Join(dir, "copy.lock"), func(pid int) {
		t.Logf("embeddedtest: waiting for process %d's clean copy %s", pid, dst)
	})
	if err != nil {
		t.Fatalf("embeddedtest: clean copy lock: %v", err)
	}
	t.Cleanup(unlock)
	if err := os.RemoveAll(dst); err != nil {
		t.Fatalf("embeddedtest: emptying the clean copy: %v", err)
	}
	for _, name := range files {
		if err := copyFile(filepath.Join(root, name), filepath.Join(dst, name)); err != nil {
			t.Fatalf("embeddedtest: %v", err)
		}
	}
	_ = cachedir.Trim(filepath.Dir(dst)) // best effort, as for the binaries
	return dst
}

// CheckoutFiles lists the regular files of the checkout at root (tracked
// ones, and new ones git does not ignore), slash-separated, relative to
// root: a file git lists but the working tree deleted is left out, as a
// commit would leave it. A test without git to list them is skipped.
func CheckoutFiles(t testing.TB, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("needs git to list the checkout's files: %v", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if fi, err := os.Lstat(filepath.Join(root, f)); f != "" && err == nil && fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	return files
}

// copyFile copies a regular file.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, fi.Mode().Perm()); err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return nil
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the sieve module")
	}
	return filepath.Dir(gomod), nil
}

// Start starts an embedded cluster and stops it when the test ends.
// opts.Binary, when empty, is set to ControlPlane(t). A start failure
// fails the test.
func Start(t testing.TB, opts embedded.Options) *embedded.Cluster {
	t.Helper()
	if opts.Binary == "" {
		opts.Binary = ControlPlane(t)
	}
	c := embedded.New(opts)
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Errorf("embeddedtest: stopping the cluster: %v", err)
		}
	})
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("embeddedtest: %v", err)
	}
	return c
}

// Kubernetes121Env opts in to the tests that run the Kubernetes 1.21
// line, whose first use builds it (sieve setup --kubernetes 1.21).
const Kubernetes121Env = "SIEVE_KUBERNETES_1_21"

// NeedKubernetes121 skips the test unless Kubernetes121Env is 1.
func NeedKubernetes121(t testing.TB) {
	t.Helper()
	if os.Getenv(Kubernetes121Env) != "1" {
		t.Skip("builds Kubernetes 1.21 on first use; set " + Kubernetes121Env + "=1 to run it")
	}
}
