package embedded_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestStartBuildWaitNotCharged: a Start that waits for another process's
// control-plane build (its lock held, no binary in the cache) is not
// bounded by StartTimeout, which is for the start itself, and ends when
// its context does.
func TestStartBuildWaitNotCharged(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	cp := embeddedtest.ControlPlane(t)
	cache, err := os.UserCacheDir()
	if err != nil || filepath.Dir(filepath.Dir(cp)) != filepath.Join(cache, "sieve", "controlplane") {
		t.Skipf("the control plane %s is not in the user cache, so its cache key is unknown", cp)
	}
	if _, err := exec.LookPath(controlplane.Name()); err == nil {
		t.Skip("a control plane on PATH would be found before the cache")
	}
	key := filepath.Base(filepath.Dir(cp))
	cache = t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir := filepath.Join(cache, "sieve", "controlplane", key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	c := embedded.New(embedded.Options{StartTimeout: 50 * time.Millisecond})
	defer c.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	select {
	case err := <-done:
		t.Fatalf("Start ended while it waited for the build (the wait counts against StartTimeout): %v", err)
	case <-time.After(time.Second):
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Start after its context ended: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Start went on waiting for the build after its context ended")
	}
}
