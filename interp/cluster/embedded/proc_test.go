package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sievetool/sieve/interp/nospace"
)

// TestFailureDiskFull: etcd that exits because its data directory's disk
// is full logs the cause, then a stack trace longer than the tail an
// error quotes. The error says first that no space is left, in the
// cluster's directory, and what to do. It is ENOSPC to the pipeline.
func TestFailureDiskFull(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	log := `{"level":"fatal","msg":"failed to save snapshot","error":"write ` + dir + `/etcd/member/snap/db: no space left on device"}` + "\n" +
		"panic: failed to save snapshot\n\ngoroutine 1 [running]:\n" + strings.Repeat("go.etcd.io/etcd/server/v3/etcdserver.(*EtcdServer).run()\n\t/src/server.go:1\n", 20)
	p := &proc{name: "etcd", log: filepath.Join(logs, "etcd.log"), err: errors.New("exit status 2")}
	if err := os.WriteFile(p.log, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	err := nospace.First(fmt.Errorf("worker 1: embedded cluster: %w", p.failure()), "") // as Start and Health return it
	got := err.Error()
	want := "no space left on device in " + dir + " (free some space or set TMPDIR): worker 1: embedded cluster: etcd exited: exit status 2\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("error:\n%s\nwant it to start %q", got, want)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("%v is not ENOSPC", err)
	}

	p.log = filepath.Join(logs, "apiserver.log")
	if err := os.WriteFile(p.log, []byte("F0101 flag provided but not defined\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.failure(); strings.Contains(err.Error(), "no space") || errors.Is(err, syscall.ENOSPC) {
		t.Errorf("a component that exited for another reason: %v", err)
	}
}
