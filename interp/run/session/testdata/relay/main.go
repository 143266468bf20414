// Command relay is a small client-go controller for the pipeline's
// end-to-end tests: for every ConfigMap "in-X" of its namespace it writes
// "out-X" with the same data. It logs, one line each:
//
//	SEND METHOD PATH          before a request leaves
//	RESP METHOD PATH CODE     when its answer arrives
//	EVENT TYPE NAME RV v=V    for every event its informer receives
//	READY                     once its cache has synced
//
// so a test can tell, from the controller's own point of view, which
// answers it got and which states of an object it saw. With
// $SIEVE_TEST_DAEMON_DIR set, it first starts a daemon (setsid) that
// appends a line to DIR/up and runs with DIR in its command line.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	namespace := flag.String("namespace", "default", "namespace to watch")
	flag.Parse()
	if dir := os.Getenv("SIEVE_TEST_DAEMON_DIR"); dir != "" {
		script := fmt.Sprintf(`setsid sh -c 'echo up >> %s/up; sleep 1000; : %s' &`, dir, dir)
		if err := exec.Command("sh", "-c", script).Run(); err != nil {
			fmt.Fprintln(os.Stderr, "relay: daemon:", err)
			os.Exit(1)
		}
	}
	if err := run(os.Getenv("KUBECONFIG"), *namespace); err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		os.Exit(1)
	}
}

// logf prints one log line with one write, so that lines of concurrent
// callers do not mix.
func logf(format string, args ...any) {
	_, _ = os.Stdout.WriteString(fmt.Sprintf(format+"\n", args...))
}

// logRequests logs every request before it leaves and once its answer
// arrived.
type logRequests struct{ rt http.RoundTripper }

func (l logRequests) RoundTrip(r *http.Request) (*http.Response, error) {
	logf("SEND %s %s", r.Method, r.URL.Path)
	resp, err := l.rt.RoundTrip(r)
	if err != nil {
		logf("FAIL %s %s %v", r.Method, r.URL.Path, err)
		return nil, err
	}
	logf("RESP %s %s %d", r.Method, r.URL.Path, resp.StatusCode)
	return resp, nil
}

func run(kubeconfig, ns string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
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
			seen("DELETED", o, nil)
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
	logf("EVENT %s %s %s v=%s", typ, cm.Name, cm.ResourceVersion, cm.Data["v"])
	if work != nil && strings.HasPrefix(cm.Name, "in-") {
		work <- cm
	}
}

// reconcile writes out-X with the data of in-X.
func reconcile(ctx context.Context, cs kubernetes.Interface, in *corev1.ConfigMap) error {
	api := cs.CoreV1().ConfigMaps(in.Namespace)
	name := "out-" + strings.TrimPrefix(in.Name, "in-")
	cur, err := api.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: in.Data}, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	if cur.Data["v"] == in.Data["v"] {
		return nil
	}
	cur.Data = in.Data
	_, err = api.Update(ctx, cur, metav1.UpdateOptions{})
	return err
}
