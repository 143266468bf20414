package cluster_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestExistingTouchesOnlyWhatItCreated runs the kubeconfig backend against
// an embedded control plane standing in for someone's cluster: sieve claims
// a namespace it creates, refuses one it did not create, and its reset and
// stop delete its own namespace and nothing else.
func TestExistingTouchesOnlyWhatItCreated(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a control plane")
	}
	ctx := context.Background()
	c := embeddedtest.Start(t, embedded.Options{})
	admin, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	theirs := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "theirs"}}
	if _, err := admin.CoreV1().Namespaces().Create(ctx, theirs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	e := cluster.NewExisting(cluster.ExistingOptions{Path: c.Kubeconfig(), RunID: "run-1"})
	if err := e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	err = e.Claim(ctx, []string{"theirs"})
	if err == nil || !strings.Contains(err.Error(), "did not create") {
		t.Fatalf("claiming a namespace sieve did not create: %v", err)
	}
	if err := e.Claim(ctx, []string{"mine"}); err != nil {
		t.Fatal(err)
	}
	ns, err := admin.CoreV1().Namespaces().Get(ctx, "mine", metav1.GetOptions{})
	if err != nil || ns.Labels[cluster.OwnerLabel] != "run-1" {
		t.Fatalf("claimed namespace: %v, labels %v", err, ns.Labels)
	}
	if err := e.Claim(ctx, []string{"mine"}); err != nil {
		t.Errorf("claiming its own namespace again: %v", err)
	}
	if err := e.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.CoreV1().Namespaces().Get(ctx, "mine", metav1.GetOptions{}); err == nil {
		t.Error("sieve's namespace survived Stop")
	} else if !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	if _, err := admin.CoreV1().Namespaces().Get(ctx, "theirs", metav1.GetOptions{}); err != nil {
		t.Errorf("a namespace sieve did not create is gone: %v", err)
	}
}
