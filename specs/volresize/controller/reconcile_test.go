package main

import (
	"context"
	"errors"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// errCrash stands for the controller being killed: the write reached the
// API server, the controller never saw the answer.
var errCrash = errors.New("crash")

// TestResize grows a two-member BrokerCluster from 1Gi to 2Gi, crashing the
// controller right after one of its writes, restarting it, and checks the
// PVC sizes once it has settled.
func TestResize(t *testing.T) {
	tests := []struct {
		name  string
		crash string // "delete" or "patch": crash right after the first such write
		fixed bool
		want  []string
	}{
		{"no crash, buggy", "", false, []string{"2Gi", "2Gi"}},
		{"no crash, fixed", "", true, []string{"2Gi", "2Gi"}},
		{"crash after delete, buggy: never resized", "delete", false, []string{"1Gi", "1Gi"}},
		{"crash after delete, fixed", "delete", true, []string{"2Gi", "2Gi"}},
		{"crash after first expand, buggy: half resized", "patch", false, []string{"2Gi", "1Gi"}},
		{"crash after first expand, fixed", "patch", true, []string{"2Gi", "2Gi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := resizingCluster(t)
			first := &Reconciler{Client: crashAfter(c, tt.crash), Fixed: tt.fixed}
			reconcile(t, first, 1)
			restarted := &Reconciler{Client: c, Fixed: tt.fixed}
			reconcile(t, restarted, 5)
			if got := claimSizes(t, c); !slices.Equal(got, tt.want) {
				t.Errorf("pvc sizes = %v, want %v", got, tt.want)
			}
			var sts appsv1.StatefulSet
			if err := c.Get(context.Background(), key("bc"), &sts); err != nil {
				t.Fatalf("statefulset not recreated: %v", err)
			}
			if got := claimSize(&sts); got.String() != "2Gi" {
				t.Errorf("claim template size = %s, want 2Gi", got.String())
			}
		})
	}
}

// resizingCluster is a fake cluster right after `spec.storage` of
// BrokerCluster bc went from 1Gi to 2Gi: the StatefulSet and both PVCs are
// still at 1Gi.
func resizingCluster(t *testing.T) client.WithWatch {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := addToScheme(s); err != nil {
		t.Fatal(err)
	}
	bc := &BrokerCluster{
		ObjectMeta: metav1.ObjectMeta{Name: "bc", Namespace: "default", UID: "u1"},
		Spec:       BrokerClusterSpec{Replicas: 2, Storage: "1Gi"},
	}
	sts, err := (&Reconciler{Client: fake.NewClientBuilder().WithScheme(s).Build()}).statefulSet(bc)
	if err != nil {
		t.Fatal(err)
	}
	bc.Spec.Storage = "2Gi"
	return fake.NewClientBuilder().WithScheme(s).WithStatusSubresource(bc).
		WithObjects(bc, sts, pvc("data-bc-0", "1Gi"), pvc("data-bc-1", "1Gi")).Build()
}

func pvc(name, size string) *corev1.PersistentVolumeClaim {
	return &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: corev1.PersistentVolumeClaimSpec{Resources: corev1.VolumeResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)},
		}},
	}
}

// crashAfter wraps c so that the first delete (verb "delete") or patch
// (verb "patch") is carried out and then answered with errCrash, and every
// later call fails too, as if the process were gone.
func crashAfter(c client.WithWatch, verb string) client.WithWatch {
	crashed := false
	gone := func() error {
		if crashed {
			return errCrash
		}
		return nil
	}
	return interceptor.NewClient(c, interceptor.Funcs{
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			if err := gone(); err != nil {
				return err
			}
			err := c.Delete(ctx, obj, opts...)
			crashed = err == nil && verb == "delete"
			return err
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			if err := gone(); err != nil {
				return err
			}
			err := c.Patch(ctx, obj, p, opts...)
			crashed = err == nil && verb == "patch"
			return err
		},
	})
}

// reconcile runs n reconciles of bc, ignoring requeue delays; errCrash ends
// the run.
func reconcile(t *testing.T, r *Reconciler, n int) {
	t.Helper()
	for range n {
		_, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: key("bc")})
		if errors.Is(err, errCrash) {
			return
		}
		if err != nil {
			t.Fatalf("reconcile: %v", err)
		}
	}
}

func key(name string) types.NamespacedName {
	return types.NamespacedName{Namespace: "default", Name: name}
}

func claimSizes(t *testing.T, c client.Client) []string {
	t.Helper()
	var sizes []string
	for _, name := range []string{"data-bc-0", "data-bc-1"} {
		var p corev1.PersistentVolumeClaim
		if err := c.Get(context.Background(), key(name), &p); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, p.Spec.Resources.Requests.Storage().String())
	}
	return sizes
}
