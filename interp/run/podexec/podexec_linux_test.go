package podexec

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/internal/proctree/proctreetest"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// TestProgramDaemonEnds runs an exec stand-in's program that starts a
// daemon (setsid), then waits for its stdin to close: once the exec is
// answered, the daemon is gone.
func TestProgramDaemonEnds(t *testing.T) {
	if err := proctree.Check(); err != nil {
		t.Skipf("no PID namespaces here: %v", err)
	}
	mark := proctreetest.Mark(t)
	o := Options{Simulated: true, BaseDir: t.TempDir(), StandIns: []*ir.ExecStandIn{
		{Pod: "*", Command: []string{"status"}, Run: []string{"sh", "-c", proctreetest.Daemon(mark) + " read line; echo answered"}},
	}}
	e := &proxy.Exec{Namespace: "default", Pod: "zk-0", Command: []string{"status"}}
	fn, err := Answer(o)(e)
	if err != nil || fn == nil {
		t.Fatalf("no answer: %v", err)
	}
	stdin, in := io.Pipe()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := fn(context.Background(), e, proxy.ExecIO{Stdin: stdin, Stdout: &out, Stderr: io.Discard})
		done <- err
	}()
	proctreetest.AwaitRunning(t, mark)
	in.Close()
	if err := <-done; err != nil || out.String() != "answered\n" {
		t.Fatalf("exec: %q %v, want \"answered\"", out.String(), err)
	}
	proctreetest.CheckGone(t, mark, 0)
}
