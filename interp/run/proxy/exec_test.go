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

	"github.com/sievetool/sieve/interp/formats/trace"
)

// execURL is the pods/exec URL of a command, as kubectl and client-go
// build it.
func execURL(base, pod string, command ...string) *url.URL {
	return execURLIn(base, pod, "zk", command...)
}

// execURLIn is execURL for a given container ("" for none named).
func execURLIn(base, pod, container string, command ...string) *url.URL {
	u, _ := url.Parse(base + "/api/v1/namespaces/default/pods/" + pod + "/exec")
	q := url.Values{"stdin": {"true"}, "stdout": {"true"}, "stderr": {"true"}}
	if container != "" {
		q.Set("container", container)
	}
	q["command"] = command
	u.RawQuery = q.Encode()
	return u
}

// podsAPI is a fake upstream that knows one pod, default/zk-0, with one
// container, zk; an exec reaching it fails the test.
func podsAPI(t *testing.T) *fakeAPI {
	return newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/exec"):
			t.Errorf("exec reached the upstream: %s", r.URL)
		case r.URL.Path == "/api/v1/namespaces/default/pods/zk-0":
			_, _ = io.WriteString(w, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"zk-0","namespace":"default"},"spec":{"containers":[{"name":"zk"}]}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"zk-9\" not found","reason":"NotFound","code":404}`)
		}
	})
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
// the exec is recorded as a connect request on the pod, with the output.
func TestExecStandIn(t *testing.T) {
	f := podsAPI(t)
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
	if o := e.Output; o == nil || o.Stdout != "RUOK" || o.StdoutBytes != 4 || o.Stderr != "zkCli.sh ok" || o.StderrBytes != 11 {
		t.Errorf("entry output %+v, want the stand-in's stdout and stderr", o)
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
	f := podsAPI(t)
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

// TestExecTarget: before answering, the proxy checks the exec's pod and
// container as the API server does: a missing pod is NotFound, an
// unknown container a BadRequest, and no container names the pod's only
// one.
func TestExecTarget(t *testing.T) {
	sink := &memSink{}
	var asked []string
	p, err := Start(Options{Upstream: podsAPI(t).config(), Mapper: testKinds, Sink: sink,
		Exec: func(e *Exec) (ExecFunc, error) { asked = append(asked, e.Container); return shout, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	for _, c := range []struct{ pod, container, want string }{
		{"zk-9", "zk", `pods "zk-9" not found`},
		{"zk-0", "sidecar", "container sidecar is not valid for pod zk-0"},
		{"zk-0", "", ""},
	} {
		ex := executors(t, p.RESTConfig(), execURLIn(p.URL(), c.pod, c.container, "zkCli.sh", "ok"))["spdy"]
		_, _, err := runExecutor(t, ex, "")
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("exec into %s container %q: %v, want %q", c.pod, c.container, err, c.want)
		}
	}
	if strings.Join(asked, ",") != "zk" {
		t.Errorf("Exec asked about containers %q, want only the defaulted zk", asked)
	}
	es := sink.await(t, trace.Request, 3)
	if es[0].Code != http.StatusNotFound || es[1].Code != http.StatusBadRequest || es[2].Code != http.StatusSwitchingProtocols {
		t.Errorf("recorded codes %d %d %d, want 404 400 101", es[0].Code, es[1].Code, es[2].Code)
	}
}

// TestExecClientGoesAway: an exec the proxy answers itself ends, over each
// protocol, when the controller's client gives up and closes the stream
// (its context ends): the answer's context is cancelled, so a held answer
// (an application fault's hang) is not kept for its bound.
func TestExecClientGoesAway(t *testing.T) {
	f := podsAPI(t)
	ended := make(chan time.Duration, 8)
	hold := func(ctx context.Context, _ *Exec, _ ExecIO) (int, error) {
		start := time.Now()
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Second):
		}
		ended <- time.Since(start)
		return 0, ctx.Err()
	}
	p, err := Start(Options{Upstream: f.config(), Mapper: testKinds, Sink: &memSink{},
		Exec: func(*Exec) (ExecFunc, error) { return hold, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	for name, ex := range executors(t, p.RESTConfig(), execURL(p.URL(), "zk-0", "zkCli.sh", "ok")) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		err := ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
		cancel()
		if err == nil {
			t.Errorf("%s: the exec ended without an error, want the client's deadline", name)
		}
		select {
		case d := <-ended:
			if d > 10*time.Second {
				t.Errorf("%s: the answer was held %s after the client went away", name, d)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("%s: the answer was still held 15s after the client went away", name)
		}
	}
}
