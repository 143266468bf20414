package podexec

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

func TestMatches(t *testing.T) {
	s := &ir.ExecStandIn{Pod: "zk-*", Container: "zk", Command: []string{"zkCli.sh", "get", "*"}}
	rest := &ir.ExecStandIn{Pod: "zk-?", Namespace: "prod", Command: []string{"admin", "..."}}
	for _, c := range []struct {
		s    *ir.ExecStandIn
		e    proxy.Exec
		want bool
	}{
		{s, proxy.Exec{Namespace: "default", Pod: "zk-0", Container: "zk", Command: []string{"zkCli.sh", "get", "/zookeeper/config"}}, true},
		{s, proxy.Exec{Namespace: "default", Pod: "zk-0", Container: "zk", Command: []string{"zkCli.sh", "get"}}, false},
		{s, proxy.Exec{Namespace: "default", Pod: "zk-0", Container: "zk", Command: []string{"zkCli.sh", "get", "a", "b"}}, false},
		{s, proxy.Exec{Namespace: "default", Pod: "zk-0", Container: "sidecar", Command: []string{"zkCli.sh", "get", "a"}}, false},
		{s, proxy.Exec{Namespace: "default", Pod: "web-0", Container: "zk", Command: []string{"zkCli.sh", "get", "a"}}, false},
		{rest, proxy.Exec{Namespace: "prod", Pod: "zk-1", Command: []string{"admin"}}, true},
		{rest, proxy.Exec{Namespace: "prod", Pod: "zk-1", Command: []string{"admin", "remove", "--id=3"}}, true},
		{rest, proxy.Exec{Namespace: "dev", Pod: "zk-1", Command: []string{"admin"}}, false},
		{rest, proxy.Exec{Namespace: "prod", Pod: "zk-10", Command: []string{"admin"}}, false},
	} {
		if got := Matches(c.s, &c.e); got != c.want {
			t.Errorf("Matches(%v, %+v) = %v, want %v", c.s.Command, c.e, got, c.want)
		}
	}
}

func answer(t *testing.T, o Options, e *proxy.Exec, stdin string) (rc int, stdout, stderr string, err error) {
	t.Helper()
	fn, err := Answer(o)(e)
	if err != nil || fn == nil {
		return 0, "", "", err
	}
	var out, errb bytes.Buffer
	rc, err = fn(context.Background(), e, proxy.ExecIO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return rc, out.String(), errb.String(), err
}

// TestAnswer: a scripted reply, a program given the exec's streams and
// command, the first match winning, and an unmatched exec refused with a
// warning when pods are simulated, forwarded otherwise.
func TestAnswer(t *testing.T) {
	var warned []string
	o := Options{Simulated: true, BaseDir: t.TempDir(), Warn: func(key, msg string) { warned = append(warned, msg) }, StandIns: []*ir.ExecStandIn{
		{Pod: "zk-*", Command: []string{"zkCli.sh", "ls", "..."}, Stdout: "[zk-0]\n", Stderr: "note\n", Exit: 2},
		{Pod: "zk-*", Command: []string{"zkCli.sh", "..."}, Run: []string{"sh", "-c", `tr a-z A-Z; echo "$0 $1 $SIEVE_EXEC_POD" >&2; exit 4`}},
	}}
	e := &proxy.Exec{Namespace: "default", Pod: "zk-0", Container: "zk", Command: []string{"zkCli.sh", "ls", "/"}}
	if rc, out, errOut, err := answer(t, o, e, ""); rc != 2 || out != "[zk-0]\n" || errOut != "note\n" || err != nil {
		t.Errorf("reply: %d %q %q %v, want the scripted reply", rc, out, errOut, err)
	}
	e.Command = []string{"zkCli.sh", "get"}
	if rc, out, errOut, err := answer(t, o, e, "ruok"); rc != 4 || out != "RUOK" || errOut != "zkCli.sh get zk-0\n" || err != nil {
		t.Errorf("run: %d %q %q %v, want the program's answer", rc, out, errOut, err)
	}
	e.Command = []string{"rebalance"}
	_, _, _, err := answer(t, o, e, "")
	var se *proxy.StatusError
	if !errors.As(err, &se) || se.Message != `container not found ("zk")` {
		t.Errorf("unmatched: %v, want container not found", err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], `pod default/zk-0: no exec stand-in for ["rebalance"]`) || !strings.Contains(warned[0], "add to the controller: exec [") {
		t.Errorf("warnings %q, want one naming the pod and command with a hint", warned)
	}
	o.Simulated = false
	if fn, err := Answer(o)(e); fn != nil || err != nil {
		t.Errorf("unmatched on real pods: %v %v, want forwarded", fn, err)
	}
}

// TestFault: an exec the fault hook claims is answered with the fault's
// exit code and standard error instead of its stand-in's reply, and the
// next exec, unclaimed, gets the stand-in's reply again.
func TestFault(t *testing.T) {
	calls := 0
	o := Options{Simulated: true, BaseDir: t.TempDir(),
		StandIns: []*ir.ExecStandIn{{Pod: "zk-*", Command: []string{"zkCli.sh", "..."}, Stdout: "ok\n"}},
		Fault: func(e *proxy.Exec) (Fault, bool) {
			calls++
			return Fault{Exit: 1, Stderr: "sieve: injected failure\n"}, calls == 1 && e.Pod == "zk-0"
		},
	}
	e := &proxy.Exec{Namespace: "default", Pod: "zk-0", Command: []string{"zkCli.sh", "remove", "3"}}
	if rc, out, errOut, err := answer(t, o, e, ""); rc != 1 || out != "" || errOut != "sieve: injected failure\n" || err != nil {
		t.Errorf("faulted: %d %q %q %v, want exit 1 with the fault's stderr and no stdout", rc, out, errOut, err)
	}
	if rc, out, errOut, err := answer(t, o, e, ""); rc != 0 || out != "ok\n" || errOut != "" || err != nil {
		t.Errorf("next: %d %q %q %v, want the stand-in's reply", rc, out, errOut, err)
	}
	if calls != 2 {
		t.Errorf("fault hook asked %d times, want once per exec (2)", calls)
	}
}

// TestFaultStale: a stale answer gives the output and exit code of an
// earlier run of the command, carried by the plan, in place of the
// stand-in's reply; the next exec gets the stand-in's reply again.
func TestFaultStale(t *testing.T) {
	calls := 0
	o := Options{Simulated: true, BaseDir: t.TempDir(),
		StandIns: []*ir.ExecStandIn{{Pod: "zk-*", Command: []string{"zkCli.sh", "..."}, Stdout: "members: zk-0 zk-1\n"}},
		Fault: func(e *proxy.Exec) (Fault, bool) {
			calls++
			return Fault{Exit: 3, Stdout: "members: zk-0\n", Stderr: "not in quorum\n"}, calls == 1
		},
	}
	e := &proxy.Exec{Namespace: "default", Pod: "zk-0", Command: []string{"zkCli.sh", "members"}}
	if rc, out, errOut, err := answer(t, o, e, ""); rc != 3 || out != "members: zk-0\n" || errOut != "not in quorum\n" || err != nil {
		t.Errorf("stale: %d %q %q %v, want the earlier output and exit code", rc, out, errOut, err)
	}
	if rc, out, errOut, err := answer(t, o, e, ""); rc != 0 || out != "members: zk-0 zk-1\n" || errOut != "" || err != nil {
		t.Errorf("next: %d %q %q %v, want the stand-in's reply", rc, out, errOut, err)
	}
}

// TestFaultHang: a hang answers nothing until the bound passes, or until
// the controller gives up (its context ends) if sooner, and then ends the
// exec with an error that says which and how long; the next exec gets
// the stand-in's reply.
func TestFaultHang(t *testing.T) {
	calls := 0
	o := Options{Simulated: true, BaseDir: t.TempDir(),
		StandIns: []*ir.ExecStandIn{{Pod: "zk-*", Command: []string{"zkCli.sh", "..."}, Stdout: "ok\n"}},
		Fault: func(e *proxy.Exec) (Fault, bool) {
			calls++
			return Fault{Hang: 100 * time.Millisecond}, calls <= 2
		},
	}
	e := &proxy.Exec{Namespace: "default", Pod: "zk-0", Command: []string{"zkCli.sh", "remove", "3"}}
	start := time.Now()
	if _, out, _, err := answer(t, o, e, ""); out != "" || err == nil || !strings.Contains(err.Error(), "for 100ms, the bound") || time.Since(start) < 100*time.Millisecond {
		t.Errorf("held to the bound: %q %v after %s, want no output and an error naming the bound", out, err, time.Since(start))
	}
	fn, _ := Answer(o)(e)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fn(ctx, e, proxy.ExecIO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}); err == nil || !strings.Contains(err.Error(), "until the controller gave up") {
		t.Errorf("given up: %v, want an error saying the controller gave up", err)
	}
	if _, out, _, err := answer(t, o, e, ""); out != "ok\n" || err != nil {
		t.Errorf("next: %q %v, want the stand-in's reply", out, err)
	}
}

// TestAnswered: with an Answered hook, a stand-in's exec runs first with
// its outputs kept, the hook is told its exit and outputs, and the
// controller gets what the hook returns in their place, or, when it
// returns nothing, the stand-in's answer unchanged.
func TestAnswered(t *testing.T) {
	var told []Fault
	o := Options{Simulated: true, BaseDir: t.TempDir(), StandIns: []*ir.ExecStandIn{
		{Pod: "zk-*", Command: []string{"members"}, Run: []string{"sh", "-c", `cat; echo warn >&2; exit 3`}},
	}, Answered: func(_ *proxy.Exec, got Fault) (Fault, bool) {
		told = append(told, got)
		return Fault{Stdout: "members: 2\n"}, len(told) == 2
	}}
	e := &proxy.Exec{Namespace: "default", Pod: "zk-0", Command: []string{"members"}}
	if rc, out, errs, err := answer(t, o, e, "members: 3\n"); err != nil || rc != 3 || out != "members: 3\n" || errs != "warn\n" {
		t.Fatalf("first exec: %d %q %q %v, want the stand-in's answer", rc, out, errs, err)
	}
	if rc, out, errs, err := answer(t, o, e, "members: 4\n"); err != nil || rc != 0 || out != "members: 2\n" || errs != "" {
		t.Fatalf("second exec: %d %q %q %v, want the hook's answer", rc, out, errs, err)
	}
	if len(told) != 2 || told[1] != (Fault{Exit: 3, Stdout: "members: 4\n", Stderr: "warn\n"}) {
		t.Errorf("hook told %+v, want the stand-in's two answers", told)
	}
}
