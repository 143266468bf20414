package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// startEmbedded starts an embedded control plane and a recording proxy in
// front of it.
func startEmbedded(t testing.TB) (*embedded.Cluster, *Proxy, *memSink) {
	t.Helper()
	// No deployment controller: it would race the test's scale and status
	// updates and make the recorded requests vary.
	cluster := embeddedtest.Start(t, embedded.Options{Disable: []string{"deployment"}})
	sink := &memSink{}
	p, err := Start(Options{Upstream: cluster.RESTConfig(), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return cluster, p, sink
}

// TestEmbedded drives every verb, core/apps/custom resources, the status
// and scale subresources, server-side apply and a watch list through the
// proxy with a protobuf client, and holds the recorded requests equal to
// testdata/embedded.txtar. It then checks a stale view on the real server.
func TestEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an embedded control plane; skipped in -short mode")
	}
	cluster, p, sink := startEmbedded(t)
	cfg := p.RESTConfig()
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ns := "px"
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	_, err = cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	step("create namespace", err)
	watchList(t, cs, ns)
	coreVerbs(t, cs, ns, step)
	appsVerbs(t, cs, ns, step)
	customVerbs(t, cluster.RESTConfig(), cfg, ns, step)
	// An answer reaches the client just before its request's trace entry
	// is written: wait until no request is in flight.
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	step("wait for the proxy to be quiet", p.WaitQuiet(qctx, time.Millisecond))
	var got strings.Builder
	for _, e := range sink.entries() {
		if e.Type == trace.Request && e.Key.Namespace == ns || e.Type == trace.Request && e.Key.Kind == "namespace" {
			fmt.Fprintf(&got, "%s %s sub=%s %d body=%v response=%s\n", e.Verb, e.Key, e.Subresource, e.Code, len(e.Body) > 0 && e.Body[0] == '{', kindOf(e.Response))
		}
	}
	path := "testdata/embedded.txtar"
	golden.Check(t, path, mustParse(t, path), map[string][]byte{"requests": []byte(got.String())})
	staleOnServer(t, cs, p, ns)
}

// kindOf returns the kind of a recorded JSON answer, "-" when there is
// none (a list or a watch, not recorded).
func kindOf(resp json.RawMessage) string {
	var o struct{ Kind string }
	if len(resp) == 0 || json.Unmarshal(resp, &o) != nil {
		return "-"
	}
	return o.Kind
}

// watchList opens a watch list (initial events, bookmark) and checks that
// the initial events and the end bookmark come through.
func watchList(t *testing.T, cs kubernetes.Interface, ns string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "w0"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	w, err := cs.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{
		SendInitialEvents: &yes, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var seen []string
	for ev := range w.ResultChan() {
		m, _ := ev.Object.(metav1.Object)
		seen = append(seen, string(ev.Type)+" "+m.GetName())
		if ev.Type == watch.Bookmark && m.GetAnnotations()["k8s.io/initial-events-end"] == "true" {
			break
		}
	}
	if !contains(seen, "ADDED w0") || !contains(seen, "BOOKMARK ") {
		t.Errorf("watch list through the proxy: %v", seen)
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

func coreVerbs(t *testing.T, cs kubernetes.Interface, ns string, step func(string, error)) {
	ctx := context.Background()
	api := cs.CoreV1().ConfigMaps(ns)
	cm, err := api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c1"}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{})
	step("create", err)
	cm.Data["a"] = "2"
	_, err = api.Update(ctx, cm, metav1.UpdateOptions{})
	step("update", err)
	_, err = api.Patch(ctx, "c1", types.MergePatchType, []byte(`{"data":{"b":"3"}}`), metav1.PatchOptions{})
	step("merge patch", err)
	_, err = api.Apply(ctx, corev1ac.ConfigMap("c2", ns).WithData(map[string]string{"x": "y"}), metav1.ApplyOptions{FieldManager: "sieve-test"})
	step("server-side apply", err)
	got, err := api.Get(ctx, "c1", metav1.GetOptions{})
	step("get", err)
	if got.Data["a"] != "2" || got.Data["b"] != "3" {
		t.Errorf("get after update and patch: %v", got.Data)
	}
	l, err := api.List(ctx, metav1.ListOptions{})
	step("list", err)
	if len(l.Items) < 3 {
		t.Errorf("list: %d items", len(l.Items))
	}
	step("delete", api.Delete(ctx, "c1", metav1.DeleteOptions{}))
	step("deletecollection", api.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "none=none"}))
}

func appsVerbs(t *testing.T, cs kubernetes.Interface, ns string, step func(string, error)) {
	ctx := context.Background()
	one := int32(1)
	labels := map[string]string{"app": "d"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "d"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
			},
		},
	}
	api := cs.AppsV1().Deployments(ns)
	_, err := api.Create(ctx, d, metav1.CreateOptions{})
	step("create deployment", err)
	sc, err := api.GetScale(ctx, "d", metav1.GetOptions{})
	step("get scale", err)
	sc.Spec.Replicas = 2
	_, err = api.UpdateScale(ctx, "d", &autoscalingv1.Scale{ObjectMeta: sc.ObjectMeta, Spec: sc.Spec}, metav1.UpdateOptions{})
	step("update scale", err)
	cur, err := api.Get(ctx, "d", metav1.GetOptions{})
	step("get deployment", err)
	cur.Status.ObservedGeneration = cur.Generation
	_, err = api.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
	step("update status", err)
}

func customVerbs(t *testing.T, admin, through *rest.Config, ns string, step func(string, error)) {
	ctx := context.Background()
	crdGVR := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	adm := dynamic.NewForConfigOrDie(admin)
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "datastores.example.com"},
		"spec": map[string]any{
			"group": "example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "datastores", "singular": "datastore", "kind": "DataStore", "listKind": "DataStoreList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema":       map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
			}},
		},
	}}
	_, err := adm.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{})
	step("create crd", err)
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "datastores"}
	dyn := dynamic.NewForConfigOrDie(through)
	cr := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "DataStore", "metadata": map[string]any{"name": "ds"}, "spec": map[string]any{"replicas": int64(3)},
	}}
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 20*time.Second, true, func(ctx context.Context) (bool, error) {
		_, err := adm.Resource(gvr).Namespace(ns).List(ctx, metav1.ListOptions{})
		return err == nil, nil // served (directly, so the recorded requests stay the same)
	})
	step("wait for the crd", err)
	_, err = dyn.Resource(gvr).Namespace(ns).Create(ctx, cr, metav1.CreateOptions{})
	step("create custom resource", err)
	cur, err := dyn.Resource(gvr).Namespace(ns).Get(ctx, "ds", metav1.GetOptions{})
	step("get custom resource", err)
	_ = unstructured.SetNestedField(cur.Object, "ready", "status", "phase")
	_, err = dyn.Resource(gvr).Namespace(ns).UpdateStatus(ctx, cur, metav1.UpdateOptions{})
	step("update custom resource status", err)
}

// staleOnServer freezes a ConfigMap at an older revision on the real API
// server: gets, lists and a watch list see the old state until Resume.
func staleOnServer(t *testing.T, cs kubernetes.Interface, p *Proxy, ns string) {
	ctx := context.Background()
	api := cs.CoreV1().ConfigMaps(ns)
	old, err := api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "st"}, Data: map[string]string{"v": "old"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	old.Data["v"] = "new"
	if _, err := api.Update(ctx, old, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	scope := Scope{Kind: "configmap", Namespace: ns, Name: "st"}
	if err := p.StaleView(scope, old.ResourceVersion); err != nil {
		t.Fatal(err)
	}
	got, err := api.Get(ctx, "st", metav1.GetOptions{})
	if err != nil || got.Data["v"] != "old" || got.ResourceVersion != old.ResourceVersion {
		t.Fatalf("stale get: %v %v", got, err)
	}
	yes := true
	w, err := api.Watch(ctx, metav1.ListOptions{SendInitialEvents: &yes, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	v := nextValue(t, w, "st")
	if v != "old" {
		t.Errorf("stale watch list: st has v=%s, want old", v)
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.HeldFor(trace.Key{Kind: "configmap", Namespace: ns, Name: "st"}) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the update after the stale revision is on its way
	}
	if n := p.Resume(scope); n < 1 {
		t.Errorf("resume released %d events, want the held update", n)
	}
	if v := nextValue(t, w, "st"); v != "new" {
		t.Errorf("after resume: st has v=%s, want new", v)
	}
	got, err = api.Get(ctx, "st", metav1.GetOptions{})
	if err != nil || got.Data["v"] != "new" {
		t.Errorf("get after resume: %v %v", got, err)
	}
}

// nextValue returns data.v of the next event for the named ConfigMap.
func nextValue(t *testing.T, w watch.Interface, name string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-w.ResultChan():
			if cm, ok := ev.Object.(*corev1.ConfigMap); ok && cm.Name == name {
				return cm.Data["v"]
			}
		case <-timeout:
			t.Fatal("no event")
			return ""
		}
	}
}

// BenchmarkOverhead runs the same small workload (create, get, update,
// list, delete a ConfigMap) directly against the embedded API server and
// through the proxy, alternating, and reports both and their ratio. The
// client is client-go's, which asks for protobuf. http1-hooked has an
// After hook, as a plan run's injector: the proxy decodes each answer to
// JSON before it leaves.
func BenchmarkOverhead(b *testing.B) {
	cluster := embeddedtest.Start(b, embedded.Options{})
	direct, err := kubernetes.NewForConfig(qps(cluster.RESTConfig()))
	if err != nil {
		b.Fatal(err)
	}
	_, err = direct.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "bench"}}, metav1.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("http1", func(b *testing.B) { benchOverhead(b, cluster, direct, Options{}) })
	b.Run("http2", func(b *testing.B) { benchOverhead(b, cluster, direct, Options{HTTP2: true}) })
	b.Run("http1-hooked", func(b *testing.B) {
		after := func(context.Context, *Request, *Response) error { return nil } // decoded for it all the same
		benchOverhead(b, cluster, direct, Options{Hooks: Hooks{After: after}})
	})
	b.Run("http1-tracefile", func(b *testing.B) {
		tw, err := trace.Create(b.TempDir()+"/trace.jsonl", trace.Header{Test: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		defer tw.Close()
		benchOverhead(b, cluster, direct, Options{Sink: tw})
	})
}

func benchOverhead(b *testing.B, cluster *embedded.Cluster, direct kubernetes.Interface, opts Options) {
	opts.Upstream = cluster.RESTConfig()
	if opts.Sink == nil {
		opts.Sink = &memSink{}
	}
	p, err := Start(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	through, err := kubernetes.NewForConfig(qps(p.RESTConfig()))
	if err != nil {
		b.Fatal(err)
	}
	workload(b, direct, "warm-d")
	workload(b, through, "warm-p")
	var td, tp time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := time.Now()
		workload(b, direct, fmt.Sprintf("d%d-%d", b.N, i))
		td += time.Since(s)
		s = time.Now()
		workload(b, through, fmt.Sprintf("p%d-%d", b.N, i))
		tp += time.Since(s)
	}
	b.ReportMetric(float64(td.Nanoseconds())/float64(b.N), "direct-ns/workload")
	b.ReportMetric(float64(tp.Nanoseconds())/float64(b.N), "proxy-ns/workload")
	b.ReportMetric(float64(tp)/float64(td), "proxy/direct")
}

func qps(c *rest.Config) *rest.Config {
	c.QPS, c.Burst = 10000, 10000
	return c
}

func workload(b *testing.B, cs kubernetes.Interface, name string) {
	ctx := context.Background()
	api := cs.CoreV1().ConfigMaps("bench")
	cm, err := api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{})
	if err == nil {
		cm, err = api.Get(ctx, name, metav1.GetOptions{})
	}
	if err == nil {
		cm.Data["a"] = "2"
		_, err = api.Update(ctx, cm, metav1.UpdateOptions{})
	}
	if err == nil {
		_, err = api.List(ctx, metav1.ListOptions{Limit: 10})
	}
	if err == nil {
		err = api.Delete(ctx, name, metav1.DeleteOptions{})
	}
	if err != nil {
		b.Fatal(err)
	}
}
