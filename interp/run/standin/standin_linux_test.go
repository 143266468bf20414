package standin

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/internal/proctree/proctreetest"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/lang/ir"
)

// daemonEnv makes the test binary a stand-in that starts a daemon marked
// with the variable's value, leaves a directory in its TMPDIR (as a go
// run stopped by a signal does), then listens on STANDIN_ADDR.
const daemonEnv = "SIEVE_TEST_STANDIN_DAEMON"

// testProgram runs the test binary as the daemon stand-in if asked to.
func testProgram() {
	if mark := os.Getenv(daemonEnv); mark != "" {
		daemonStandin(mark)
	}
}

func daemonStandin(mark string) {
	if err := exec.Command("sh", "-c", proctreetest.Daemon(mark)).Run(); err != nil {
		os.Exit(3)
	}
	if err := os.Mkdir(filepath.Join(os.TempDir(), "go-build1"), 0o700); err != nil {
		os.Exit(6)
	}
	l, err := net.Listen("tcp", os.Getenv("STANDIN_ADDR"))
	if err != nil {
		os.Exit(4)
	}
	for {
		c, err := l.Accept()
		if err != nil {
			os.Exit(5)
		}
		c.Close()
	}
}

// TestStopEndsDaemons starts a stand-in that starts a daemon (setsid)
// and leaves a directory in its TMPDIR: once the stand-ins are stopped,
// the daemon is gone, and so is the directory, which was not in sieve's
// TMPDIR.
func TestStopEndsDaemons(t *testing.T) {
	if err := proctree.Check(); err != nil {
		t.Skipf("no PID namespaces here: %v", err)
	}
	n, err := netns.New()
	if err != nil {
		t.Skipf("no private network here: %v", err)
	}
	defer n.Close()
	mark := proctreetest.Mark(t)
	t.Setenv(daemonEnv, mark)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := &ir.Standin{Service: "app", Ports: []int{8080}, Command: []string{os.Args[0]}}
	set, err := Start(context.Background(), Options{Standins: []*ir.Standin{s}, Net: n, Dir: t.TempDir(), BaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	proctreetest.AwaitRunning(t, mark)
	set.Stop()
	proctreetest.CheckGone(t, mark, 0)
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("left in sieve's TMPDIR after the stand-ins stopped: %v", entries)
	}
}
