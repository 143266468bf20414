package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// instanceLabel names the Ensemble a StatefulSet, pod or Service belongs
// to.
const instanceLabel = "app.kubernetes.io/instance"

// Reconciler drives an Ensemble: its client Service, its StatefulSet, the
// membership kept by the members API, and its status.
type Reconciler struct {
	client.Client
	Members MembersAPI
	// Fixed turns on the fix: before scaling down, check that the members
	// API has not seen a newer generation of the Ensemble than the one in
	// hand, which would mean the controller's view is stale.
	Fixed bool
}

// Reconcile brings one Ensemble one step closer to its desired state.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var e Ensemble
	if err := r.Get(ctx, req.NamespacedName, &e); err != nil || !e.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.ensureService(ctx, &e); err != nil {
		return ctrl.Result{}, err
	}
	sts, err := r.ensureStatefulSet(ctx, &e)
	if err != nil {
		return ctrl.Result{}, err
	}
	m, err := r.Members.List(ctx, &e)
	if err != nil {
		return ctrl.Result{}, err
	}
	log.FromContext(ctx).Info("members", "api", Host(&e), "generation", m.Generation, "members", m.Members)
	if e.Spec.Replicas < *sts.Spec.Replicas {
		return r.scaleDown(ctx, &e, sts, m)
	}
	if err := r.scaleUp(ctx, &e, sts, &m); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.updateStatus(ctx, &e, sts, m)
}

// scaleDown removes the members from spec.replicas up from the ensemble,
// highest first, shrinks the StatefulSet, and deletes the departed
// members' PVCs (a member that joins again starts with empty data).
//
// The bug: it trusts spec.replicas as seen. A controller restarted against
// a stale view sees an older, smaller spec.replicas after the user scaled
// back up, and removes live members and deletes their data.
func (r *Reconciler) scaleDown(ctx context.Context, e *Ensemble, sts *appsv1.StatefulSet, m Membership) (ctrl.Result, error) {
	if r.Fixed && m.Generation > e.Generation {
		log.FromContext(ctx).Info("stale view, not scaling down", "generation", e.Generation, "members api generation", m.Generation)
		return ctrl.Result{RequeueAfter: time.Second}, nil
	}
	from := *sts.Spec.Replicas
	for i := from - 1; i >= e.Spec.Replicas; i-- {
		log.FromContext(ctx).Info("removing member", "member", member(e, i))
		if err := r.Members.Remove(ctx, e, member(e, i), e.Generation); err != nil {
			return ctrl.Result{}, err
		}
	}
	before := sts.DeepCopy()
	sts.Spec.Replicas = &e.Spec.Replicas
	log.FromContext(ctx).Info("scaling down", "statefulset", sts.Name, "from", from, "to", e.Spec.Replicas)
	if err := r.Patch(ctx, sts, client.MergeFrom(before)); err != nil {
		return ctrl.Result{}, err
	}
	for i := e.Spec.Replicas; i < from; i++ {
		if err := r.deleteClaim(ctx, e, i); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// scaleUp makes every member below spec.replicas join the ensemble, then
// grows the StatefulSet to spec.replicas; m is updated with the joins.
// The ensemble hears of a change before Kubernetes does, so that what a
// scale-up creates (a member's pod and PVC) is never newer than the
// generation the members API holds.
func (r *Reconciler) scaleUp(ctx context.Context, e *Ensemble, sts *appsv1.StatefulSet, m *Membership) error {
	for i := range e.Spec.Replicas {
		name := member(e, i)
		if slices.Contains(m.Members, name) {
			continue
		}
		log.FromContext(ctx).Info("adding member", "member", name)
		if err := r.Members.Add(ctx, e, name, e.Generation); err != nil {
			return err
		}
		m.Members, m.Generation = append(m.Members, name), e.Generation
	}
	if e.Spec.Replicas <= *sts.Spec.Replicas {
		return nil
	}
	before := sts.DeepCopy()
	sts.Spec.Replicas = &e.Spec.Replicas
	log.FromContext(ctx).Info("scaling up", "statefulset", sts.Name, "to", e.Spec.Replicas)
	return r.Patch(ctx, sts, client.MergeFrom(before))
}

// deleteClaim deletes the PVC of member i, if it is there.
func (r *Reconciler) deleteClaim(ctx context.Context, e *Ensemble, i int32) error {
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data-" + member(e, i), Namespace: e.Namespace}}
	log.FromContext(ctx).Info("deleting pvc", "pvc", pvc.Name)
	return client.IgnoreNotFound(r.Delete(ctx, pvc))
}

// ensureService creates the Ensemble's client Service if it is missing.
func (r *Reconciler) ensureService(ctx context.Context, e *Ensemble) error {
	var svc corev1.Service
	err := r.Get(ctx, types.NamespacedName{Namespace: e.Namespace, Name: clientService(e)}, &svc)
	if !apierrors.IsNotFound(err) {
		return err
	}
	svc = corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: clientService(e), Namespace: e.Namespace, Labels: labels(e)},
		Spec: corev1.ServiceSpec{
			Selector: labels(e),
			Ports:    []corev1.ServicePort{{Name: "members", Port: membersPort, TargetPort: intstr.FromInt32(membersPort)}},
		},
	}
	if err := controllerutil.SetControllerReference(e, &svc, r.Scheme()); err != nil {
		return err
	}
	log.FromContext(ctx).Info("creating service", "service", svc.Name)
	return r.Create(ctx, &svc)
}

// ensureStatefulSet creates the Ensemble's StatefulSet if it is missing and
// returns it.
func (r *Reconciler) ensureStatefulSet(ctx context.Context, e *Ensemble) (*appsv1.StatefulSet, error) {
	var sts appsv1.StatefulSet
	err := r.Get(ctx, types.NamespacedName{Namespace: e.Namespace, Name: e.Name}, &sts)
	if !apierrors.IsNotFound(err) {
		return &sts, err
	}
	want, err := r.statefulSet(e)
	if err != nil {
		return nil, err
	}
	log.FromContext(ctx).Info("creating statefulset", "statefulset", want.Name)
	return want, r.Create(ctx, want)
}

// statefulSet is the StatefulSet an Ensemble wants: one pod and one PVC
// "data-NAME-i" of 1Gi per replica.
func (r *Reconciler) statefulSet(e *Ensemble) (*appsv1.StatefulSet, error) {
	replicas := e.Spec.Replicas
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: e.Name, Namespace: e.Namespace, Labels: labels(e)},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &replicas,
			ServiceName: clientService(e),
			Selector:    &metav1.LabelSelector{MatchLabels: labels(e)},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels(e)},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:         "member",
					Image:        "registry.k8s.io/pause:3.10",
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
				}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data", Labels: labels(e)},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{
						Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")},
					},
				},
			}},
		},
	}
	return sts, controllerutil.SetControllerReference(e, sts, r.Scheme())
}

// updateStatus writes the ready replicas and the members API's member
// count into the Ensemble's status, on change only.
func (r *Reconciler) updateStatus(ctx context.Context, e *Ensemble, sts *appsv1.StatefulSet, m Membership) error {
	want := EnsembleStatus{ReadyReplicas: sts.Status.ReadyReplicas, Members: int32(len(m.Members))}
	if e.Status == want {
		return nil
	}
	before := e.DeepCopyObject().(*Ensemble)
	e.Status = want
	return r.Status().Patch(ctx, e, client.MergeFrom(before))
}

// clientService is the name of the Ensemble's client Service, where its
// members API answers.
func clientService(e *Ensemble) string { return e.Name + "-client" }

// member is the name of member i: its pod's name.
func member(e *Ensemble, i int32) string { return fmt.Sprintf("%s-%d", e.Name, i) }

func labels(e *Ensemble) map[string]string { return map[string]string{instanceLabel: e.Name} }
