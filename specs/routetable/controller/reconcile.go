package main

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// tableName is the name of the ConfigMap that holds a namespace's routing
// table: one entry per Route, keyed by the Route's name.
const tableName = "routes"

// Reconciler publishes each Route as its entry in the routing table.
type Reconciler struct {
	client.Client
	// Table reads the routing table from the API server (the controller
	// does not watch ConfigMaps, so it has no cache of them).
	Table client.Reader
	// Fixed turns on the fix: an update of the table refused with a
	// conflict is retried, not dropped.
	Fixed bool
}

// Reconcile publishes one Route's entry in the routing table.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var route Route
	if err := r.Get(ctx, req.NamespacedName, &route); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := r.publish(ctx, &route)
	if apierrors.IsConflict(err) && !r.Fixed {
		// The bug: a conflict is taken to mean that another writer has the
		// table in hand and will bring this Route back. Nothing will: the
		// controller does not watch the table, and the Route did not
		// change. Its entry is never published.
		log.FromContext(ctx).Info("routing table changed under us, leaving it to its other writer", "route", route.Name)
		return ctrl.Result{}, nil
	}
	// Fixed: an error (a conflict too) requeues the Route, and the next
	// attempt reads the table afresh.
	return ctrl.Result{}, err
}

// publish writes route's entry into its namespace's routing table,
// creating the table if there is none; it writes only on change.
func (r *Reconciler) publish(ctx context.Context, route *Route) error {
	want := entry(route)
	var table corev1.ConfigMap
	err := r.Table.Get(ctx, types.NamespacedName{Namespace: route.Namespace, Name: tableName}, &table)
	if apierrors.IsNotFound(err) {
		table = corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: route.Namespace, Name: tableName},
			Data:       map[string]string{route.Name: want},
		}
		log.FromContext(ctx).Info("creating routing table", "route", route.Name)
		return r.Create(ctx, &table)
	}
	if err != nil {
		return fmt.Errorf("get routing table: %w", err)
	}
	if table.Data[route.Name] == want {
		return nil
	}
	if table.Data == nil {
		table.Data = map[string]string{}
	}
	table.Data[route.Name] = want
	log.FromContext(ctx).Info("publishing route", "route", route.Name, "entry", want)
	// The update carries the resourceVersion the table was read at: the API
	// server refuses it with a conflict if another writer was first.
	return r.Update(ctx, &table)
}

// entry is a Route's line in the routing table.
func entry(route *Route) string {
	return fmt.Sprintf("%s %s:%d", route.Spec.Host, route.Spec.Service, route.Spec.Port)
}
