package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/klog/v2"

	"github.com/sievetool/sieve/interp/formats/results"
)

// TestDivertClientLogs checks that client-go's log lines (warnings and
// errors alike) go to the results directory's client.log while it is
// locked, not to stderr, and back to stderr after.
func TestDivertClientLogs(t *testing.T) {
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = stderr
	defer func() { os.Stderr = saved }()
	l := results.Layout{Root: t.TempDir()}
	unlock, err := lockResults(l.Root)
	if err != nil {
		t.Fatal(err)
	}
	klog.InfoS("Warning: watch ended with error", "reflector", "reflector.go:664")
	klog.Error("an error from a reflector")
	unlock()
	log, err := os.ReadFile(l.Client())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--- sieve", "watch ended with error", "an error from a reflector"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("client.log lacks %q:\n%s", want, log)
		}
	}
	if b, _ := os.ReadFile(stderr.Name()); len(b) > 0 {
		t.Errorf("client-go lines reached stderr:\n%s", b)
	}
	klog.Warning("after unlock")
	klog.Flush()
	if b, _ := os.ReadFile(stderr.Name()); !strings.Contains(string(b), "after unlock") {
		t.Errorf("after unlock, klog does not write to stderr again (got %q)", b)
	}
}
