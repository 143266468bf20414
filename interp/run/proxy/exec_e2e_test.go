package proxy

import (
	"context"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestEmbeddedUpgrades: exec and attach requests into a pod of the
// embedded control plane (simulated by nodesim, no kubelet) pass through
// the proxy to the real API server. Its answer reaches the client
// promptly, and the requests are recorded as connect requests with that
// answer.
func TestEmbeddedUpgrades(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an embedded control plane; skipped in -short mode")
	}
	_, p, sink := startEmbedded(t)
	cs, err := kubernetes.NewForConfig(p.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "zk-0"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "zk", Image: "zookeeper"}}}}
	if _, err := cs.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"exec", "attach"} {
		u := execURL(p.URL(), "zk-0", "zkCli.sh")
		u.Path = "/api/v1/namespaces/default/pods/zk-0/" + sub
		start := time.Now()
		_, _, err := runExecutor(t, executors(t, p.RESTConfig(), u)["spdy"], "")
		t.Logf("%s through the proxy: %v (%.1fs)", sub, err, time.Since(start).Seconds())
		if err == nil {
			t.Errorf("%s into a simulated pod succeeded", sub)
		}
	}
	var got []trace.Entry
	for _, e := range sink.await(t, trace.Request, 1) {
		if e.Verb == "connect" {
			got = append(got, e)
		}
	}
	if len(got) != 2 || got[0].Subresource != "exec" || got[1].Subresource != "attach" {
		t.Fatalf("connect entries %+v, want exec then attach", got)
	}
	for _, e := range got {
		if e.Code == 0 || e.Code == http.StatusSwitchingProtocols || e.Key.String() != "pod/default/zk-0" {
			t.Errorf("%s recorded with code %d on %s, want the API server's refusal on pod/default/zk-0", e.Subresource, e.Code, e.Key)
		}
	}
}
