package nospace

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

func TestFirst(t *testing.T) {
	write := &fs.PathError{Op: "write", Path: "/r/plans/a/trace.jsonl", Err: syscall.ENOSPC}
	etcd := errors.New("etcd exited: exit status 1\n  {\"level\":\"fatal\",\"msg\":\"failed to write\",\"error\":\"write /tmp/x/etcd/wal: no space left on device\"}\n  goroutine 1 [running]:")
	found := InLog(etcd, "/tmp/x", "free some space or set TMPDIR", etcd.Error())
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"own write", fmt.Errorf("plan a: trace: %w", write), "no space left on device in /r/plans/a (free it): plan a: trace: write /r/plans/a/trace.jsonl"},
		{"quota", fmt.Errorf("summary: %w", &fs.PathError{Op: "write", Path: "/r/summary.json", Err: syscall.EDQUOT}), "disk quota exceeded in /r (free it): summary: write /r/summary.json"},
		{"component log", fmt.Errorf("worker 1: embedded cluster: %w", found), "no space left on device in /tmp/x (free some space or set TMPDIR): worker 1: embedded cluster: " + etcd.Error()},
		{"twice", First(fmt.Errorf("plan a: %w", write), "free it"), "no space left on device in /r/plans/a (free it): plan a: write /r/plans/a/trace.jsonl"},
		{"other", errors.New("etcd exited: exit status 2"), "etcd exited: exit status 2"},
	} {
		got := First(tc.err, "free it")
		if got.Error() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		if tc.name != "other" && !errors.Is(got, syscall.ENOSPC) && !errors.Is(got, syscall.EDQUOT) {
			t.Errorf("%s: %v is not ENOSPC", tc.name, got)
		}
	}
	if err := InLog(etcd, "/tmp/x", "", "address already in use"); err != etcd {
		t.Errorf("a log without the message: %v, want the error as it was", err)
	}
}
