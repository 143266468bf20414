package embedded_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestReset checks that Reset removes what a plan created — including
// objects held by finalizers and a whole namespace — keeps the system
// objects, returns to a Checkpoint, and leaves a cluster on which the same
// workload runs again.
func TestReset(t *testing.T) {
	c := embeddedtest.Start(t, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()

	kept := createConfigMap(t, client, "default", "kept", nil)
	if err := c.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		ns := createNamespace(t, client, "plan")
		createConfigMap(t, client, ns, "held", []string{"sieve.dev/test-finalizer"})
		createConfigMap(t, client, "default", "extra", nil)
		create(t, func() error {
			_, err := client.AppsV1().StatefulSets(ns).Create(ctx, statefulSet("web", 2), metav1.CreateOptions{})
			return err
		})
		waitFor(t, "2 Ready pods", func() (bool, error) {
			return countPods(ctx, client, ns, "app=web", podReady) == 2, nil
		})
		if err := c.Reset(ctx); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		_, err := client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		assertGone(t, "namespace "+ns, err)
		_, err = client.CoreV1().ConfigMaps("default").Get(ctx, "extra", metav1.GetOptions{})
		assertGone(t, "config map default/extra", err)
		if pvs, err := client.CoreV1().PersistentVolumes().List(ctx, metav1.ListOptions{}); err != nil || len(pvs.Items) != 0 {
			t.Errorf("round %d: persistent volumes left after reset: %v %v", round, len(pvs.Items), err)
		}
	}
	if _, err := client.CoreV1().ConfigMaps("default").Get(ctx, kept.Name, metav1.GetOptions{}); err != nil {
		t.Errorf("object of the checkpoint: %v", err)
	}
	if _, err := client.CoreV1().ServiceAccounts("kube-system").Get(ctx, "default", metav1.GetOptions{}); err != nil {
		t.Errorf("system object: %v", err)
	}
}

func createConfigMap(t *testing.T, client kubernetes.Interface, ns, name string, finalizers []string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Finalizers: finalizers}}
	cm, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

func assertGone(t *testing.T, what string, err error) {
	t.Helper()
	if !apierrors.IsNotFound(err) {
		t.Errorf("after reset: %s: want not found, got %v", what, err)
	}
}
