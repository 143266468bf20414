package workload

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/sievetool/sieve/lang/ir"
)

// Owner is the label one run puts on the namespaces and cluster-scoped
// objects it creates on a cluster sieve does not own (the kubeconfig
// backend). An Executor with an Owner acts only on what carries it:
// namespaced objects in the namespaces that carry it, cluster-scoped
// objects that carry it or do not exist yet (they are created with it).
type Owner struct {
	// Key and Value are the label's, e.g. "sieve.dev/run" and the run ID.
	Key, Value string
}

var namespacesGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// owns reports whether o carries the run's label.
func (x *Executor) owns(o metav1.Object) bool {
	return o.GetLabels()[x.Owner.Key] == x.Owner.Value
}

// ownNamespace fails unless the run created namespace ns (or the Executor
// has no Owner).
func (x *Executor) ownNamespace(ctx context.Context, ns string) error {
	if x.Owner == nil {
		return nil
	}
	o, err := x.dyn.Resource(namespacesGVR).Get(ctx, ns, metav1.GetOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("namespace %q: %w", ns, err)
	}
	if err != nil || !x.owns(o) {
		return fmt.Errorf("namespace %q was not created by this run (hint: on an existing cluster, workload steps act only in the namespaces the run creates: the controller's, and those its workload applies)", ns)
	}
	return nil
}

// ownedNamespaces returns the namespaces the run created that match the
// glob pattern.
func (x *Executor) ownedNamespaces(ctx context.Context, pattern string) ([]string, error) {
	l, err := x.dyn.Resource(namespacesGVR).List(ctx, metav1.ListOptions{LabelSelector: x.Owner.Key + "=" + x.Owner.Value})
	if err != nil {
		return nil, fmt.Errorf("namespaces: %w", err)
	}
	var out []string
	for _, o := range l.Items {
		if matches(pattern, o.GetName()) {
			out = append(out, o.GetName())
		}
	}
	return out, nil
}

// listOwned lists the objects of a namespaced resource in the namespaces
// the run created that the ref's namespace (a name or a glob) matches.
func (x *Executor) listOwned(ctx context.Context, gvr schema.GroupVersionResource, r *ir.Ref) ([]unstructured.Unstructured, error) {
	namespaces := []string{r.Namespace}
	if isGlob(r.Namespace) {
		var err error
		if namespaces, err = x.ownedNamespaces(ctx, r.Namespace); err != nil {
			return nil, err
		}
	} else if err := x.ownNamespace(ctx, r.Namespace); err != nil {
		return nil, err
	}
	var items []unstructured.Unstructured
	for _, ns := range namespaces {
		l, err := x.dyn.Resource(gvr).Namespace(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		items = append(items, l.Items...)
	}
	return items, nil
}

// keepOwned leaves out of objs, read from a watch on every namespace, the
// objects in namespaces the run did not create (no Owner: all are kept).
func (x *Executor) keepOwned(ctx context.Context, objs []map[string]any) ([]map[string]any, error) {
	if x.Owner == nil {
		return objs, nil
	}
	owned, err := x.ownedNamespaces(ctx, "*")
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(objs, func(o map[string]any) bool {
		ns := (&unstructured.Unstructured{Object: o}).GetNamespace()
		return ns != "" && !slices.Contains(owned, ns)
	}), nil
}

// mayChange fails if the cluster-scoped object name of ri exists and the
// run did not create it: sieve neither overwrites nor deletes it.
func (x *Executor) mayChange(ctx context.Context, ri dynamic.ResourceInterface, kind, name string) error {
	if x.Owner == nil {
		return nil
	}
	cur, err := ri.Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		return err
	case !x.owns(cur):
		return fmt.Errorf("%s %s exists on the cluster and this run did not create it; sieve does not overwrite or delete what it did not create", kind, name)
	}
	return nil
}

// label puts the run's label on o, which the run is about to apply: what
// the run creates on a cluster sieve does not own carries it.
func (x *Executor) label(o *unstructured.Unstructured) {
	if x.Owner == nil {
		return
	}
	labels := o.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[x.Owner.Key] = x.Owner.Value
	o.SetLabels(labels)
}

// unchangedBy reports whether applying o over cur, an object the run did
// not create, would leave cur's spec as it is: the server answers a
// dry-run apply, so defaults and fields o does not set are its own.
func (x *Executor) unchangedBy(ctx context.Context, ri dynamic.ResourceInterface, o, cur *unstructured.Unstructured) (bool, error) {
	opts := metav1.ApplyOptions{FieldManager: FieldManager, Force: true, DryRun: []string{metav1.DryRunAll}}
	after, err := ri.Apply(ctx, o.GetName(), o, opts)
	if err != nil {
		return false, err
	}
	return reflect.DeepEqual(after.Object["spec"], cur.Object["spec"]), nil
}

// foreign reports whether the history leaves u, of kind, out: with an
// Owner, a namespace the run did not create, an object in one, or an
// object another run labelled.
func (h *History) foreign(kind string, u *unstructured.Unstructured) bool {
	if h.Owner == nil {
		return false
	}
	if v, ok := u.GetLabels()[h.Owner.Key]; ok && v != h.Owner.Value {
		return true
	}
	h.ownedMu.Lock()
	defer h.ownedMu.Unlock()
	if kind == "namespace" {
		h.owned[u.GetName()] = u.GetLabels()[h.Owner.Key] == h.Owner.Value
		return !h.owned[u.GetName()]
	}
	if u.GetNamespace() == "" {
		return false
	}
	return !h.ownsNamespace(u.GetNamespace())
}

// ownsNamespace reports whether the run created namespace ns, asking the
// API server the first time: the object's event may come before its
// namespace's. A namespace the run did not create never becomes its own
// (Claim refuses it), so the answer is kept. Call with h.ownedMu held.
func (h *History) ownsNamespace(ns string) bool {
	if owned, ok := h.owned[ns]; ok {
		return owned
	}
	o, err := h.dyn.Resource(namespacesGVR).Get(h.ctx, ns, metav1.GetOptions{})
	if err != nil {
		return false // gone, or unreadable: not the run's to record
	}
	h.owned[ns] = o.GetLabels()[h.Owner.Key] == h.Owner.Value
	return h.owned[ns]
}
