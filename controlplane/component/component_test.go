package component

import (
	"io"
	"slices"
	"testing"
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
