package gocmd

import (
	"context"
	"os"
	"path/filepath"
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
