// Command pdbctl is the controller of the Kubernetes 1.21 end-to-end test
// (TestRunOnKubernetes121): it watches the WebApp custom resources of the
// default namespace (a CRD written as apiextensions.k8s.io/v1beta1) and,
// for each, makes a policy/v1beta1 PodDisruptionBudget of the same name
// and records its name in the WebApp's status, as operators written
// before policy/v1 did. Kubernetes 1.25 and later refuse the PDB; 1.21
// serves it.
//
// Usage:
//
//	pdbctl [--kubeconfig PATH]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

var (
	pdbs    = schema.GroupVersionResource{Group: "policy", Version: "v1beta1", Resource: "poddisruptionbudgets"}
	webapps = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "webapps"}
)

func main() {
	kubeconfig := flag.String("kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig `PATH`")
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pdbctl:", err)
		os.Exit(1)
	}
	dyn := dynamic.NewForConfigOrDie(cfg)
	ctx := context.Background()
	fmt.Fprintln(os.Stderr, "pdbctl: started")
	for {
		w, err := dyn.Resource(webapps).Namespace("default").Watch(ctx, metav1.ListOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "pdbctl: watch:", err)
			time.Sleep(time.Second)
			continue
		}
		for ev := range w.ResultChan() {
			app, ok := ev.Object.(*unstructured.Unstructured)
			if !ok || (ev.Type != watch.Added && ev.Type != watch.Modified) {
				continue
			}
			if err := reconcile(ctx, dyn, app); err != nil {
				fmt.Fprintln(os.Stderr, "pdbctl:", err)
			}
		}
	}
}

// reconcile makes the WebApp's PodDisruptionBudget unless it exists, and
// names it in the WebApp's status.
func reconcile(ctx context.Context, dyn dynamic.Interface, app *unstructured.Unstructured) error {
	name := app.GetName()
	pdb := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"minAvailable": int64(1), "selector": map[string]any{"matchLabels": map[string]any{"app": name}}},
	}}
	_, err := dyn.Resource(pdbs).Namespace("default").Create(ctx, pdb, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	if got, _, _ := unstructured.NestedString(app.Object, "status", "pdb"); got == name {
		return nil
	}
	if err := unstructured.SetNestedField(app.Object, name, "status", "pdb"); err != nil {
		return err
	}
	_, err = dyn.Resource(webapps).Namespace("default").UpdateStatus(ctx, app, metav1.UpdateOptions{})
	return err
}
