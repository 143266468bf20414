package main

import (
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// TestPublish publishes Route cart into a routing table that holds shop's
// entry, with the table's first update refused with a 409 Conflict (not
// applied) or not, and checks the table once the controller is done with
// the Route: reconciles run as a work queue runs them, again after an
// error or a requeue, until one ends without either.
func TestPublish(t *testing.T) {
	tests := []struct {
		name     string
		conflict bool
		fixed    bool
		want     string // cart's entry in the table; empty: none
	}{
		{"no conflict, buggy", false, false, "cart.example.com cart:8080"},
		{"no conflict, fixed", false, true, "cart.example.com cart:8080"},
		{"conflict, buggy: dropped", true, false, ""},
		{"conflict, fixed: retried", true, true, "cart.example.com cart:8080"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tableWithShop(t)
			w := c
			if tt.conflict {
				w = conflictOnce(c)
			}
			r := &Reconciler{Client: w, Table: w, Fixed: tt.fixed}
			if n := drain(t, r, "cart"); n > 3 {
				t.Errorf("%d reconciles, want the Route done within 3", n)
			}
			table := table(t, c)
			if got := table.Data["cart"]; got != tt.want {
				t.Errorf("cart's entry = %q, want %q", got, tt.want)
			}
			if got := table.Data["shop"]; got != "shop.example.com shop:8080" {
				t.Errorf("shop's entry = %q, want it kept", got)
			}
		})
	}
}

// TestCreateTable publishes the first Route of a namespace: the controller
// creates the table with its entry.
func TestCreateTable(t *testing.T) {
	c := newClient(t, route("shop", 8080))
	drain(t, &Reconciler{Client: c, Table: c}, "shop")
	if got := table(t, c).Data; len(got) != 1 || got["shop"] != "shop.example.com shop:8080" {
		t.Errorf("table = %v, want shop's entry alone", got)
	}
}

// tableWithShop is a fake cluster with Routes shop and cart and a routing
// table that holds shop's entry alone.
func tableWithShop(t *testing.T) client.WithWatch {
	t.Helper()
	table := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: tableName},
		Data:       map[string]string{"shop": "shop.example.com shop:8080"},
	}
	return newClient(t, route("shop", 8080), route("cart", 8080), table)
}

func newClient(t *testing.T, objs ...client.Object) client.WithWatch {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := addToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
}

func route(name string, port int32) *Route {
	return &Route{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
		Spec:       RouteSpec{Host: name + ".example.com", Service: name, Port: port},
	}
}

// conflictOnce wraps c so that its first update is refused with a 409
// Conflict and not applied, as the API server refuses an update whose
// resourceVersion another writer has moved past.
func conflictOnce(c client.WithWatch) client.WithWatch {
	refused := false
	return interceptor.NewClient(c, interceptor.Funcs{
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			if !refused {
				refused = true
				return apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, obj.GetName(), errors.New("the object has been modified"))
			}
			return c.Update(ctx, obj, opts...)
		},
	})
}

// drain reconciles Route name until a reconcile ends with neither an error
// nor a requeue (at most 5 times, ignoring delays), and returns how many
// it took.
func drain(t *testing.T, r *Reconciler, name string) int {
	t.Helper()
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: name}}
	for n := 1; n <= 5; n++ {
		res, err := r.Reconcile(context.Background(), req)
		if err == nil && res.IsZero() {
			return n
		}
	}
	t.Fatalf("route %s still requeued after 5 reconciles", name)
	return 0
}

func table(t *testing.T, c client.Client) *corev1.ConfigMap {
	t.Helper()
	var cm corev1.ConfigMap
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: tableName}, &cm); err != nil {
		t.Fatalf("routing table: %v", err)
	}
	return &cm
}
