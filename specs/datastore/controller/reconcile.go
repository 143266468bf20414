package main

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

const (
	// finalizer keeps a Datastore until its PVCs are deleted.
	finalizer = group + "/pvc-cleanup"
	// instanceLabel names the Datastore a StatefulSet, pod or PVC belongs to.
	instanceLabel = "app.kubernetes.io/instance"
	// uidLabel carries the UID of the Datastore whose StatefulSet created a
	// PVC, so that PVCs of two generations of a same-named Datastore can be
	// told apart.
	uidLabel = group + "/cluster-uid"
)

// Reconciler drives a Datastore: it creates its StatefulSet, reports its
// readiness and, when the Datastore is deleted, deletes its PVCs before
// letting it go.
type Reconciler struct {
	client.Client
	// Fixed turns on the fix: delete only the PVCs of the very Datastore
	// being deleted (same UID), each with a UID precondition.
	Fixed bool
}

// Reconcile brings one Datastore one step closer to its desired state.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ds Datastore
	if err := r.Get(ctx, req.NamespacedName, &ds); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !ds.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.finalize(ctx, &ds)
	}
	if controllerutil.AddFinalizer(&ds, finalizer) {
		return ctrl.Result{}, r.Update(ctx, &ds)
	}
	sts, err := r.ensureStatefulSet(ctx, &ds)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.updateStatus(ctx, &ds, sts)
}

// finalize deletes the Datastore's StatefulSet and PVCs, then removes the
// finalizer. (It deletes the StatefulSet itself rather than leave it to the
// garbage collector, which may take a while to notice a custom owner is
// gone.)
//
// The bug: the objects are chosen by the Datastore's name alone. A
// controller that restarts with a stale view sees an old, deleting Datastore
// although a new one with the same name is live, and deletes the new one's
// StatefulSet and data.
func (r *Reconciler) finalize(ctx context.Context, ds *Datastore) error {
	if !controllerutil.ContainsFinalizer(ds, finalizer) {
		return nil
	}
	if err := r.deleteStatefulSet(ctx, ds); err != nil {
		return err
	}
	pvcs, err := r.claimsToDelete(ctx, ds)
	if err != nil {
		return err
	}
	for i := range pvcs {
		if err := r.deleteClaim(ctx, &pvcs[i]); err != nil {
			return err
		}
	}
	controllerutil.RemoveFinalizer(ds, finalizer)
	return r.Update(ctx, ds)
}

// deleteStatefulSet deletes the Datastore's StatefulSet, if any: the one of
// that name (buggy), or only if ds controls it, with its UID as a
// precondition (fixed).
func (r *Reconciler) deleteStatefulSet(ctx context.Context, ds *Datastore) error {
	var sts appsv1.StatefulSet
	if err := r.Get(ctx, types.NamespacedName{Namespace: ds.Namespace, Name: ds.Name}, &sts); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !sts.DeletionTimestamp.IsZero() || (r.Fixed && !metav1.IsControlledBy(&sts, ds)) {
		return nil
	}
	log.FromContext(ctx).Info("deleting statefulset", "statefulset", sts.Name, "uid", sts.UID)
	return r.deleteChecked(ctx, &sts)
}

// claimsToDelete lists the PVCs that belong to ds: by name only (buggy), or
// by name and UID (fixed).
func (r *Reconciler) claimsToDelete(ctx context.Context, ds *Datastore) ([]corev1.PersistentVolumeClaim, error) {
	labels := client.MatchingLabels{instanceLabel: ds.Name}
	if r.Fixed {
		labels[uidLabel] = string(ds.UID)
	}
	var list corev1.PersistentVolumeClaimList
	if err := r.List(ctx, &list, client.InNamespace(ds.Namespace), labels); err != nil {
		return nil, fmt.Errorf("list pvcs of %s: %w", ds.Name, err)
	}
	return list.Items, nil
}

// deleteClaim deletes one PVC.
func (r *Reconciler) deleteClaim(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error {
	if !pvc.DeletionTimestamp.IsZero() {
		return nil // already going
	}
	log.FromContext(ctx).Info("deleting pvc", "pvc", pvc.Name, "uid", pvc.UID)
	return r.deleteChecked(ctx, pvc)
}

// deleteChecked deletes obj. With the fix, the delete carries obj's UID as a
// precondition, so that a stale view cannot delete a same-named successor;
// the API server then answers Conflict, which means there is nothing of
// ours to delete.
func (r *Reconciler) deleteChecked(ctx context.Context, obj client.Object) error {
	var opts []client.DeleteOption
	if r.Fixed {
		uid := obj.GetUID()
		opts = append(opts, client.Preconditions{UID: &uid})
	}
	err := r.Delete(ctx, obj, opts...)
	if apierrors.IsNotFound(err) || (r.Fixed && apierrors.IsConflict(err)) {
		return nil
	}
	return err
}

// ensureStatefulSet creates the Datastore's StatefulSet if it is missing and
// returns it.
func (r *Reconciler) ensureStatefulSet(ctx context.Context, ds *Datastore) (*appsv1.StatefulSet, error) {
	var sts appsv1.StatefulSet
	err := r.Get(ctx, types.NamespacedName{Namespace: ds.Namespace, Name: ds.Name}, &sts)
	if !apierrors.IsNotFound(err) {
		return &sts, err
	}
	want, err := r.statefulSet(ds)
	if err != nil {
		return nil, err
	}
	log.FromContext(ctx).Info("creating statefulset", "statefulset", want.Name)
	return want, r.Create(ctx, want)
}

// statefulSet is the StatefulSet a Datastore wants: one pod and one PVC
// "data-NAME-i" per replica, the PVCs labelled with the Datastore's UID.
func (r *Reconciler) statefulSet(ds *Datastore) (*appsv1.StatefulSet, error) {
	size, err := resource.ParseQuantity(ds.Spec.Storage)
	if err != nil {
		return nil, fmt.Errorf("spec.storage %q: %w", ds.Spec.Storage, err)
	}
	selector := map[string]string{instanceLabel: ds.Name}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: ds.Name, Namespace: ds.Namespace, Labels: selector},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &ds.Spec.Replicas,
			ServiceName: ds.Name,
			Selector:    &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: selector},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:         "db",
					Image:        "registry.k8s.io/pause:3.10",
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
				}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{
					Name:   "data",
					Labels: map[string]string{instanceLabel: ds.Name, uidLabel: string(ds.UID)},
				},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{
						Requests: corev1.ResourceList{corev1.ResourceStorage: size},
					},
				},
			}},
		},
	}
	return sts, controllerutil.SetControllerReference(ds, sts, r.Scheme())
}

// updateStatus copies the StatefulSet's ready count into the Datastore's
// status and sets its Ready condition; it writes only on change.
func (r *Reconciler) updateStatus(ctx context.Context, ds *Datastore, sts *appsv1.StatefulSet) error {
	before := ds.DeepCopyObject().(*Datastore)
	ds.Status.ReadyReplicas = sts.Status.ReadyReplicas
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Starting", ObservedGeneration: ds.Generation}
	if sts.Status.ReadyReplicas == ds.Spec.Replicas {
		ready.Status, ready.Reason = metav1.ConditionTrue, "AllReplicasReady"
	}
	meta.SetStatusCondition(&ds.Status.Conditions, ready)
	if equalStatus(before.Status, ds.Status) {
		return nil
	}
	return r.Status().Patch(ctx, ds, client.MergeFrom(before))
}

// equalStatus reports whether two statuses agree, ignoring condition times.
func equalStatus(a, b DatastoreStatus) bool {
	if a.ReadyReplicas != b.ReadyReplicas || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := a.Conditions[i], b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.ObservedGeneration != y.ObservedGeneration {
			return false
		}
	}
	return true
}
