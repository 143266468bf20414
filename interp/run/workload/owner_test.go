package workload

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

// obj is an object of kind in namespace ns (cluster-scoped if empty) with
// the given labels.
func obj(kind, ns, name string, labels map[string]string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": kind}}
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetLabels(labels)
	return u
}

// TestHistoryLeavesOutWhatIsNotTheRuns feeds the history of run r1 the
// objects of an existing cluster. Its own namespace and what is in it
// stay. The cluster's namespaces, the objects in them and another run's
// objects go, whether the namespace was seen first or not.
func TestHistoryLeavesOutWhatIsNotTheRuns(t *testing.T) {
	mine := map[string]string{"sieve.dev/run": "r1"}
	theirs := map[string]string{"sieve.dev/run": "r2"}
	dyn := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(),
		obj("Namespace", "", "late", mine), obj("Namespace", "", "other", theirs))
	h := &History{Owner: &Owner{Key: "sieve.dev/run", Value: "r1"}, dyn: dyn, ctx: context.Background(), owned: map[string]bool{}}
	for _, c := range []struct {
		kind string
		o    *unstructured.Unstructured
		want bool
	}{
		{"namespace", obj("Namespace", "", "own", mine), false},
		{"namespace", obj("Namespace", "", "prod", nil), true},
		{"configmap", obj("ConfigMap", "own", "a", nil), false},
		{"configmap", obj("ConfigMap", "prod", "important", nil), true},
		{"configmap", obj("ConfigMap", "late", "b", nil), false}, // its namespace not seen yet
		{"configmap", obj("ConfigMap", "other", "c", nil), true},
		{"configmap", obj("ConfigMap", "gone", "d", nil), true},
		{"customresourcedefinition", obj("CustomResourceDefinition", "", "x.example.com", theirs), true},
		{"customresourcedefinition", obj("CustomResourceDefinition", "", "y.example.com", mine), false},
		{"node", obj("Node", "", "n1", nil), false},
	} {
		if got := h.foreign(c.kind, c.o); got != c.want {
			t.Errorf("%s %s/%s: left out %v, want %v", c.kind, c.o.GetNamespace(), c.o.GetName(), got, c.want)
		}
	}
	h.Owner = nil
	if h.foreign("configmap", obj("ConfigMap", "prod", "important", nil)) {
		t.Error("with no Owner, the history left an object out")
	}
}
