package controlplane

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/internal/filelock"
)

// TestBuildOnce moves what the build wrote into place, leaves no temporary
// file when the build fails, and builds nothing when the binary exists.
func TestBuildOnce(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "k", "bin")
	builds := 0
	job := buildJob{what: "the test binary", took: "a moment", lock: filepath.Join(dir, "k.lock"), out: out}
	job.build = func(goBin, tmp string) error {
		builds++
		return os.WriteFile(tmp, []byte("built"), 0o755)
	}
	for range 2 {
		if err := buildOnce(context.Background(), job); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "built" || builds != 1 {
		t.Errorf("after two calls: %q, %v, %d builds; want the binary built once", b, err, builds)
	}

	job.out = filepath.Join(dir, "k", "other")
	job.build = func(goBin, tmp string) error {
		os.WriteFile(tmp, []byte("half"), 0o755)
		return errors.New("compile error")
	}
	err := buildOnce(context.Background(), job)
	if err == nil || err.Error() != "building the test binary: compile error" {
		t.Errorf("failed build: %v", err)
	}
	if left, _ := filepath.Glob(job.out + "*"); len(left) != 0 {
		t.Errorf("a failed build left %v", left)
	}
}

// TestBuildOnceWaits: while another process holds the build lock,
// buildOnce says that it waits and for whom, and stops waiting when its
// context ends, building nothing.
func TestBuildOnceWaits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	dir := t.TempDir()
	job := buildJob{what: "the test binary", waitFor: "control-plane build", lock: filepath.Join(dir, "k.lock"), out: filepath.Join(dir, "k", "bin")}
	job.build = func(goBin, tmp string) error {
		t.Error("built while another process held the lock")
		return nil
	}
	unlock, err := filelock.Lock(context.Background(), job.lock, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	pr, pw := io.Pipe()
	job.progress = pw
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- buildOnce(ctx, job) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("waiting for another sieve process's control-plane build (pid %d)\n", os.Getpid()); line != want {
		t.Errorf("buildOnce said %q, want %q", line, want)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("buildOnce after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("buildOnce went on waiting for the lock after its context ended")
	}
}
