package embedded_test

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestKubernetes121 starts the embedded control plane with the API server,
// controller manager and scheduler of Kubernetes 1.21. It uses what only
// that line serves: a policy/v1beta1 PodDisruptionBudget and an
// apiextensions.k8s.io/v1beta1 CustomResourceDefinition. The workloads'
// controllers run (a ReplicaSet gets its pods), and Reset removes what
// was made.
func TestKubernetes121(t *testing.T) {
	embeddedtest.NeedKubernetes121(t)
	c := embeddedtest.Start(t, embedded.Options{Kubernetes: "1.21"})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	dyn := dynamic.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()
	v, err := client.Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v.GitVersion, "v1.21.") {
		t.Fatalf("API server version %s, want v1.21.x", v.GitVersion)
	}
	t.Logf("API server %s", v.GitVersion)

	pdbs := dyn.Resource(schema.GroupVersionResource{Group: "policy", Version: "v1beta1", Resource: "poddisruptionbudgets"}).Namespace("default")
	pdb := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
		"metadata": map[string]any{"name": "web"},
		"spec":     map[string]any{"minAvailable": int64(1), "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}},
	}}
	if _, err := pdbs.Create(ctx, pdb, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating a policy/v1beta1 PodDisruptionBudget: %v", err)
	}
	crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1beta1", Resource: "customresourcedefinitions"})
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "olds.example.com"},
		"spec": map[string]any{
			"group": "example.com", "version": "v1", "scope": "Namespaced",
			"names": map[string]any{"plural": "olds", "singular": "old", "kind": "Old"},
		},
	}}
	if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating an apiextensions.k8s.io/v1beta1 CustomResourceDefinition: %v", err)
	}
	create(t, func() error {
		_, err := client.AppsV1().ReplicaSets("default").Create(ctx, replicaSet("web", 2), metav1.CreateOptions{})
		return err
	})
	waitFor(t, "the ReplicaSet's 2 Running and Ready pods", func() (bool, error) {
		return countPods(ctx, client, "default", "app=web", podReady) == 2, nil
	})
	waitFor(t, "the PodDisruptionBudget's status from the disruption controller", func() (bool, error) {
		got, err := pdbs.Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		n, _, _ := unstructured.NestedInt64(got.Object, "status", "currentHealthy")
		return n == 2, nil
	})

	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := pdbs.Get(ctx, "web", metav1.GetOptions{}); err == nil {
		t.Error("the PodDisruptionBudget is still there after Reset")
	}
	waitFor(t, "Reset to remove the ReplicaSet's pods", func() (bool, error) {
		return countPods(ctx, client, "default", "app=web", anyPod) == 0, nil
	})
}

func replicaSet(name string, replicas int32) *appsv1.ReplicaSet {
	labels := map[string]string{"app": name}
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}
}
