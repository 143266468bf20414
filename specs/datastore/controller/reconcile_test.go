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
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := addToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// deleting is a Datastore "ds" with UID uid that is being deleted.
func deleting(uid string) *Datastore {
	now := metav1.Now()
	return &Datastore{
		ObjectMeta: metav1.ObjectMeta{
			Name: "ds", Namespace: "default", UID: types.UID(uid),
			DeletionTimestamp: &now, Finalizers: []string{finalizer},
		},
		Spec: DatastoreSpec{Replicas: 2, Storage: "1Gi"},
	}
}

// claim is PVC data-ds-i created for the Datastore with UID owner.
func claim(i, owner string) *corev1.PersistentVolumeClaim {
	return &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{
		Name: "data-ds-" + i, Namespace: "default", UID: types.UID("pvc-" + owner + "-" + i),
		Labels: map[string]string{instanceLabel: "ds", uidLabel: owner},
	}}
}

// TestFinalize reconciles a deleting Datastore (uid old) and checks which of
// the StatefulSet and PVCs of Datastore generation `owner` are left.
// owner "new" is the bug's shape: the controller's stale view shows the old,
// deleting Datastore while the objects are those of its live successor.
func TestFinalize(t *testing.T) {
	tests := []struct {
		name     string
		owner    string
		fixed    bool
		left     []string
		stsAlive bool
	}{
		{"current view, buggy", "old", false, nil, false},
		{"current view, fixed", "old", true, nil, false},
		{"stale view, buggy: live data deleted", "new", false, nil, false},
		{"stale view, fixed: live data kept", "new", true, []string{"data-ds-0", "data-ds-1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(testScheme(t)).
				WithObjects(deleting("old"), statefulSet(t, tt.owner), claim("0", tt.owner), claim("1", tt.owner)).Build()
			r := &Reconciler{Client: c, Fixed: tt.fixed}
			if _, err := r.Reconcile(context.Background(), request("ds")); err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			if got := claimNames(t, c); !slices.Equal(got, tt.left) {
				t.Errorf("pvcs left = %v, want %v", got, tt.left)
			}
			err := c.Get(context.Background(), request("ds").NamespacedName, &appsv1.StatefulSet{})
			if alive := err == nil; alive != tt.stsAlive {
				t.Errorf("statefulset present = %v, want %v (get: %v)", alive, tt.stsAlive, err)
			}
			var ds Datastore
			if err := c.Get(context.Background(), request("ds").NamespacedName, &ds); err == nil {
				t.Errorf("datastore still present with finalizers %v, want it gone", ds.Finalizers)
			}
		})
	}
}

// statefulSet is the StatefulSet of the Datastore "ds" with UID owner.
func statefulSet(t *testing.T, owner string) *appsv1.StatefulSet {
	t.Helper()
	ds := &Datastore{
		ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: "default", UID: types.UID(owner)},
		Spec:       DatastoreSpec{Replicas: 2, Storage: "1Gi"},
	}
	r := &Reconciler{Client: fake.NewClientBuilder().WithScheme(testScheme(t)).Build()}
	sts, err := r.statefulSet(ds)
	if err != nil {
		t.Fatal(err)
	}
	sts.UID = types.UID("sts-" + owner)
	return sts
}

// TestFinalizeFixedUsesPreconditions checks that, with the fix, every
// delete carries the object's UID as a precondition, so that a stale list
// cannot delete a same-named successor on the API server.
func TestFinalizeFixedUsesPreconditions(t *testing.T) {
	var got []string
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).
		WithObjects(deleting("old"), statefulSet(t, "old"), claim("0", "old"), claim("1", "old")).
		WithInterceptorFuncs(interceptor.Funcs{
			Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
				o := (&client.DeleteOptions{}).ApplyOptions(opts)
				if o.Preconditions != nil && o.Preconditions.UID != nil {
					got = append(got, string(*o.Preconditions.UID))
				}
				return c.Delete(ctx, obj, opts...)
			},
		}).Build()
	r := &Reconciler{Client: c, Fixed: true}
	if _, err := r.Reconcile(context.Background(), request("ds")); err != nil {
		t.Fatalf("reconcile: %v", err)
	}
	want := []string{"sts-old", "pvc-old-0", "pvc-old-1"}
	if !slices.Equal(got, want) {
		t.Errorf("delete preconditions = %v, want %v", got, want)
	}
}

// TestCreate reconciles a new Datastore twice: the first adds the finalizer,
// the second creates the StatefulSet whose PVCs carry the Datastore's UID.
func TestCreate(t *testing.T) {
	ds := &Datastore{
		ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: "default", UID: "u1"},
		Spec:       DatastoreSpec{Replicas: 3, Storage: "1Gi"},
	}
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).
		WithObjects(ds).WithStatusSubresource(ds).Build()
	r := &Reconciler{Client: c}
	for range 2 {
		if _, err := r.Reconcile(context.Background(), request("ds")); err != nil {
			t.Fatalf("reconcile: %v", err)
		}
	}
	var sts appsv1.StatefulSet
	if err := c.Get(context.Background(), request("ds").NamespacedName, &sts); err != nil {
		t.Fatalf("statefulset: %v", err)
	}
	if got := sts.Spec.VolumeClaimTemplates[0].Labels[uidLabel]; got != "u1" {
		t.Errorf("pvc template uid label = %q, want %q", got, "u1")
	}
	if got := *sts.Spec.Replicas; got != 3 {
		t.Errorf("replicas = %d, want 3", got)
	}
	var got Datastore
	if err := c.Get(context.Background(), request("ds").NamespacedName, &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got.Finalizers, finalizer) {
		t.Errorf("finalizers = %v, want %q", got.Finalizers, finalizer)
	}
}

func request(name string) ctrl.Request {
	return ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: name}}
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
