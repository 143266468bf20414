// Command echo is a small client-go controller for the runner's tests: for
// every ConfigMap "in-X" in its namespace it writes "out-X" with the same
// data, and deletes "out-X" when "in-X" goes. It logs each request it made
// (after the answer came) as "REQ METHOD PATH CODE" and each event its
// informer received as "EVENT TYPE NAME RV", so a test can compare them
// with the proxy's trace.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default: KUBECONFIG, then in-cluster)")
	protobuf := flag.Bool("protobuf", false, "talk protobuf to the API server")
	namespace := flag.String("namespace", "default", "namespace to watch (in-cluster: the pod's)")
	flag.Parse()
	if err := run(*kubeconfig, *namespace, *protobuf); err != nil {
		fmt.Fprintln(os.Stderr, "echo:", err)
		os.Exit(1)
	}
}

// logf prints one log line; a line is written with one call, so lines of
// concurrent callers do not mix.
func logf(format string, args ...any) {
	_, _ = os.Stdout.WriteString(fmt.Sprintf(format+"\n", args...))
}

func config(kubeconfig, namespace string) (*rest.Config, string, error) {
	if kubeconfig == "" {
		kubeconfig = os.Getenv("KUBECONFIG")
	}
	if kubeconfig != "" {
		cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		return cfg, namespace, err
	}
	cfg, err := rest.InClusterConfig()
	if err != nil {
		return nil, "", err
	}
	ns, err := os.ReadFile("/var/run/secrets/kubernetes.io/serviceaccount/namespace")
	if err != nil {
		return nil, "", err
	}
	logf("IN-CLUSTER namespace=%s pod=%s host=%s", ns, os.Getenv("POD_NAME"), cfg.Host)
	return cfg, strings.TrimSpace(string(ns)), nil
}

// logRequests logs every request once its answer arrived.
type logRequests struct{ rt http.RoundTripper }

func (l logRequests) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(r)
	if err == nil {
		logf("REQ %s %s %d %s", r.Method, r.URL.Path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return resp, err
}

func run(kubeconfig, namespace string, protobuf bool) error {
	cfg, ns, err := config(kubeconfig, namespace)
	if err != nil {
		return err
	}
	if protobuf {
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
	}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return logRequests{rt} })
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx := context.Background()
	f := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	inf := f.Core().V1().ConfigMaps().Informer()
	work := make(chan *corev1.ConfigMap, 100)
	_, err = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { seen("ADDED", o, work) },
		UpdateFunc: func(_, o any) { seen("MODIFIED", o, work) },
		DeleteFunc: func(o any) {
			if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
				o = d.Obj
			}
			seen("DELETED", o, work)
		},
	})
	if err != nil {
		return err
	}
	f.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		return fmt.Errorf("cache never synced")
	}
	logf("READY")
	for cm := range work {
		if err := reconcile(ctx, cs, cm); err != nil {
			logf("ERROR %v", err)
		}
	}
	return nil
}

func seen(typ string, o any, work chan<- *corev1.ConfigMap) {
	cm, ok := o.(*corev1.ConfigMap)
	if !ok {
		return
	}
	logf("EVENT %s %s %s", typ, cm.Name, cm.ResourceVersion)
	if strings.HasPrefix(cm.Name, "in-") {
		if typ == "DELETED" {
			cm = cm.DeepCopy()
			cm.Data = nil
			cm.Annotations = map[string]string{"deleted": "true"}
		}
		work <- cm
	}
}

// reconcile writes out-X for in-X, or deletes it.
func reconcile(ctx context.Context, cs kubernetes.Interface, in *corev1.ConfigMap) error {
	api := cs.CoreV1().ConfigMaps(in.Namespace)
	name := "out-" + strings.TrimPrefix(in.Name, "in-")
	if in.Annotations["deleted"] == "true" {
		err := api.Delete(ctx, name, metav1.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	cur, err := api.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: in.Data}, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	cur.Data = in.Data
	_, err = api.Update(ctx, cur, metav1.UpdateOptions{})
	return err
}
