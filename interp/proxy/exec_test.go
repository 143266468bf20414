package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/utils/exec"

	"github.com/sievetool/sieve/interp/trace"
)

// execURL is the pods/exec URL of a command, as kubectl and client-go
// build it.
func execURL(base, pod string, command ...string) *url.URL {
	u, _ := url.Parse(base + "/api/v1/namespaces/default/pods/" + pod + "/exec")
	q := url.Values{"container": {"zk"}, "stdin": {"true"}, "stdout": {"true"}, "stderr": {"true"}}
	q["command"] = command
	u.RawQuery = q.Encode()
	return u
}

// executors are client-go's three ways to exec: WebSocket (v5), SPDY
// (v4/v5) and the fallback from the first to the second that kubectl and
// most controllers use.
func executors(t *testing.T, cfg *rest.Config, u *url.URL) map[string]remotecommand.Executor {
	t.Helper()
	ws, err := remotecommand.NewWebSocketExecutor(cfg, "GET", u.String())
	if err != nil {
		t.Fatal(err)
	}
	sp, err := remotecommand.NewSPDYExecutor(cfg, "POST", u)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := remotecommand.NewFallbackExecutor(ws, sp, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]remotecommand.Executor{"websocket": ws, "spdy": sp, "fallback": fb}
}

// shout is a stand-in: it echoes stdin in upper case, names its command
// on stderr and exits with the code its last argument gives.
func shout(_ context.Context, e *Exec, s ExecIO) (int, error) {
	in, err := io.ReadAll(s.Stdin)
	if err != nil {
		return 0, err
	}
	_, _ = io.WriteString(s.Stdout, strings.ToUpper(string(in)))
	_, _ = io.WriteString(s.Stderr, strings.Join(e.Command, " "))
	if e.Command[len(e.Command)-1] == "fail" {
		return 3, nil
	}
	return 0, nil
}

func runExecutor(t *testing.T, ex remotecommand.Executor, stdin string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	err = ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), err
}

// TestExecStandIn: the proxy answers an exec itself over each protocol;
// the controller's client gets the stand-in's output and exit code, and
// the exec is recorded as a connect request on the pod.
func TestExecStandIn(t *testing.T) {
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("exec reached the upstream: %s", r.URL) })
	sink := &memSink{}
	p, err := Start(Options{Upstream: f.config(), Mapper: testKinds, Sink: sink,
		Exec: func(*Exec) (ExecFunc, error) { return shout, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	for name, ex := range executors(t, p.RESTConfig(), execURL(p.URL(), "zk-0", "zkCli.sh", "ok")) {
		out, errOut, err := runExecutor(t, ex, "ruok")
		if err != nil || out != "RUOK" || errOut != "zkCli.sh ok" {
			t.Errorf("%s: stdout %q stderr %q err %v, want RUOK, the command, no error", name, out, errOut, err)
		}
	}
	for name, ex := range executors(t, p.RESTConfig(), execURL(p.URL(), "zk-0", "zkCli.sh", "fail")) {
		_, _, err := runExecutor(t, ex, "")
		var ee exec.ExitError
		if !errors.As(err, &ee) || ee.ExitStatus() != 3 {
			t.Errorf("%s: err %v, want exit code 3", name, err)
		}
	}
	es := sink.await(t, trace.Request, 6)
	e := es[0]
	if e.Verb != "connect" || e.Subresource != "exec" || e.Key.String() != "pod/default/zk-0" || e.Code != http.StatusSwitchingProtocols || e.Done == nil {
		t.Errorf("entry %+v, want connect exec on pod/default/zk-0, code 101, done", e)
	}
	var got Exec
	if err := json.Unmarshal(e.Body, &got); err != nil || strings.Join(got.Command, " ") != "zkCli.sh ok" || got.Container != "zk" || !got.Stdin {
		t.Errorf("entry body %s (%v), want the exec's options", e.Body, err)
	}
	if !strings.Contains(string(es[5].Response), "NonZeroExitCode") {
		t.Errorf("failed exec recorded with response %s, want the NonZeroExitCode status", es[5].Response)
	}
	if a := p.Activity(); a.InFlight != 0 {
		t.Errorf("after the execs: %d in flight, want 0", a.InFlight)
	}
}

// TestExecRefused: an exec the Exec option refuses fails before the
// upgrade with the refusal's status, over each protocol.
func TestExecRefused(t *testing.T) {
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("exec reached the upstream: %s", r.URL) })
	sink := &memSink{}
	p, err := Start(Options{Upstream: f.config(), Mapper: testKinds, Sink: sink,
		Exec: func(e *Exec) (ExecFunc, error) { return nil, ContainerNotFound(e) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	for name, ex := range executors(t, p.RESTConfig(), execURL(p.URL(), "zk-0", "zkCli.sh")) {
		_, _, err := runExecutor(t, ex, "")
		if err == nil || !strings.Contains(err.Error(), `container not found (\"zk\")`) && !strings.Contains(err.Error(), `container not found ("zk")`) {
			t.Errorf("%s: err %v, want container not found", name, err)
		}
	}
	es := sink.await(t, trace.Request, 3) // the fallback does not retry a refusal
	for _, e := range es {
		if e.Verb != "connect" || e.Code != http.StatusInternalServerError || !strings.Contains(string(e.Response), "container not found") {
			t.Errorf("entry %s %d %s, want connect refused with 500", e.Verb, e.Code, e.Response)
		}
	}
}

// TestExecForwarded: with no Exec option an exec goes to the upstream
// with the upstream's credentials, and the two connections are joined: the
// controller gets the upstream's (here a fake kubelet's) answer.
func TestExecForwarded(t *testing.T) {
	var f *fakeAPI
	f = newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		rt, _ := parsePath(r.URL.Path)
		serveExec(w, r, parseExec(rt, r.URL.Query()), shout)
	})
	sink := &memSink{}
	p := startProxy(t, f, Hooks{}, sink)
	for name, ex := range executors(t, p.RESTConfig(), execURL(p.URL(), "zk-0", "zkCli.sh", "ok")) {
		out, _, err := runExecutor(t, ex, "imok")
		if err != nil || out != "IMOK" {
			t.Errorf("%s: stdout %q err %v, want the upstream's IMOK", name, out, err)
		}
	}
	for _, s := range f.seen() {
		if s.Auth != "Bearer upstream-admin" {
			t.Errorf("upstream saw Authorization %q, want the proxy's upstream token", s.Auth)
		}
	}
	for _, e := range sink.await(t, trace.Request, 3) {
		if e.Verb != "connect" || e.Code != http.StatusSwitchingProtocols {
			t.Errorf("entry %s %d, want connect 101", e.Verb, e.Code)
		}
	}
}
