// Command resyncop is a controller for the pipeline's end-to-end tests of
// convergence: for every ConfigMap "in-X" of its namespace it writes
// "out-X" in two steps, first with in-X's data, then marked done. Its
// quick check, on an event that changes in-X (or its first sight of it),
// looks only at data.v, so a crash between the two writes leaves out-X
// without its mark; its thorough check, at the informer's periodic resync
// (every 30s, or whenever the informer delivers an object again
// unchanged), repairs the mark. With -repair=false the resync does the
// quick check too, and the mark stays missing. It logs READY once its
// cache has synced.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	ns := flag.String("namespace", "e2e", "the namespace to watch")
	repair := flag.Bool("repair", true, "repair out-X's mark at a resync")
	flag.Parse()
	if err := run(os.Getenv("KUBECONFIG"), *ns, *repair); err != nil {
		fmt.Println("resyncop:", err)
		os.Exit(1)
	}
}

func run(kubeconfig, ns string, repair bool) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx := context.Background()
	f := informers.NewSharedInformerFactoryWithOptions(cs, 30*time.Second, informers.WithNamespace(ns))
	inf := f.Core().V1().ConfigMaps().Informer()
	sync := func(obj any, thorough bool) {
		in, ok := obj.(*corev1.ConfigMap)
		if !ok || !strings.HasPrefix(in.Name, "in-") {
			return
		}
		if err := reconcile(ctx, cs, in, thorough); err != nil {
			fmt.Println("reconcile:", err)
		}
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { sync(obj, false) },
		UpdateFunc: func(old, obj any) {
			resync := old.(*corev1.ConfigMap).ResourceVersion == obj.(*corev1.ConfigMap).ResourceVersion
			if resync {
				fmt.Println("RESYNC", obj.(*corev1.ConfigMap).Name)
			}
			sync(obj, resync && repair)
		},
	})
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	fmt.Println("READY")
	<-ctx.Done()
	return nil
}

// reconcile writes out-X for in: created with in's data, then marked
// done. The quick check stops when out-X has in's data.v; the thorough
// one also adds a missing mark.
func reconcile(ctx context.Context, cs kubernetes.Interface, in *corev1.ConfigMap, thorough bool) error {
	api := cs.CoreV1().ConfigMaps(in.Namespace)
	name := "out-" + strings.TrimPrefix(in.Name, "in-")
	out, err := api.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		out = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: in.Namespace}, Data: map[string]string{"v": in.Data["v"]}}
		if out, err = api.Create(ctx, out, metav1.CreateOptions{}); err != nil {
			return err
		}
	} else if err != nil {
		return err
	} else if out.Data["v"] == in.Data["v"] && (!thorough || out.Data["done"] == "true") {
		return nil
	}
	if out.Data == nil {
		out.Data = map[string]string{}
	}
	out.Data["v"], out.Data["done"] = in.Data["v"], "true"
	_, err = api.Update(ctx, out, metav1.UpdateOptions{})
	return err
}
