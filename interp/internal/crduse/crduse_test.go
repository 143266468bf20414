package crduse

import (
	"context"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/sievetool/sieve/interp/internal/runlabel"
)

var crds = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// crd is CRD name with the given run label ("" for none) and users.
func crd(name, label string, users ...string) *unstructured.Unstructured {
	o := &unstructured.Unstructured{}
	o.SetAPIVersion("apiextensions.k8s.io/v1")
	o.SetKind("CustomResourceDefinition")
	o.SetName(name)
	o.SetResourceVersion("1")
	if label != "" {
		o.SetLabels(map[string]string{runlabel.Key: label})
	}
	if len(users) > 0 {
		setUsers(o, users)
	}
	return o
}

func fakeCRDs(objs ...runtime.Object) dynamic.ResourceInterface {
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{crds: "CustomResourceDefinitionList"}, objs...)
	return dyn.Resource(crds)
}

// users returns the users CRD name records, and whether it exists.
func users(t *testing.T, ri dynamic.ResourceInterface, name string) ([]string, bool) {
	t.Helper()
	o, err := ri.Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return Users(o), true
}

// TestJoinThenRelease: run b joins the CRD run a created; a's release
// leaves it to b, b's deletes it. A CRD the run labelled and records no
// user of (a workload step applied it) goes with the run; the cluster's
// own CRD and another run's are left alone.
func TestJoinThenRelease(t *testing.T) {
	ctx := context.Background()
	ri := fakeCRDs(crd("gadgets.x", "run-a", "run-a"), crd("applied.x", "run-a"), crd("theirs.x", ""), crd("others.x", "run-c", "run-c"))
	cur, err := ri.Get(ctx, "gadgets.x", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Join(ctx, ri, cur, "run-b"); err != nil {
		t.Fatal(err)
	}
	if u, _ := users(t, ri, "gadgets.x"); !slices.Equal(u, []string{"run-a", "run-b"}) {
		t.Fatalf("users after b joined: %v", u)
	}
	deleted, err := Release(ctx, ri, "run-a")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(deleted, []string{"applied.x"}) {
		t.Errorf("a's release deleted %v, want only applied.x (b still uses gadgets.x)", deleted)
	}
	if u, ok := users(t, ri, "gadgets.x"); !ok || !slices.Equal(u, []string{"run-b"}) {
		t.Fatalf("after a's release: exists %v, users %v; want it kept for run-b", ok, u)
	}
	if deleted, err = Release(ctx, ri, "run-b"); err != nil || !slices.Equal(deleted, []string{"gadgets.x"}) {
		t.Errorf("b's release deleted %v (%v), want gadgets.x: b was its last user", deleted, err)
	}
	for _, name := range []string{"theirs.x", "others.x"} {
		if _, ok := users(t, ri, name); !ok {
			t.Errorf("%s, which neither run created nor used, is gone", name)
		}
	}
}
