package controlplane

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
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
		if err := buildOnce(job); err != nil {
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
	err := buildOnce(job)
	if err == nil || err.Error() != "building the test binary: compile error" {
		t.Errorf("failed build: %v", err)
	}
	if left, _ := filepath.Glob(job.out + "*"); len(left) != 0 {
		t.Errorf("a failed build left %v", left)
	}
}
