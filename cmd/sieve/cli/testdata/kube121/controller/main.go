// Command pdbctl is the controller of the Kubernetes 1.21 end-to-end test
// (TestRunOnKubernetes121): for every ConfigMap of the default namespace
// labelled pdb=yes it makes a policy/v1beta1 PodDisruptionBudget of the
// same name, as operators written before policy/v1 did. Kubernetes 1.25
// and later refuse such a request; 1.21 serves it.
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

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

var pdbs = schema.GroupVersionResource{Group: "policy", Version: "v1beta1", Resource: "poddisruptionbudgets"}

func main() {
	kubeconfig := flag.String("kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig `PATH`")
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pdbctl:", err)
		os.Exit(1)
	}
	cs, dyn := kubernetes.NewForConfigOrDie(cfg), dynamic.NewForConfigOrDie(cfg)
	ctx := context.Background()
	fmt.Fprintln(os.Stderr, "pdbctl: started")
	for {
		w, err := cs.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{LabelSelector: "pdb=yes"})
		if err != nil {
			fmt.Fprintln(os.Stderr, "pdbctl: watch:", err)
			time.Sleep(time.Second)
			continue
		}
		for ev := range w.ResultChan() {
			if cm, ok := ev.Object.(*corev1.ConfigMap); ok && ev.Type == watch.Added {
				if err := ensure(ctx, dyn, cm.Name); err != nil {
					fmt.Fprintln(os.Stderr, "pdbctl:", err)
				}
			}
		}
	}
}

// ensure makes the PodDisruptionBudget name unless it exists.
func ensure(ctx context.Context, dyn dynamic.Interface, name string) error {
	pdb := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"minAvailable": int64(1), "selector": map[string]any{"matchLabels": map[string]any{"app": name}}},
	}}
	_, err := dyn.Resource(pdbs).Namespace("default").Create(ctx, pdb, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}
