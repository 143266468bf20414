package controller

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// TestEndToEnd runs the echo controller through the proxy against the
// embedded control plane, once with a kubeconfig and once as an emulated
// pod speaking protobuf. It checks that the trace holds every request it
// made and every event it received, in order, over one watch.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an embedded control plane; skipped in -short mode")
	}
	cluster := embeddedtest.Start(t, embedded.Options{})
	admin, err := kubernetes.NewForConfig(cluster.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Run("kubeconfig", func(t *testing.T) {
		runEcho(t, cluster, admin, "e2e-kc", ir.Kubeconfig{Flag: "-kubeconfig"}, []string{"-namespace=e2e-kc"})
	})
	t.Run("crash-after-write", func(t *testing.T) {
		crashAfterWrite(t, cluster, admin)
	})
	t.Run("stale-view", func(t *testing.T) {
		staleRestart(t, cluster, admin)
	})
	t.Run("incluster-protobuf", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("in-cluster emulation needs root (mount namespaces)")
		}
		runEcho(t, cluster, admin, "e2e-ic", ir.Kubeconfig{InCluster: true}, []string{"-protobuf"})
		err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, 20*time.Second, true, func(ctx context.Context) (bool, error) {
			pod, err := admin.CoreV1().Pods("e2e-ic").Get(ctx, "echo-sieve", metav1.GetOptions{})
			return err == nil && pod.Status.Phase == corev1.PodRunning && pod.Labels[PodLabel] == "echo", nil
		})
		if err != nil {
			t.Errorf("the emulated pod echo-sieve never ran: %v", err)
		}
	})
}

func runEcho(t *testing.T, cluster *embedded.Cluster, admin kubernetes.Interface, ns string, kc ir.Kubeconfig, args []string) {
	ctx := context.Background()
	if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tw, err := trace.Create(filepath.Join(dir, "trace.jsonl"), trace.Header{Test: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.Start(proxy.Options{Upstream: cluster.RESTConfig(), Sink: tw})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	kcPath := filepath.Join(dir, "kubeconfig")
	if err := p.WriteKubeconfig(kcPath); err != nil {
		t.Fatal(err)
	}
	host, port, _ := strings.Cut(p.Host(), ":")
	c := &ir.Controller{
		Name: "echo", Build: "./testdata/echo", Args: args, Namespaces: []string{ns}, Kubeconfig: kc,
		Ready: &ir.Readiness{LogLine: "^READY$", Timeout: ir.Duration(30 * time.Second)},
	}
	r, err := New(ctx, Options{
		Controller: c, RunDir: dir, Sink: tw, Helper: []string{embeddedtest.Binary(t), "internal", "incluster"}, Pod: CreatePod(admin),
		Access: Access{Kubeconfig: kcPath, Host: host, Port: port, Token: p.Token(), CA: p.CA()},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(r.LogPath())
			t.Logf("controller log:\n%s", b)
		}
	})
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	echoWorkload(t, admin, ns)
	qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := p.WaitQuiet(qctx, 500*time.Millisecond); err != nil {
		t.Fatalf("controller never quiet: %v (%+v)", err, p.Activity())
	}
	if w := p.Activity().Watches; w != 1 {
		t.Errorf("open watches at the end: %d, want 1", w)
	}
	if err := r.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = tw.Close()
	checkTrace(t, filepath.Join(dir, "trace.jsonl"), r.LogPath(), kc.InCluster)
}

// echoWorkload drives the echo controller and waits for its answers.
func echoWorkload(t *testing.T, admin kubernetes.Interface, ns string) {
	ctx := context.Background()
	api := admin.CoreV1().ConfigMaps(ns)
	in := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "in-a"}, Data: map[string]string{"v": "1"}}
	must(t, func() error { _, err := api.Create(ctx, in, metav1.CreateOptions{}); return err })
	waitOut(t, api, "out-a", "1")
	must(t, func() error {
		cur, err := api.Get(ctx, "in-a", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Data["v"] = "2"
		_, err = api.Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	waitOut(t, api, "out-a", "2")
	in.Name, in.ResourceVersion = "in-b", ""
	must(t, func() error { _, err := api.Create(ctx, in, metav1.CreateOptions{}); return err })
	waitOut(t, api, "out-b", "1")
	must(t, func() error { return api.Delete(ctx, "in-a", metav1.DeleteOptions{}) })
	waitOut(t, api, "out-a", "")
}

func must(t *testing.T, f func() error) {
	t.Helper()
	if err := f(); err != nil {
		t.Fatal(err)
	}
}

// waitOut waits until the ConfigMap has data v=want ("" for gone).
func waitOut(t *testing.T, api interface {
	Get(context.Context, string, metav1.GetOptions) (*corev1.ConfigMap, error)
}, name, want string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 20*time.Millisecond, 20*time.Second, true, func(ctx context.Context) (bool, error) {
		cm, err := api.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return want == "", nil
		}
		return err == nil && cm.Data["v"] == want && want != "", nil
	})
	if err != nil {
		t.Fatalf("waiting for %s v=%q: %v", name, want, err)
	}
}

// checkTrace compares the controller's own log of requests and events with
// the proxy's trace.
func checkTrace(t *testing.T, tracePath, logPath string, inCluster bool) {
	tr, err := trace.Read(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	var reqs, writes, events, watches []string
	lifecycle := ""
	for _, e := range tr.Entries {
		switch e.Type {
		case trace.Request:
			verb := e.Verb
			if verb == "list" || verb == "watch" {
				verb = "list-or-watch"
			}
			reqs = append(reqs, fmt.Sprintf("%s %d", verb, e.Code))
			if e.Verb == "create" || e.Verb == "update" || e.Verb == "delete" {
				writes = append(writes, fmt.Sprintf("%s %s %d %s", e.Verb, e.Key.Name, e.Code, nameIn(e.Body)))
			}
			if e.Verb == "watch" {
				watches = append(watches, e.Key.String())
			}
		case trace.Delivery:
			events = append(events, fmt.Sprintf("%s %s %s", e.Event, e.Key.Name, e.ResourceVersion))
		case trace.Controller:
			lifecycle += e.What + " "
		}
	}
	logReqs, logWrites, logEvents, inClusterLine := readEchoLog(t, logPath)
	slices.Sort(reqs)
	slices.Sort(logReqs)
	if !slices.Equal(reqs, logReqs) {
		t.Errorf("requests:\ntrace %v\n  log %v", reqs, logReqs)
	}
	if !slices.Equal(events, logEvents) || len(events) < 6 {
		t.Errorf("events in order:\ntrace %v\n  log %v", events, logEvents)
	}
	wantWrites := []string{"create out-a 201 out-a", "update out-a 200 out-a", "create out-b 201 out-b", "delete out-a 200 "}
	if !slices.Equal(writes, wantWrites) || !slices.Equal(logWrites, []string{"POST 201", "PUT 200", "POST 201", "DELETE 200"}) {
		t.Errorf("writes:\ntrace %v\n  log %v\n want %v", writes, logWrites, wantWrites)
	}
	if len(watches) != 1 {
		t.Errorf("watch requests: %v, want one that lasts the whole run", watches)
	}
	if lifecycle != "start kill " {
		t.Errorf("lifecycle: %q", lifecycle)
	}
	if inCluster != (inClusterLine != "") {
		t.Errorf("in-cluster line %q (in-cluster %v)", inClusterLine, inCluster)
	}
}

func nameIn(body []byte) string {
	i := strings.Index(string(body), `"name":"`)
	if i < 0 {
		return ""
	}
	rest := string(body[i+8:])
	return rest[:strings.IndexByte(rest, '"')]
}

// readEchoLog parses the echo controller's REQ and EVENT lines.
func readEchoLog(t *testing.T, path string) (reqs, writes, events []string, inCluster string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 4 && fields[0] == "REQ":
			reqs = append(reqs, fmt.Sprintf("%s %s", verbOf(fields[1], fields[2]), fields[3]))
			if fields[1] != "GET" {
				writes = append(writes, fields[1]+" "+fields[3])
			}
		case len(fields) == 4 && fields[0] == "EVENT":
			events = append(events, strings.Join(fields[1:], " "))
		case len(fields) > 0 && fields[0] == "IN-CLUSTER":
			inCluster = sc.Text()
		}
	}
	return reqs, writes, events, inCluster
}

// verbOf maps the echo controller's requests to API verbs: it gets and
// writes single ConfigMaps and lists/watches the collection.
func verbOf(method, path string) string {
	named := !strings.HasSuffix(path, "/configmaps")
	switch {
	case method == "GET" && named:
		return "get"
	case method == "GET":
		return "list-or-watch"
	}
	return map[string]string{"POST": "create", "PUT": "update", "DELETE": "delete"}[method]
}

// crashAfterWrite kills the controller from the proxy's After hook once its
// create of out-a has been committed, before the answer reaches it (what
// the injector does for an intermediate-state plan), then restarts it.
func crashAfterWrite(t *testing.T, cluster *embedded.Cluster, admin kubernetes.Interface) {
	ctx := context.Background()
	ns := "e2e-crash"
	if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sink := &events{}
	var r *Runner
	fired := make(chan struct{})
	hooks := proxy.Hooks{After: func(_ context.Context, req *proxy.Request, resp *proxy.Response) error {
		if req.Verb != "create" || req.Key.Name != "out-a" || resp.Code != 201 {
			return nil
		}
		select {
		case <-fired:
			return nil // only the first time
		default:
			close(fired)
		}
		if err := r.Kill(); err != nil {
			t.Errorf("kill: %v", err)
		}
		return proxy.ErrAbort
	}}
	p, err := proxy.Start(proxy.Options{Upstream: cluster.RESTConfig(), Sink: sink, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	kcPath := filepath.Join(dir, "kubeconfig")
	if err := p.WriteKubeconfig(kcPath); err != nil {
		t.Fatal(err)
	}
	c := &ir.Controller{
		Name: "echo", Build: "./testdata/echo", Args: []string{"-namespace=" + ns}, Namespaces: []string{ns},
		Kubeconfig: ir.Kubeconfig{Env: true}, Ready: &ir.Readiness{LogLine: "^READY$", Timeout: ir.Duration(30 * time.Second)},
	}
	r, err = New(ctx, Options{Controller: c, RunDir: dir, Sink: sink, Access: Access{Kubeconfig: kcPath}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	api := admin.CoreV1().ConfigMaps(ns)
	must(t, func() error {
		_, err := api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "in-a"}, Data: map[string]string{"v": "1"}}, metav1.CreateOptions{})
		return err
	})
	waitOut(t, api, "out-a", "1") // persisted...
	select {
	case <-r.Exited(): // ...and the controller died
	case <-time.After(20 * time.Second):
		t.Fatal("the controller is still running")
	}
	log, _ := os.ReadFile(r.LogPath())
	if strings.Contains(string(log), "REQ POST") {
		t.Errorf("the controller got the answer to its create:\n%s", log)
	}
	// The proxy records the aborted create once the hook has returned,
	// which a loaded machine may delay past the controller's death.
	if !sink.await(func(e trace.Entry) bool { return e.Type == trace.Request && e.Verb == "create" }) {
		t.Fatal("the proxy never recorded the aborted create")
	}
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := p.WaitQuiet(qctx, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range sink.es {
		switch {
		case e.Type == trace.Controller:
			got = append(got, e.What)
		case e.Type == trace.Request && e.Verb != "get" && e.Verb != "list" && e.Verb != "watch":
			got = append(got, fmt.Sprintf("%s %s %d answered=%v", e.Verb, e.Key.Name, e.Code, e.Done != nil))
		}
	}
	// The proxy records a request when its answer is written or withheld,
	// so the aborted create follows the kill the hook did.
	want := "start kill create out-a 201 answered=false restart update out-a 200 answered=true"
	if strings.Join(got, " ") != want {
		t.Errorf("trace:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// staleRestart restarts the controller into a view where in-a is frozen at
// an older revision: the real informer (a watch list) rebuilds its cache
// from it and writes the stale value; after Resume it sees the held update.
func staleRestart(t *testing.T, cluster *embedded.Cluster, admin kubernetes.Interface) {
	ctx := context.Background()
	ns := "e2e-stale"
	if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p, err := proxy.Start(proxy.Options{Upstream: cluster.RESTConfig()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	kcPath := filepath.Join(dir, "kubeconfig")
	if err := p.WriteKubeconfig(kcPath); err != nil {
		t.Fatal(err)
	}
	c := &ir.Controller{
		Name: "echo", Build: "./testdata/echo", Args: []string{"-namespace=" + ns}, Namespaces: []string{ns},
		Kubeconfig: ir.Kubeconfig{Env: true}, Ready: &ir.Readiness{LogLine: "^READY$", Timeout: ir.Duration(30 * time.Second)},
	}
	r, err := New(ctx, Options{Controller: c, RunDir: dir, Access: Access{Kubeconfig: kcPath}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	api := admin.CoreV1().ConfigMaps(ns)
	v1, err := api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "in-a"}, Data: map[string]string{"v": "1"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	waitOut(t, api, "out-a", "1")
	v1.Data["v"] = "2"
	if _, err := api.Update(ctx, v1, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitOut(t, api, "out-a", "2")
	scope := proxy.Scope{Kind: "configmap", Namespace: ns, Name: "in-a"}
	if err := p.StaleView(scope, v1.ResourceVersion); err != nil {
		t.Fatal(err)
	}
	if err := r.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	waitOut(t, api, "out-a", "1") // the stale controller wrote the old value back
	deadline := time.Now().Add(10 * time.Second)
	for p.HeldFor(trace.Key{Kind: "configmap", Namespace: ns, Name: "in-a"}) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := p.Resume(scope); n < 1 {
		t.Errorf("resume delivered %d events, want the held update of in-a", n)
	}
	waitOut(t, api, "out-a", "2") // and caught up after Resume
}

// TestBuiltinController runs kube-controller-manager's ReplicaSet
// controller, which nobody here wrote, as the controller under test
// through the proxy: its pod creations are in the trace.
func TestBuiltinController(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an embedded control plane; skipped in -short mode")
	}
	cluster := embeddedtest.Start(t, embedded.Options{Disable: []string{"replicaset"}})
	admin, err := kubernetes.NewForConfig(cluster.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	sink := &events{}
	p, err := proxy.Start(proxy.Options{Upstream: cluster.RESTConfig(), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	kcPath := filepath.Join(dir, "kubeconfig")
	if err := p.WriteKubeconfig(kcPath); err != nil {
		t.Fatal(err)
	}
	c := &ir.Controller{Name: "rs", Builtin: "replicaset", Kubeconfig: ir.Kubeconfig{Env: true}}
	r, err := New(ctx, Options{Controller: c, RunDir: dir, Sink: sink, Access: Access{Kubeconfig: kcPath}, Builtin: cluster.BuiltinCommand, Grace: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	two := int32(2)
	labels := map[string]string{"app": "rs"}
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "rs"},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &two, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
			},
		},
	}
	if _, err := admin.AppsV1().ReplicaSets("default").Create(ctx, rs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		sink.mu.Lock()
		defer sink.mu.Unlock()
		n := 0
		for _, e := range sink.es {
			if e.Type == trace.Request && e.Verb == "create" && e.Key.Kind == "pod" && e.Code == 201 {
				n++
			}
		}
		return n == 2, nil
	})
	if err != nil {
		b, _ := os.ReadFile(r.LogPath())
		t.Fatalf("the ReplicaSet controller never created 2 pods through the proxy: %v\n%s", err, b)
	}
}
