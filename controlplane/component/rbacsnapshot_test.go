package component

import (
	"context"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// TestRBACSnapshot reconciles the bootstrap policy into an empty
// clientset, then again through a snapshot: with every object in place it
// lists each kind and gets none, and an object deleted meanwhile is got
// from the API and created again.
func TestRBACSnapshot(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset()
	policy := bootstrapPolicy()
	if done, err := ensureRBACPolicy(policy, client); !done || err != nil {
		t.Fatalf("first reconciliation: done %v, %v", done, err)
	}
	for _, deleted := range []string{"", "cluster-admin"} {
		if deleted != "" {
			if err := client.RbacV1().ClusterRoles().Delete(ctx, deleted, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		client.ClearActions()
		snap, err := newRBACSnapshot(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		if done, err := ensureRBACPolicy(policy, snap); !done || err != nil {
			t.Fatalf("reconciliation through a snapshot: done %v, %v", done, err)
		}
		var got []string
		for _, a := range client.Actions() {
			if a.GetVerb() != "list" {
				got = append(got, a.GetVerb()+" "+a.GetResource().Resource+" "+actionName(a))
			}
		}
		var want []string
		if deleted != "" {
			want = []string{"get clusterroles " + deleted, "create clusterroles " + deleted}
		}
		if !slices.Equal(got, want) {
			t.Errorf("deleted %q: requests other than lists %q, want %q", deleted, got, want)
		}
	}
}

func actionName(a k8stesting.Action) string {
	switch a := a.(type) {
	case k8stesting.GetAction:
		return a.GetName()
	case k8stesting.CreateAction:
		return a.GetObject().(metav1.Object).GetName()
	}
	return ""
}
