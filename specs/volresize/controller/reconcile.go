package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

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

// instanceLabel names the BrokerCluster a StatefulSet or pod belongs to.
const instanceLabel = "app.kubernetes.io/instance"

// wait is how long to wait before looking again at a StatefulSet that is
// being deleted.
const wait = time.Second

// Reconciler drives a BrokerCluster: it runs it as a StatefulSet and grows
// its PVCs when spec.storage grows.
type Reconciler struct {
	client.Client
	// Fixed turns on the fix: record a resize in the BrokerCluster's status
	// before deleting the StatefulSet, and finish it on a later reconcile.
	Fixed bool
}

// Reconcile brings one BrokerCluster one step closer to its desired state.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var bc BrokerCluster
	if err := r.Get(ctx, req.NamespacedName, &bc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	want, err := r.statefulSet(&bc)
	if err != nil {
		return ctrl.Result{}, err
	}
	sts, err := r.currentStatefulSet(ctx, &bc)
	if err != nil {
		return ctrl.Result{}, err
	}
	switch {
	case sts != nil && !sts.DeletionTimestamp.IsZero():
		return ctrl.Result{RequeueAfter: wait}, nil // the orphaning delete is under way
	case sts != nil && !sameSize(sts, want):
		return ctrl.Result{RequeueAfter: wait}, r.startResize(ctx, &bc, sts)
	}
	if r.Fixed && bc.Status.ResizingTo != "" {
		if err := r.expandClaims(ctx, &bc, bc.Status.ResizingTo); err != nil {
			return ctrl.Result{}, err
		}
	}
	if sts == nil {
		log.FromContext(ctx).Info("creating statefulset", "statefulset", want.Name, "storage", bc.Spec.Storage)
		if err := r.Create(ctx, want); err != nil {
			return ctrl.Result{}, err
		}
		sts = want
	}
	return ctrl.Result{}, r.updateStatus(ctx, &bc, sts)
}

// startResize begins growing the PVCs. A StatefulSet's claim template cannot
// change, so the StatefulSet is deleted with its pods orphaned (they keep
// running) and recreated, by a later reconcile, with the new template.
//
// The bug: nothing records that a resize is under way. A controller that
// crashes right after the delete restarts, finds no StatefulSet, creates one
// from the spec — already with the new size — and sees nothing left to do:
// the PVCs are never expanded. The fix records the target size in the
// status first, and expands the PVCs when it recreates the StatefulSet.
func (r *Reconciler) startResize(ctx context.Context, bc *BrokerCluster, sts *appsv1.StatefulSet) error {
	if r.Fixed && bc.Status.ResizingTo != bc.Spec.Storage {
		before := bc.DeepCopyObject().(*BrokerCluster)
		bc.Status.ResizingTo = bc.Spec.Storage
		if err := r.Status().Patch(ctx, bc, client.MergeFrom(before)); err != nil {
			return fmt.Errorf("record resize: %w", err)
		}
	}
	log.FromContext(ctx).Info("deleting statefulset, orphaning its pods", "statefulset", sts.Name)
	err := r.Delete(ctx, sts, client.PropagationPolicy(metav1.DeletePropagationOrphan))
	if client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("delete statefulset: %w", err)
	}
	if r.Fixed {
		return nil
	}
	return r.expandClaims(ctx, bc, bc.Spec.Storage)
}

// expandClaims grows the PVC of every member to size.
func (r *Reconciler) expandClaims(ctx context.Context, bc *BrokerCluster, size string) error {
	want, err := resource.ParseQuantity(size)
	if err != nil {
		return fmt.Errorf("storage %q: %w", size, err)
	}
	for i := range bc.Spec.Replicas {
		if err := r.expandClaim(ctx, bc.Namespace, claimName(bc, i), want); err != nil {
			return err
		}
	}
	return nil
}

// expandClaim grows one PVC to want, if it exists and is smaller.
func (r *Reconciler) expandClaim(ctx context.Context, ns, name string, want resource.Quantity) error {
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &pvc); err != nil {
		return client.IgnoreNotFound(err)
	}
	if pvc.Spec.Resources.Requests.Storage().Cmp(want) >= 0 {
		return nil
	}
	log.FromContext(ctx).Info("expanding pvc", "pvc", name, "storage", want.String())
	patch := client.MergeFrom(pvc.DeepCopy())
	pvc.Spec.Resources.Requests[corev1.ResourceStorage] = want
	if err := r.Patch(ctx, &pvc, patch); err != nil {
		return fmt.Errorf("expand pvc %s: %w", name, err)
	}
	return nil
}

// currentStatefulSet returns the BrokerCluster's StatefulSet, or nil.
func (r *Reconciler) currentStatefulSet(ctx context.Context, bc *BrokerCluster) (*appsv1.StatefulSet, error) {
	var sts appsv1.StatefulSet
	err := r.Get(ctx, types.NamespacedName{Namespace: bc.Namespace, Name: bc.Name}, &sts)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return &sts, err
}

// claimName is the name of member i's PVC, as the StatefulSet controller
// names it.
func claimName(bc *BrokerCluster, i int32) string {
	return "data-" + bc.Name + "-" + strconv.Itoa(int(i))
}

// claimSize is the storage the StatefulSet's claim template asks for.
func claimSize(sts *appsv1.StatefulSet) *resource.Quantity {
	return sts.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests.Storage()
}

// sameSize reports whether two StatefulSets ask for the same storage.
func sameSize(a, b *appsv1.StatefulSet) bool {
	return claimSize(a).Cmp(*claimSize(b)) == 0
}

// statefulSet is the StatefulSet a BrokerCluster wants: one pod and one PVC
// "data-NAME-i" per replica.
func (r *Reconciler) statefulSet(bc *BrokerCluster) (*appsv1.StatefulSet, error) {
	size, err := resource.ParseQuantity(bc.Spec.Storage)
	if err != nil {
		return nil, fmt.Errorf("spec.storage %q: %w", bc.Spec.Storage, err)
	}
	selector := map[string]string{instanceLabel: bc.Name}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: bc.Name, Namespace: bc.Namespace, Labels: selector},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &bc.Spec.Replicas,
			ServiceName: bc.Name,
			Selector:    &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: selector},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:         "broker",
					Image:        "registry.k8s.io/pause:3.10",
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
				}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data", Labels: selector},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{
						Requests: corev1.ResourceList{corev1.ResourceStorage: size},
					},
				},
			}},
		},
	}
	if bc.Spec.StorageClassName != "" {
		sts.Spec.VolumeClaimTemplates[0].Spec.StorageClassName = &bc.Spec.StorageClassName
	}
	return sts, controllerutil.SetControllerReference(bc, sts, r.Scheme())
}

// updateStatus reports readiness (and, with the fix, clears a finished
// resize); it writes only on change.
func (r *Reconciler) updateStatus(ctx context.Context, bc *BrokerCluster, sts *appsv1.StatefulSet) error {
	before := bc.DeepCopyObject().(*BrokerCluster)
	bc.Status.ResizingTo = ""
	bc.Status.ReadyReplicas = sts.Status.ReadyReplicas
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Starting", ObservedGeneration: bc.Generation}
	if sts.Status.ReadyReplicas == bc.Spec.Replicas {
		ready.Status, ready.Reason = metav1.ConditionTrue, "AllReplicasReady"
	}
	meta.SetStatusCondition(&bc.Status.Conditions, ready)
	if equalStatus(before.Status, bc.Status) {
		return nil
	}
	return r.Status().Patch(ctx, bc, client.MergeFrom(before))
}

// equalStatus reports whether two statuses agree, ignoring condition times.
func equalStatus(a, b BrokerClusterStatus) bool {
	if a.ReadyReplicas != b.ReadyReplicas || a.ResizingTo != b.ResizingTo || len(a.Conditions) != len(b.Conditions) {
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
