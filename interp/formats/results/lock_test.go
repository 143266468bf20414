//go:build unix

package results

import (
	"errors"
	"os"
	"testing"
)

// TestLock: a second lock of a held directory fails at once and names the
// holder; once released, the directory can be locked again.
func TestLock(t *testing.T) {
	l := Layout{Root: t.TempDir() + "/res"}
	unlock, err := Lock(l)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(l)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != os.Getpid() || locked.Dir != l.Root {
		t.Fatalf("second lock: %v, want a LockedError naming pid %d", err, os.Getpid())
	}
	unlock()
	unlock2, err := Lock(l)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}
