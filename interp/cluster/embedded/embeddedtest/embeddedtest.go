package embeddedtest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "sieve-test")
	bins := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bins, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", bins, err)
	}
	unlock, err := filelock.Lock(context.Background(), filepath.Join(dir, "build.lock"), nil)
	if err != nil {
		return "", fmt.Errorf("build lock: %w", err)
	}
	defer unlock()
	// One binary per checkout: tests of two work trees never run each
	// other's build. Those of checkouts gone (a CI clone) are trimmed.
	sum := sha256.Sum256([]byte(root))
	out := filepath.Join(bins, fmt.Sprintf("sieve-%x", sum[:6]))
	cmd := exec.Command("go", "build", "-o", out, "./cmd/sieve")
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the sieve binary: %w\n%s", err, msg)
	}
	cachedir.Use(out)
	_ = cachedir.Trim(bins) // best effort: an untrimmed binary only takes room
	return out, nil
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
