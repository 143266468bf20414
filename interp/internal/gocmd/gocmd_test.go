package gocmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cancelled program gets SIGINT, so its own cleanup runs: the trap
// writes the file a SIGKILL would never let it write.
func TestCancelInterrupts(t *testing.T) {
	done := filepath.Join(t.TempDir(), "cleaned")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := Command(ctx, "sh", "-c", `trap 'touch "$0"; exit 3' INT; echo up; while :; do sleep 0.1; done`, done)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := out.Read(make([]byte, 3)); err != nil { // "up": the trap is set
		t.Fatal(err)
	}
	cancel()
	_ = cmd.Wait()
	if _, err := os.Stat(done); err != nil {
		t.Fatalf("the program did not clean up after cancel (killed, not interrupted?): %v", err)
	}
}

// TestRunOwnGOTMPDIR: what the program leaves in its GOTMPDIR (a go
// command stopped before it removed its work directory) goes with it.
func TestRunOwnGOTMPDIR(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cmd := Command(context.Background(), "sh", "-c", `mkdir "$GOTMPDIR/go-build1" && echo "$GOTMPDIR"`)
	var out strings.Builder
	cmd.Stdout = &out
	if err := Run(cmd); err != nil {
		t.Fatal(err)
	}
	dir := strings.TrimSpace(out.String())
	if dir == "" || !strings.HasPrefix(dir, os.Getenv("TMPDIR")) {
		t.Fatalf("GOTMPDIR %q, want one in TMPDIR", dir)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("GOTMPDIR %s left after the program ended: %v", dir, err)
	}
	if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) != 0 {
		t.Errorf("TMPDIR holds %v, want nothing", left)
	}
}
