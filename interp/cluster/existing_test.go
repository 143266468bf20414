package cluster_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/internal/runlabel"
)

// TestExistingTouchesOnlyWhatItCreated runs the kubeconfig backend against
// an embedded control plane standing in for someone's cluster: sieve claims
// a namespace it creates, refuses one it did not create, and its reset and
// stop delete its own namespace and nothing else.
func TestExistingTouchesOnlyWhatItCreated(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a control plane")
	}
	t.Parallel() // its own control plane, beside the other test's
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
	if err != nil || ns.Labels[runlabel.Key] != "run-1" {
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

// TestExistingRunIDsDiffer makes two backends in one process, as two runs
// in containers that both have PID 1 would: their run IDs differ.
func TestExistingRunIDsDiffer(t *testing.T) {
	a := cluster.NewExisting(cluster.ExistingOptions{Path: "kubeconfig"})
	b := cluster.NewExisting(cluster.ExistingOptions{Path: "kubeconfig"})
	if a.RunID() == b.RunID() {
		t.Errorf("two runs share the run ID %s", a.RunID())
	}
	if !regexp.MustCompile(`^sieve-[0-9a-f]{8}$`).MatchString(a.RunID()) {
		t.Errorf("run ID %q, want sieve- and 8 hex digits", a.RunID())
	}
}

// TestExistingRunsKeepApart runs two backends on one cluster with the
// default run IDs: one's reset leaves the other's namespace, and neither
// can claim the other's.
func TestExistingRunsKeepApart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a control plane")
	}
	t.Parallel() // its own control plane, beside the other test's
	ctx := context.Background()
	c := embeddedtest.Start(t, embedded.Options{})
	a := cluster.NewExisting(cluster.ExistingOptions{Path: c.Kubeconfig()})
	b := cluster.NewExisting(cluster.ExistingOptions{Path: c.Kubeconfig()})
	for _, e := range []*cluster.Existing{a, b} {
		if err := e.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.Stop() })
	}
	if err := a.Claim(ctx, []string{"run-a"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Claim(ctx, []string{"run-b"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Claim(ctx, []string{"run-a"}); err == nil {
		t.Error("one run claimed the namespace of another")
	}
	if err := a.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	admin := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ns, err := admin.CoreV1().Namespaces().Get(ctx, "run-b", metav1.GetOptions{})
	if err != nil || ns.DeletionTimestamp != nil {
		t.Errorf("one run's reset deleted another's namespace: %v", err)
	}
	if _, err := admin.CoreV1().Namespaces().Get(ctx, "run-a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the run's own namespace after its reset: %v", err)
	}
}
