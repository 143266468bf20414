package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
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

// fakeMembers is an in-memory members API.
type fakeMembers struct {
	Membership
	removed []string
}

func (f *fakeMembers) List(context.Context, *Ensemble) (Membership, error) {
	return Membership{Generation: f.Generation, Members: slices.Clone(f.Members)}, nil
}

func (f *fakeMembers) Add(_ context.Context, _ *Ensemble, m string, gen int64) error {
	f.Members, f.Generation = append(f.Members, m), gen
	return nil
}

func (f *fakeMembers) Remove(_ context.Context, _ *Ensemble, m string, gen int64) error {
	f.Members = slices.DeleteFunc(f.Members, func(x string) bool { return x == m })
	f.Generation, f.removed = gen, append(f.removed, m)
	return nil
}

// ensemble is Ensemble "ens" at generation gen with spec.replicas n.
func ensemble(gen int64, n int32) *Ensemble {
	return &Ensemble{
		ObjectMeta: metav1.ObjectMeta{Name: "ens", Namespace: "default", UID: "ens-uid", Generation: gen},
		Spec:       EnsembleSpec{Replicas: n},
	}
}

// claim is the PVC of member i.
func claim(i string) *corev1.PersistentVolumeClaim {
	return &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data-ens-" + i, Namespace: "default"}}
}

func statefulSet(t *testing.T, n int32) *appsv1.StatefulSet {
	t.Helper()
	r := &Reconciler{Client: fake.NewClientBuilder().WithScheme(testScheme(t)).Build()}
	sts, err := r.statefulSet(ensemble(1, n))
	if err != nil {
		t.Fatal(err)
	}
	return sts
}

func request() ctrl.Request {
	return ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "ens"}}
}

// TestScaleDown reconciles an Ensemble with replicas 1 against a
// two-member StatefulSet. At generation 2 with the members API at
// generation 1 it is the user's scale-down: member ens-1 leaves and its
// PVC goes, buggy or fixed. At generation 2 with the members API at
// generation 3 it is the bug's shape: the user has scaled back up (the
// controller made ens-1 rejoin at generation 3) and the controller's view
// is stale. The buggy controller removes the live member and deletes its
// PVC; the fixed one keeps both and looks again later.
func TestScaleDown(t *testing.T) {
	tests := []struct {
		name    string
		apiGen  int64
		fixed   bool
		left    []string
		removed []string
	}{
		{"scale-down, buggy", 1, false, []string{"data-ens-0"}, []string{"ens-1"}},
		{"scale-down, fixed", 1, true, []string{"data-ens-0"}, []string{"ens-1"}},
		{"stale view, buggy: live member's PVC deleted", 3, false, []string{"data-ens-0"}, []string{"ens-1"}},
		{"stale view, fixed: live member kept", 3, true, []string{"data-ens-0", "data-ens-1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(testScheme(t)).
				WithObjects(ensemble(2, 1), statefulSet(t, 2), claim("0"), claim("1")).Build()
			api := &fakeMembers{Membership: Membership{Generation: tt.apiGen, Members: []string{"ens-0", "ens-1"}}}
			r := &Reconciler{Client: c, Members: api, Fixed: tt.fixed}
			res, err := r.Reconcile(context.Background(), request())
			if err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			if got := claimNames(t, c); !slices.Equal(got, tt.left) {
				t.Errorf("pvcs left = %v, want %v", got, tt.left)
			}
			if !slices.Equal(api.removed, tt.removed) {
				t.Errorf("members removed = %v, want %v", api.removed, tt.removed)
			}
			if kept := tt.removed == nil; kept != (res.RequeueAfter > 0) {
				t.Errorf("requeue after %v; want a requeue exactly when nothing was removed", res.RequeueAfter)
			}
		})
	}
}

// TestCreate reconciles a new Ensemble of two: its client Service and
// StatefulSet are created, both members join at the Ensemble's
// generation, and the status counts them.
func TestCreate(t *testing.T) {
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(ensemble(1, 2)).
		WithStatusSubresource(&Ensemble{}).Build()
	api := &fakeMembers{}
	r := &Reconciler{Client: c, Members: api}
	if _, err := r.Reconcile(context.Background(), request()); err != nil {
		t.Fatalf("reconcile: %v", err)
	}
	if !slices.Equal(api.Members, []string{"ens-0", "ens-1"}) || api.Generation != 1 {
		t.Errorf("members api: %+v, want ens-0 and ens-1 at generation 1", api.Membership)
	}
	var svc corev1.Service
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: "ens-client"}, &svc); err != nil {
		t.Errorf("client service: %v", err)
	}
	var e Ensemble
	if err := c.Get(context.Background(), request().NamespacedName, &e); err != nil || e.Status.Members != 2 {
		t.Errorf("status: %+v (%v), want 2 members", e.Status, err)
	}
}

// TestScaleUpJoinsFirst scales an Ensemble at generation 3 from one
// member to two and holds that ens-1 had joined at generation 3 before
// the StatefulSet was patched: whatever the scale-up creates is never
// newer than the generation the members API holds.
func TestScaleUpJoinsFirst(t *testing.T) {
	api := &fakeMembers{Membership: Membership{Generation: 2, Members: []string{"ens-0"}}}
	var atPatch Membership
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).
		WithObjects(ensemble(3, 2), statefulSet(t, 1)).WithStatusSubresource(&Ensemble{}).
		WithInterceptorFuncs(interceptor.Funcs{Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			if _, ok := obj.(*appsv1.StatefulSet); ok {
				atPatch, _ = api.List(ctx, nil)
			}
			return c.Patch(ctx, obj, p, opts...)
		}}).Build()
	r := &Reconciler{Client: c, Members: api}
	if _, err := r.Reconcile(context.Background(), request()); err != nil {
		t.Fatalf("reconcile: %v", err)
	}
	if atPatch.Generation != 3 || !slices.Equal(atPatch.Members, []string{"ens-0", "ens-1"}) {
		t.Errorf("members api when the StatefulSet was patched: %+v, want ens-0 and ens-1 at generation 3", atPatch)
	}
	var sts appsv1.StatefulSet
	if err := c.Get(context.Background(), request().NamespacedName, &sts); err != nil || *sts.Spec.Replicas != 2 {
		t.Errorf("statefulset: replicas %v (%v), want 2", sts.Spec.Replicas, err)
	}
}

// TestHTTPMembers runs the HTTP client against a server that checks the
// requests: the host is the client Service's cluster DNS name (dialled
// here at the test server), and a change carries its generation.
func TestHTTPMembers(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.Host+r.URL.RequestURI())
		if r.Method == http.MethodGet {
			_ = json.NewEncoder(w).Encode(Membership{Generation: 4, Members: []string{"ens-0"}})
		}
	}))
	defer srv.Close()
	m := newHTTPMembers()
	m.client.Transport = &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}}
	e := ensemble(4, 1)
	ms, err := m.List(context.Background(), e)
	if err != nil || ms.Generation != 4 || !slices.Equal(ms.Members, []string{"ens-0"}) {
		t.Errorf("list: %+v, %v", ms, err)
	}
	if err := m.Remove(context.Background(), e, "ens-1", 4); err != nil {
		t.Errorf("remove: %v", err)
	}
	want := []string{
		"GET ens-client.default.svc.cluster.local:8080/members",
		"DELETE ens-client.default.svc.cluster.local:8080/members/ens-1?generation=4",
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
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
