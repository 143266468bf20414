package owndir

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// prefix names the test's directories.
const prefix = "sieve-cluster-"

// TestReclaim makes directories of every kind of owner and checks
// that reclaim removes exactly those whose owner no longer runs.
func TestReclaim(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process start times are not read on Windows: directories are never reclaimed there")
	}
	me := Self()
	dead := exitedPID(t)
	cases := []struct {
		name string
		kept bool
	}{
		{me.Pattern(prefix) + "1", true},                                 // this process
		{Owner{PID: dead, Start: me.Start}.Pattern(prefix) + "2", false}, // an owner that exited
		{"sieve-cluster-123456789", true},                                // an older sieve's name: no owner
		{"sieve-clusters-1-2-3", true},                                   // not a cluster directory
	}
	if runtime.GOOS == "linux" {
		// This PID, but another start time: the owner died and its PID
		// was given to this process.
		cases = append(cases, struct {
			name string
			kept bool
		}{Owner{PID: me.PID, Start: me.Start + 1}.Pattern(prefix) + "3", false})
	}
	tmp := t.TempDir()
	for _, c := range cases {
		if err := os.MkdirAll(filepath.Join(tmp, c.name, "etcd"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	Reclaim(tmp, prefix)
	for _, c := range cases {
		_, err := os.Stat(filepath.Join(tmp, c.name))
		if kept := err == nil; kept != c.kept {
			t.Errorf("%s: kept %v, want %v", c.name, kept, c.kept)
		}
	}
}

// TestSelf checks that this process's start time is read (on Linux) and
// that its directory name gives it back.
func TestSelf(t *testing.T) {
	me := Self()
	if runtime.GOOS == "linux" && me.Start == 0 {
		t.Errorf("no start time read for this process from /proc")
	}
	if o, ok := DirOwner(me.Pattern(prefix)+"42", prefix); !ok || o != me {
		t.Errorf("DirOwner(%q) = %+v, %v; want %+v", me.Pattern(prefix)+"42", o, ok, me)
	}
	if !me.Alive() {
		t.Errorf("this process is not alive to itself")
	}
}

// exitedPID returns the PID of a process that has exited and been reaped.
func exitedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a short-lived process: %v", err)
	}
	return cmd.Process.Pid
}
