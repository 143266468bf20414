package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

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

// instanceLabel names the Ring a StatefulSet, pod or PVC belongs to.
const instanceLabel = "app.kubernetes.io/instance"

// Reconciler drives a Ring: it runs it as a StatefulSet sized to
// spec.members and deletes the PVCs of the members that left.
type Reconciler struct {
	client.Client
	// Fixed turns on the fix: free the PVCs of departed members by looking
	// at which PVCs and pods exist, not at pods seen terminating.
	Fixed bool
}

// Reconcile brings one Ring one step closer to its desired state.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ring Ring
	if err := r.Get(ctx, req.NamespacedName, &ring); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sts, err := r.ensureStatefulSet(ctx, &ring)
	if err != nil {
		return ctrl.Result{}, err
	}
	free := r.claimsOfTerminatingPods
	if r.Fixed {
		free = r.claimsOfDepartedMembers
	}
	names, err := free(ctx, &ring)
	if err != nil {
		return ctrl.Result{}, err
	}
	for _, name := range names {
		if err := r.deleteClaim(ctx, ring.Namespace, name); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, r.updateStatus(ctx, &ring, sts)
}

// claimsOfTerminatingPods is the buggy rule: the PVC of a member at or beyond
// spec.members is freed when its pod is seen with a deletionTimestamp. If the
// controller never observes that state — in its view the pod goes from
// running straight to gone — the PVC is never freed.
func (r *Reconciler) claimsOfTerminatingPods(ctx context.Context, ring *Ring) ([]string, error) {
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(ring.Namespace), client.MatchingLabels{instanceLabel: ring.Name}); err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	var names []string
	for _, pod := range pods.Items {
		if ordinal(ring, pod.Name) >= ring.Spec.Members && !pod.DeletionTimestamp.IsZero() {
			names = append(names, "data-"+pod.Name)
		}
	}
	return names, nil
}

// claimsOfDepartedMembers is the fixed rule, computed from what exists: the
// PVC of every member at or beyond spec.members whose pod is gone or
// terminating.
func (r *Reconciler) claimsOfDepartedMembers(ctx context.Context, ring *Ring) ([]string, error) {
	var pvcs corev1.PersistentVolumeClaimList
	if err := r.List(ctx, &pvcs, client.InNamespace(ring.Namespace), client.MatchingLabels{instanceLabel: ring.Name}); err != nil {
		return nil, fmt.Errorf("list pvcs: %w", err)
	}
	var names []string
	for _, pvc := range pvcs.Items {
		pod := strings.TrimPrefix(pvc.Name, "data-")
		if ordinal(ring, pod) < ring.Spec.Members {
			continue
		}
		running, err := r.podRunning(ctx, ring.Namespace, pod)
		if err != nil {
			return nil, err
		}
		if !running {
			names = append(names, pvc.Name)
		}
	}
	return names, nil
}

// ordinal is the member number of pod NAME-i of ring, or -1 if the pod name
// is not of that form.
func ordinal(ring *Ring, pod string) int32 {
	i, err := strconv.ParseInt(strings.TrimPrefix(pod, ring.Name+"-"), 10, 32)
	if err != nil || !strings.HasPrefix(pod, ring.Name+"-") {
		return -1
	}
	return int32(i)
}

// podRunning reports whether the pod exists and is not being deleted.
func (r *Reconciler) podRunning(ctx context.Context, ns, name string) (bool, error) {
	var pod corev1.Pod
	err := r.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &pod)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	return err == nil && pod.DeletionTimestamp.IsZero(), err
}

// deleteClaim deletes a PVC unless it is already gone or going.
func (r *Reconciler) deleteClaim(ctx context.Context, ns, name string) error {
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &pvc); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !pvc.DeletionTimestamp.IsZero() {
		return nil
	}
	log.FromContext(ctx).Info("deleting pvc of departed member", "pvc", name)
	return client.IgnoreNotFound(r.Delete(ctx, &pvc))
}

// ensureStatefulSet creates the Ring's StatefulSet, or sets its replicas to
// spec.members, and returns it.
func (r *Reconciler) ensureStatefulSet(ctx context.Context, ring *Ring) (*appsv1.StatefulSet, error) {
	var sts appsv1.StatefulSet
	err := r.Get(ctx, types.NamespacedName{Namespace: ring.Namespace, Name: ring.Name}, &sts)
	if apierrors.IsNotFound(err) {
		return r.createStatefulSet(ctx, ring)
	}
	if err != nil || *sts.Spec.Replicas == ring.Spec.Members {
		return &sts, err
	}
	log.FromContext(ctx).Info("scaling statefulset", "statefulset", sts.Name, "replicas", ring.Spec.Members)
	patch := client.MergeFrom(sts.DeepCopy())
	sts.Spec.Replicas = &ring.Spec.Members
	return &sts, r.Patch(ctx, &sts, patch)
}

// createStatefulSet creates the StatefulSet a Ring wants: one pod "NAME-i"
// and one PVC "data-NAME-i" per member.
func (r *Reconciler) createStatefulSet(ctx context.Context, ring *Ring) (*appsv1.StatefulSet, error) {
	size, err := resource.ParseQuantity(ring.Spec.Storage)
	if err != nil {
		return nil, fmt.Errorf("spec.storage %q: %w", ring.Spec.Storage, err)
	}
	selector := map[string]string{instanceLabel: ring.Name}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: ring.Name, Namespace: ring.Namespace, Labels: selector},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &ring.Spec.Members,
			ServiceName: ring.Name,
			Selector:    &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: selector},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:         "member",
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
	if err := controllerutil.SetControllerReference(ring, sts, r.Scheme()); err != nil {
		return nil, err
	}
	log.FromContext(ctx).Info("creating statefulset", "statefulset", sts.Name)
	return sts, r.Create(ctx, sts)
}

// updateStatus reports readiness; it writes only on change.
func (r *Reconciler) updateStatus(ctx context.Context, ring *Ring, sts *appsv1.StatefulSet) error {
	before := ring.DeepCopyObject().(*Ring)
	ring.Status.ReadyMembers = sts.Status.ReadyReplicas
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Starting", ObservedGeneration: ring.Generation}
	if sts.Status.ReadyReplicas == ring.Spec.Members {
		ready.Status, ready.Reason = metav1.ConditionTrue, "AllMembersReady"
	}
	meta.SetStatusCondition(&ring.Status.Conditions, ready)
	if equalStatus(before.Status, ring.Status) {
		return nil
	}
	return r.Status().Patch(ctx, ring, client.MergeFrom(before))
}

// equalStatus reports whether two statuses agree, ignoring condition times.
func equalStatus(a, b RingStatus) bool {
	if a.ReadyMembers != b.ReadyMembers || len(a.Conditions) != len(b.Conditions) {
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
