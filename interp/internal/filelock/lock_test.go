package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestLockWaits: a second Lock of the same file waits until the first is
// released, and is told first who holds it.
func TestLockWaits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	path := filepath.Join(t.TempDir(), "build.lock")
	unlock, err := Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	told := make(chan int, 1)
	go func() {
		u, err := Lock(context.Background(), path, func(pid int) { told <- pid })
		if err != nil {
			t.Error(err)
		} else {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("the second Lock did not wait for the first")
	case <-time.After(200 * time.Millisecond):
	}
	select {
	case pid := <-told:
		if pid != os.Getpid() {
			t.Errorf("the waiter was told the holder is %d, want %d", pid, os.Getpid())
		}
	default:
		t.Error("the waiter was not told that it waits")
	}
	unlock()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the second Lock did not get the lock once it was released")
	}
}

// TestLockCancel: a Lock that waits ends when its context does, with the
// context's error, and the lock can be taken later.
func TestLockCancel(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	path := filepath.Join(t.TempDir(), "build.lock")
	unlock, err := Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		u, err := Lock(ctx, path, nil)
		if u != nil {
			u()
		}
		done <- err
	}()
	time.Sleep(150 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled wait: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled Lock went on waiting")
	}
	unlock()
	u, err := Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	u()
}
