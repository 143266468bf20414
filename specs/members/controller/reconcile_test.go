package main

import (
	"context"
	"errors"
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
)

// fakeAdmin is an in-memory admin API whose first failRemoves remove
// calls fail without removing anything, as a 503 or a reset connection
// would.
type fakeAdmin struct {
	members     []string
	failRemoves int
	removes     int // remove calls made
}

func (f *fakeAdmin) Members(context.Context, *Store) ([]string, error) {
	return slices.Clone(f.members), nil
}

func (f *fakeAdmin) Join(_ context.Context, _ *Store, m string) error {
	if !slices.Contains(f.members, m) {
		f.members = append(f.members, m)
	}
	return nil
}

func (f *fakeAdmin) Remove(_ context.Context, _ *Store, m string) error {
	f.removes++
	if f.removes <= f.failRemoves {
		return errors.New("admin api DELETE /members/" + m + ": 503 Service Unavailable")
	}
	f.members = slices.DeleteFunc(f.members, func(x string) bool { return x == m })
	return nil
}

func newClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := addToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(&Store{}).Build()
}

// store is Store "kv" with spec.replicas n.
func store(n int32) *Store {
	return &Store{
		ObjectMeta: metav1.ObjectMeta{Name: "kv", Namespace: "default", UID: "kv-uid"},
		Spec:       StoreSpec{Replicas: n},
	}
}

// claim is the PVC of member i, labelled as the StatefulSet's claim
// template labels it.
func claim(i string) *corev1.PersistentVolumeClaim {
	return &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{
		Name: "data-kv-" + i, Namespace: "default", Labels: labels(store(1)),
	}}
}

func statefulSet(t *testing.T, n int32) *appsv1.StatefulSet {
	t.Helper()
	r := &Reconciler{Client: newClient(t)}
	sts, err := r.statefulSet(store(n))
	if err != nil {
		t.Fatal(err)
	}
	return sts
}

// drain reconciles Store kv until a reconcile ends with neither an error
// nor a requeue (at most 5 times, ignoring delays), as a work queue does.
func drain(t *testing.T, r *Reconciler) {
	t.Helper()
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "kv"}}
	for range 5 {
		res, err := r.Reconcile(context.Background(), req)
		if err == nil && res.IsZero() {
			return
		}
	}
	t.Fatal("store kv still requeued after 5 reconciles")
}

// TestScaleDown scales Store kv from three members to two, with the
// admin API's first remove call failing or not, and checks what is left
// once the Store is off the queue. Without a failure, buggy or fixed,
// kv-2 leaves the store and its PVC goes. With one, the buggy controller
// deletes kv-2's PVC while the store still lists kv-2, and its status
// says so; the fixed one calls again and deletes the PVC only after kv-2
// has left.
func TestScaleDown(t *testing.T) {
	tests := []struct {
		name    string
		fail    int
		fixed   bool
		members []string
	}{
		{"remove ok, buggy", 0, false, []string{"kv-0", "kv-1"}},
		{"remove ok, fixed", 0, true, []string{"kv-0", "kv-1"}},
		{"remove failed, buggy: kv-2 still a member", 1, false, []string{"kv-0", "kv-1", "kv-2"}},
		{"remove failed, fixed: retried", 1, true, []string{"kv-0", "kv-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, store(2), statefulSet(t, 3), claim("0"), claim("1"), claim("2"))
			admin := &fakeAdmin{members: []string{"kv-0", "kv-1", "kv-2"}, failRemoves: tt.fail}
			r := &Reconciler{Client: c, Claims: c, Admin: admin, Fixed: tt.fixed}
			drain(t, r)
			drain(t, r) // the shrunk StatefulSet wakes the controller again
			if !slices.Equal(admin.members, tt.members) {
				t.Errorf("store members = %v, want %v", admin.members, tt.members)
			}
			if got := claimNames(t, c); !slices.Equal(got, []string{"data-kv-0", "data-kv-1"}) {
				t.Errorf("pvcs left = %v, want data-kv-0 and data-kv-1", got)
			}
			if got := status(t, c).Members; !slices.Equal(got, tt.members) {
				t.Errorf("status.members = %v, want the store's %v", got, tt.members)
			}
		})
	}
}

// TestDepartedClaim reconciles a Store whose StatefulSet was shrunk by a
// controller that crashed before it deleted the departed member's PVC:
// the next reconcile deletes it.
func TestDepartedClaim(t *testing.T) {
	c := newClient(t, store(2), statefulSet(t, 2), claim("0"), claim("1"), claim("2"))
	admin := &fakeAdmin{members: []string{"kv-0", "kv-1"}}
	drain(t, &Reconciler{Client: c, Claims: c, Admin: admin})
	if got := claimNames(t, c); !slices.Equal(got, []string{"data-kv-0", "data-kv-1"}) {
		t.Errorf("pvcs left = %v, want data-kv-0 and data-kv-1", got)
	}
	if admin.removes != 0 {
		t.Errorf("%d remove calls, want none (kv-2 had left)", admin.removes)
	}
}

// TestCreate reconciles a new Store of three: its admin Service and
// StatefulSet are created and the three members join.
func TestCreate(t *testing.T) {
	c := newClient(t, store(3))
	admin := &fakeAdmin{}
	drain(t, &Reconciler{Client: c, Claims: c, Admin: admin})
	if want := []string{"kv-0", "kv-1", "kv-2"}; !slices.Equal(admin.members, want) {
		t.Errorf("store members = %v, want %v", admin.members, want)
	}
	var svc corev1.Service
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: "kv-admin"}, &svc); err != nil {
		t.Errorf("admin service: %v", err)
	}
	var sts appsv1.StatefulSet
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: "kv"}, &sts); err != nil || *sts.Spec.Replicas != 3 {
		t.Errorf("statefulset: %v, want 3 replicas", err)
	}
}

// TestHTTPAdmin runs the HTTP client against a server that checks the
// requests: the host is the admin Service's cluster DNS name (dialled here
// at the test server), and a 503 answer is an error.
func TestHTTPAdmin(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.Host+r.URL.RequestURI())
		switch r.Method {
		case http.MethodGet:
			_, _ = w.Write([]byte(`{"members":["kv-0"]}`))
		case http.MethodDelete:
			http.Error(w, "service unavailable", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	a := newHTTPAdmin()
	a.client.Transport = &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}}
	s := store(1)
	if ms, err := a.Members(context.Background(), s); err != nil || !slices.Equal(ms, []string{"kv-0"}) {
		t.Errorf("members: %v, %v", ms, err)
	}
	if err := a.Join(context.Background(), s, "kv-1"); err != nil {
		t.Errorf("join: %v", err)
	}
	if err := a.Remove(context.Background(), s, "kv-1"); err == nil {
		t.Error("remove answered 503: no error")
	}
	want := []string{
		"GET kv-admin.default.svc.cluster.local:8080/members",
		"PUT kv-admin.default.svc.cluster.local:8080/members/kv-1",
		"DELETE kv-admin.default.svc.cluster.local:8080/members/kv-1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
}

func status(t *testing.T, c client.Client) StoreStatus {
	t.Helper()
	var s Store
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: "kv"}, &s); err != nil {
		t.Fatal(err)
	}
	return s.Status
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
