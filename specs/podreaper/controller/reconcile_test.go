package main

import (
	"context"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// TestFreeClaims reconciles Ring "cass" just shrunk from 2 members to 1, in
// the three states the controller may see member cass-1's pod in, and checks
// which PVCs are left. "gone, never seen terminating" is the bug's shape:
// the controller's view skipped the pod's deletionTimestamp.
func TestFreeClaims(t *testing.T) {
	tests := []struct {
		name  string
		pod1  string // running, terminating or gone
		fixed bool
		left  []string
	}{
		{"running, buggy", "running", false, []string{"data-cass-0", "data-cass-1"}},
		{"running, fixed", "running", true, []string{"data-cass-0", "data-cass-1"}},
		{"seen terminating, buggy", "terminating", false, []string{"data-cass-0"}},
		{"seen terminating, fixed", "terminating", true, []string{"data-cass-0"}},
		{"gone, never seen terminating, buggy: pvc leaks", "gone", false, []string{"data-cass-0", "data-cass-1"}},
		{"gone, never seen terminating, fixed", "gone", true, []string{"data-cass-0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := shrunkRing(t, tt.pod1)
			r := &Reconciler{Client: c, Fixed: tt.fixed}
			req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "cass"}}
			if _, err := r.Reconcile(context.Background(), req); err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			if got := claimNames(t, c); !slices.Equal(got, tt.left) {
				t.Errorf("pvcs left = %v, want %v", got, tt.left)
			}
			var sts appsv1.StatefulSet
			if err := c.Get(context.Background(), req.NamespacedName, &sts); err != nil {
				t.Fatal(err)
			}
			if *sts.Spec.Replicas != 1 {
				t.Errorf("statefulset replicas = %d, want 1", *sts.Spec.Replicas)
			}
		})
	}
}

// shrunkRing is a fake cluster where Ring cass went from 2 members to 1:
// the StatefulSet still has 2 replicas, both PVCs exist, and pod cass-1 is
// in state pod1.
func shrunkRing(t *testing.T, pod1 string) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := addToScheme(s); err != nil {
		t.Fatal(err)
	}
	ring := &Ring{
		ObjectMeta: metav1.ObjectMeta{Name: "cass", Namespace: "default", UID: "u1"},
		Spec:       RingSpec{Members: 2, Storage: "1Gi"},
	}
	sts, err := (&Reconciler{Client: fake.NewClientBuilder().WithScheme(s).Build()}).createStatefulSet(context.Background(), ring)
	if err != nil {
		t.Fatal(err)
	}
	ring.Spec.Members = 1
	objs := []client.Object{ring, sts, member("pod", "cass-0"), member("pvc", "data-cass-0"), member("pvc", "data-cass-1")}
	switch pod1 {
	case "running":
		objs = append(objs, member("pod", "cass-1"))
	case "terminating":
		p := member("pod", "cass-1")
		now := metav1.Now()
		p.SetDeletionTimestamp(&now)
		p.SetFinalizers([]string{"sieve.dev/hold"})
		objs = append(objs, p)
	}
	return fake.NewClientBuilder().WithScheme(s).WithStatusSubresource(ring).WithObjects(objs...).Build()
}

// member is a pod or PVC of Ring cass.
func member(kind, name string) client.Object {
	meta := metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{instanceLabel: "cass"}}
	if kind == "pod" {
		return &corev1.Pod{ObjectMeta: meta}
	}
	return &corev1.PersistentVolumeClaim{ObjectMeta: meta}
}

func claimNames(t *testing.T, c client.Client) []string {
	t.Helper()
	var list corev1.PersistentVolumeClaimList
	if err := c.List(context.Background(), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Items {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	return names
}
