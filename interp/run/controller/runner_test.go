package controller

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// helperEnv makes the test binary act as the in-cluster helper.
const helperEnv = "SIEVE_TEST_INCLUSTER_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(portServerEnv) != "" {
		portServer()
	}
	if os.Getenv(helperEnv) != "" {
		// os.Args: test binary, --dir, DIR, --, ARGV...
		if len(os.Args) < 5 || os.Args[1] != "--dir" || os.Args[3] != "--" {
			fmt.Fprintln(os.Stderr, "helper: bad arguments", os.Args)
			os.Exit(2)
		}
		err := HelperMain(Mounts{ServiceAccount: os.Args[2]}, os.Args[4:])
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// events collects lifecycle entries.
type events struct {
	mu sync.Mutex
	es []trace.Entry
}

func (e *events) Add(en trace.Entry) (int64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.es = append(e.es, en)
	return int64(len(e.es)), nil
}

// await waits up to 10 s for an entry that has; it says whether one came.
func (e *events) await(has func(trace.Entry) bool) bool {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		e.mu.Lock()
		found := slices.ContainsFunc(e.es, has)
		e.mu.Unlock()
		if found {
			return true
		}
	}
	return false
}

func (e *events) whats() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var w []string
	for _, en := range e.es {
		w = append(w, en.What)
	}
	return strings.Join(w, " ")
}

var src = diag.Range{Start: diag.Position{Filename: "spec.sieve", Line: 3, Column: 1}}

func shell(script string, ready *ir.Readiness) *ir.Controller {
	return &ir.Controller{Name: "ctl", Src: src, Command: []string{"sh", "-c", script}, Ready: ready, Namespaces: []string{"default"}}
}

func newRunner(t *testing.T, c *ir.Controller, sink Sink) *Runner {
	t.Helper()
	r, err := New(context.Background(), Options{Controller: c, RunDir: t.TempDir(), Sink: sink, Access: Access{Kubeconfig: "/k"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Stop() })
	return r
}

// TestStartErrors checks the message of each way a start fails.
func TestStartErrors(t *testing.T) {
	quick := &ir.Readiness{LogLine: "^ready$", Timeout: ir.Duration(300 * time.Millisecond)}
	// A program that exits says so however long its readiness bound: a
	// long one keeps a loaded machine's slow start from ending it first.
	long := &ir.Readiness{LogLine: "^ready$", Timeout: ir.Duration(time.Minute)}
	cases := []struct {
		name string
		c    *ir.Controller
		want []string
	}{
		{"exits at once", shell("echo config error; exit 3", nil), []string{"spec.sieve:3:1: controller ctl: exited at once (exit status 3)", "config error"}},
		{"never ready", shell("echo starting; sleep 30", quick), []string{"never became ready within 300ms", "starting"}},
		{"exits before ready", shell("echo bye", long), []string{"exited at once", "bye"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, tc.c, nil)
			err := r.Start(context.Background())
			if err == nil {
				t.Fatal("started")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if r.Running() {
				t.Error("still running after a failed start")
			}
		})
	}
}

func TestCommandNotFound(t *testing.T) {
	c := &ir.Controller{Name: "ctl", Src: src, Command: []string{"./no-such-operator"}}
	_, err := New(context.Background(), Options{Controller: c, RunDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "spec.sieve:3:1: controller ctl: command not found: no-such-operator") {
		t.Fatalf("got %v", err)
	}
}

// TestLifecycle starts a controller that panics later, kills and restarts it.
func TestLifecycle(t *testing.T) {
	ev := &events{}
	c := shell(`echo "kubeconfig=$KUBECONFIG"; echo ready; echo 'panic: boom'; sleep 30`, &ir.Readiness{LogLine: "^ready$", Timeout: ir.Duration(5 * time.Second)})
	r := newRunner(t, c, ev)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(r.Panics()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := r.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Kill(); err != nil {
		t.Fatal(err)
	}
	if got, want := ev.whats(), "start panic kill restart panic kill"; got != want {
		// the second panic may come after the kill
		if got != "start panic kill restart kill" {
			t.Errorf("lifecycle: got %q, want %q", got, want)
		}
	}
	log, _ := os.ReadFile(r.LogPath())
	if !strings.Contains(string(log), "kubeconfig=/k") {
		t.Errorf("KUBECONFIG not passed; log:\n%s", log)
	}
}

func TestHTTPReadiness(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	r := newRunner(t, shell("sleep 30", &ir.Readiness{HTTPGet: srv.URL, Timeout: ir.Duration(5 * time.Second)}), nil)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestBuildCache builds the test controller twice: the second time the
// cached binary is reused, untouched.
func TestBuildCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a client-go binary; skipped in -short mode")
	}
	cache := t.TempDir()
	a, err := Build(context.Background(), ".", "./testdata/echo", cache)
	if err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(a)
	b, err := Build(context.Background(), ".", "./testdata/echo", cache)
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := os.Stat(b)
	if a != b || !st1.ModTime().Equal(st2.ModTime()) || filepath.Base(a) != "echo" {
		t.Errorf("second build: %s (%v), first %s (%v)", b, st2.ModTime(), a, st1.ModTime())
	}
	if _, err := Build(context.Background(), ".", "../../formats/trace", cache); err == nil || !strings.Contains(err.Error(), "not a command") {
		t.Errorf("building a library: %v", err)
	}
}

// TestBuildConcurrent builds one controller from goroutines of one
// process at once, as parallel tests do: each gets the binary, where
// they shared one temporary file and all but one rename failed.
func TestBuildConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a client-go binary; skipped in -short mode")
	}
	cache := t.TempDir()
	errs := make(chan error, 8)
	for range cap(errs) {
		go func() {
			_, err := Build(context.Background(), ".", "./testdata/echo", cache)
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestInClusterFiles runs a shell "controller" in an emulated pod and
// checks what it finds; the host's mounts stay untouched.
func TestInClusterFiles(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("in-cluster emulation needs root (mount namespaces)")
	}
	hostToken := filepath.Join(ServiceAccountDir, "token")
	_, statErr := os.Stat(hostToken)
	sa := ServiceAccountDir
	c := shell(fmt.Sprintf(`echo "token=$(cat %s/token) ns=$(cat %s/namespace) ca=$(head -c 5 %s/ca.crt)"; echo "$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT $POD_NAME $POD_NAMESPACE $WATCH_NAMESPACE $OPERATOR_NAME kc=$KUBECONFIG"; echo "uid=$MY_UID app=$MY_APP"; echo ready; sleep 30`, sa, sa, sa),
		&ir.Readiness{LogLine: "^ready$", Timeout: ir.Duration(5 * time.Second)})
	c.Kubeconfig.InCluster = true
	c.Namespaces = []string{"ops", "apps"}
	c.Pod = &ir.Pod{Labels: map[string]string{"app": "op"}, ServiceAccount: "op-sa",
		FieldEnv: []ir.EnvVar{{Name: "MY_UID", Value: "metadata.uid"}, {Name: "MY_APP", Value: "metadata.labels['app']"}}}
	t.Setenv(helperEnv, "1")
	var pod PodInfo
	r, err := New(context.Background(), Options{
		Controller: c, RunDir: t.TempDir(), Helper: []string{os.Args[0]},
		Access: Access{Host: "127.0.0.1", Port: "6443", Token: "tok", CA: []byte("-----BEGIN")},
		Pod: func(_ context.Context, p PodInfo) (*corev1.Pod, error) {
			pod = p
			obj := newPod(p)
			obj.UID = "u-1"
			return obj, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(r.LogPath())
	for _, want := range []string{"token=tok ns=ops ca=-----", "127.0.0.1:6443 ctl-sieve ops ops,apps ctl kc=\n", "uid=u-1 app=op\n"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if pod.Name != "ctl-sieve" || pod.Namespace != "ops" || pod.ServiceAccount != "op-sa" || pod.Labels["app"] != "op" {
		t.Errorf("pod callback got %+v", pod)
	}
	if _, err := os.Stat(hostToken); (err == nil) != (statErr == nil) {
		t.Errorf("the host's %s changed: before %v, after %v", hostToken, statErr, err)
	}
}

// TestHelperRefusesHostNamespace runs the helper without a private mount
// namespace: it must refuse rather than mount on the host.
func TestHelperRefusesHostNamespace(t *testing.T) {
	err := HelperMain(Mounts{ServiceAccount: t.TempDir()}, []string{"true"})
	if err == nil || !strings.Contains(err.Error(), "not in a private mount namespace") {
		t.Fatalf("got %v", err)
	}
}

// TestLogLimit checks that a controller that writes without pause leaves
// a log of the limit's size: its start, a note of what was dropped, and
// its end.
func TestLogLimit(t *testing.T) {
	c := shell(`echo first; head -c 300000 /dev/zero | tr '\0' x; echo; echo ready; sleep 30`, &ir.Readiness{LogLine: "^ready$", Timeout: ir.Duration(10 * time.Second)})
	r, err := New(context.Background(), Options{Controller: c, RunDir: t.TempDir(), Access: Access{Kubeconfig: "/k"}, LogLimit: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(r.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if len(log) > 4096+300 || !strings.Contains(log, "first\n") || !strings.Contains(log, "\nready\n") ||
		!strings.Contains(log, "bytes dropped here") || !strings.Contains(log, "SIEVE_LOG_LIMIT") ||
		!strings.Contains(log[len(log)-200:], "--- sieve: process") {
		t.Errorf("log of %d bytes (limit 4096):\n%.600s\n...\n%s", len(log), log, log[max(0, len(log)-600):])
	}
}

// TestPauseResume stops a controller that counts into a file, with the
// children it runs (its process group), and lets it go on: paused, the
// count does not move; resumed, it moves again. Pausing or resuming a
// controller that is not running does nothing.
func TestPauseResume(t *testing.T) {
	count := filepath.Join(t.TempDir(), "n")
	r := newRunner(t, shell(`i=0; while :; do i=$((i+1)); echo $i > `+count+`; sleep 0.02; done`, nil), nil)
	if err := r.Pause(); err != nil {
		t.Fatalf("pause before start: %v", err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	read := func() string { b, _ := os.ReadFile(count); return string(b) }
	moves := func() bool {
		before := read()
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if read() != before {
				return true
			}
		}
		return false
	}
	if !moves() {
		t.Fatal("the controller does not count")
	}
	if err := r.Pause(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // a write under way ends
	if moves() {
		t.Fatal("the count moves while paused")
	}
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	if !moves() {
		t.Fatal("the count does not move after resume")
	}
	if err := r.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := r.Kill(); err != nil {
		t.Fatalf("kill while paused: %v", err)
	}
	if err := r.Resume(); err != nil {
		t.Fatalf("resume after the kill: %v", err)
	}
}

// TestTempDirEndsWithController runs a controller that leaves a file in
// its TMPDIR, as a go run stopped by a signal leaves its work directory:
// the directory is its own, not sieve's TMPDIR, and goes when it ends.
func TestTempDirEndsWithController(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	c := shell(`mkdir "$TMPDIR/go-build1" && echo "$TMPDIR" && echo ready; sleep 30`, &ir.Readiness{LogLine: "^ready$", Timeout: ir.Duration(10 * time.Second)})
	r := newRunner(t, c, nil)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "go-build1")); err == nil {
		t.Errorf("the controller's TMPDIR is sieve's")
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("left in sieve's TMPDIR after the controller ended: %v", entries)
	}
}
