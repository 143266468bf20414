package component

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRunUnknown refuses a name it does not know, listing the ones it does.
func TestRunUnknown(t *testing.T) {
	err := Run("bogus", nil, io.Discard, io.Discard)
	want := `unknown component "bogus" (want one of etcd, kube-apiserver, kube-controller-manager, kube-scheduler, nodesim)`
	if err == nil || err.Error() != want {
		t.Errorf("Run(bogus): %v, want %s", err, want)
	}
}

// TestTakeFlag removes every occurrence of a runner flag.
func TestTakeFlag(t *testing.T) {
	args, found := takeFlag([]string{FlagLifeline, "--a", FlagLifeline, "b"}, FlagLifeline)
	if !found || !slices.Equal(args, []string{"--a", "b"}) {
		t.Errorf("takeFlag: %q, %v", args, found)
	}
}

// TestStartProfile writes NAME.pprof, and NAME.trace when asked, into the
// directory the environment names, and refuses a span that is not a
// positive number of seconds.
func TestStartProfile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ProfileDirEnv, dir)
	t.Setenv(ProfileSecondsEnv, "soon")
	if err := startProfile("etcd", io.Discard); err == nil || !strings.Contains(err.Error(), "want a positive number of seconds") {
		t.Errorf("startProfile with %s=soon: %v", ProfileSecondsEnv, err)
	}
	t.Setenv(ProfileSecondsEnv, "0.05")
	t.Setenv(ProfileTraceEnv, "1")
	if err := startProfile("etcd", io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"etcd.pprof", "etcd.trace"} {
		path := filepath.Join(dir, name)
		deadline := time.Now().Add(5 * time.Second)
		for {
			if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s not written", path)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
