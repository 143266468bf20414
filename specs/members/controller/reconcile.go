package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

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

// instanceLabel names the Store a StatefulSet, pod, PVC or Service
// belongs to.
const instanceLabel = "app.kubernetes.io/instance"

// Reconciler drives a Store: its admin Service, its StatefulSet, the
// member list kept by the admin API, the departed members' PVCs, and its
// status.
type Reconciler struct {
	client.Client
	// Claims lists PVCs from the API server (the controller does not
	// watch them, so it has no cache of them).
	Claims client.Reader
	Admin  AdminAPI
	// Fixed turns on the fix: a member the admin API did not confirm
	// removed is retried, and nothing is deleted until it is.
	Fixed bool
}

// Reconcile brings one Store one step closer to its desired state.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var s Store
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil || !s.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.ensureService(ctx, &s); err != nil {
		return ctrl.Result{}, err
	}
	sts, err := r.ensureStatefulSet(ctx, &s)
	if err != nil {
		return ctrl.Result{}, err
	}
	members, err := r.Admin.Members(ctx, &s)
	if err != nil {
		return ctrl.Result{}, err
	}
	log.FromContext(ctx).Info("members", "api", Host(&s), "members", members)
	if err := r.updateStatus(ctx, &s, sts, members); err != nil {
		return ctrl.Result{}, err
	}
	if s.Spec.Replicas < *sts.Spec.Replicas {
		err = r.scaleDown(ctx, &s, sts)
	} else {
		err = r.scaleUp(ctx, &s, sts, members)
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.deleteDepartedClaims(ctx, &s, *sts.Spec.Replicas)
}

// scaleDown asks the admin API to remove the members from spec.replicas
// up, highest first, then shrinks the StatefulSet (which deletes their
// pods); their PVCs go next (deleteDepartedClaims).
//
// The bug: a remove call that fails (a 5xx, a reset connection) is taken
// for done. The member stays in the store's member list, counted in its
// quorum, while its pod and its data are deleted, and nothing asks the
// admin API again: the StatefulSet has shrunk, so no later reconcile
// scales down.
func (r *Reconciler) scaleDown(ctx context.Context, s *Store, sts *appsv1.StatefulSet) error {
	from := *sts.Spec.Replicas
	for i := from - 1; i >= s.Spec.Replicas; i-- {
		m := member(s, i)
		log.FromContext(ctx).Info("removing member", "member", m)
		err := r.Admin.Remove(ctx, s, m)
		if err != nil && r.Fixed {
			// Fixed: the error requeues the Store with a backoff, and the
			// remove call is made again until the admin API confirms it.
			return fmt.Errorf("remove member %s: %w", m, err)
		}
		if err != nil {
			log.FromContext(ctx).Info("remove member failed, taking it as gone", "member", m, "error", err.Error())
		}
	}
	before := sts.DeepCopy()
	sts.Spec.Replicas = &s.Spec.Replicas
	log.FromContext(ctx).Info("scaling down", "statefulset", sts.Name, "from", from, "to", s.Spec.Replicas)
	return r.Patch(ctx, sts, client.MergeFrom(before))
}

// scaleUp makes every member below spec.replicas that the admin API does
// not list join the store, then grows the StatefulSet to spec.replicas.
func (r *Reconciler) scaleUp(ctx context.Context, s *Store, sts *appsv1.StatefulSet, members []string) error {
	for i := range s.Spec.Replicas {
		m := member(s, i)
		if slices.Contains(members, m) {
			continue
		}
		log.FromContext(ctx).Info("adding member", "member", m)
		if err := r.Admin.Join(ctx, s, m); err != nil {
			return fmt.Errorf("add member %s: %w", m, err)
		}
	}
	if s.Spec.Replicas <= *sts.Spec.Replicas {
		return nil
	}
	before := sts.DeepCopy()
	sts.Spec.Replicas = &s.Spec.Replicas
	log.FromContext(ctx).Info("scaling up", "statefulset", sts.Name, "to", s.Spec.Replicas)
	return r.Patch(ctx, sts, client.MergeFrom(before))
}

// deleteDepartedClaims deletes the PVCs of the members at or above
// replicas, the StatefulSet's size: a member that joins again starts with
// empty data. It runs on every reconcile, so a PVC whose delete a crash
// cut off goes on the next one.
func (r *Reconciler) deleteDepartedClaims(ctx context.Context, s *Store, replicas int32) error {
	var claims corev1.PersistentVolumeClaimList
	if err := r.Claims.List(ctx, &claims, client.InNamespace(s.Namespace), client.MatchingLabels(labels(s))); err != nil {
		return fmt.Errorf("list pvcs: %w", err)
	}
	for i := range claims.Items {
		pvc := &claims.Items[i]
		n, ok := claimOrdinal(s, pvc.Name)
		if !ok || n < replicas || !pvc.DeletionTimestamp.IsZero() {
			continue
		}
		log.FromContext(ctx).Info("deleting pvc", "pvc", pvc.Name)
		if err := r.Delete(ctx, pvc); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	return nil
}

// claimOrdinal returns the ordinal of the member whose PVC is named name
// ("data-NAME-i"), and whether name is such a PVC.
func claimOrdinal(s *Store, name string) (int32, bool) {
	rest, ok := strings.CutPrefix(name, "data-"+s.Name+"-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 32)
	return int32(n), err == nil && n >= 0
}

// ensureService creates the Store's admin Service if it is missing.
func (r *Reconciler) ensureService(ctx context.Context, s *Store) error {
	var svc corev1.Service
	err := r.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: adminService(s)}, &svc)
	if !apierrors.IsNotFound(err) {
		return err
	}
	svc = corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: adminService(s), Namespace: s.Namespace, Labels: labels(s)},
		Spec: corev1.ServiceSpec{
			Selector: labels(s),
			Ports:    []corev1.ServicePort{{Name: "admin", Port: adminPort, TargetPort: intstr.FromInt32(adminPort)}},
		},
	}
	if err := controllerutil.SetControllerReference(s, &svc, r.Scheme()); err != nil {
		return err
	}
	log.FromContext(ctx).Info("creating service", "service", svc.Name)
	return r.Create(ctx, &svc)
}

// ensureStatefulSet creates the Store's StatefulSet if it is missing and
// returns it.
func (r *Reconciler) ensureStatefulSet(ctx context.Context, s *Store) (*appsv1.StatefulSet, error) {
	var sts appsv1.StatefulSet
	err := r.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Name}, &sts)
	if !apierrors.IsNotFound(err) {
		return &sts, err
	}
	want, err := r.statefulSet(s)
	if err != nil {
		return nil, err
	}
	log.FromContext(ctx).Info("creating statefulset", "statefulset", want.Name)
	return want, r.Create(ctx, want)
}

// statefulSet is the StatefulSet a Store wants: one pod and one PVC
// "data-NAME-i" of 1Gi per replica.
func (r *Reconciler) statefulSet(s *Store) (*appsv1.StatefulSet, error) {
	replicas := s.Spec.Replicas
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace, Labels: labels(s)},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &replicas,
			ServiceName: adminService(s),
			Selector:    &metav1.LabelSelector{MatchLabels: labels(s)},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels(s)},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:         "member",
					Image:        "registry.k8s.io/pause:3.10",
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
				}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data", Labels: labels(s)},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{
						Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")},
					},
				},
			}},
		},
	}
	return sts, controllerutil.SetControllerReference(s, sts, r.Scheme())
}

// updateStatus writes the ready replicas and the admin API's member list
// into the Store's status, on change only.
func (r *Reconciler) updateStatus(ctx context.Context, s *Store, sts *appsv1.StatefulSet, members []string) error {
	members = slices.Sorted(slices.Values(members))
	if s.Status.ReadyReplicas == sts.Status.ReadyReplicas && slices.Equal(s.Status.Members, members) {
		return nil
	}
	before := s.DeepCopyObject().(*Store)
	s.Status = StoreStatus{ReadyReplicas: sts.Status.ReadyReplicas, Members: members}
	return r.Status().Patch(ctx, s, client.MergeFrom(before))
}

// adminService is the name of the Store's admin Service, where its admin
// API answers.
func adminService(s *Store) string { return s.Name + "-admin" }

// member is the name of member i: its pod's name.
func member(s *Store, i int32) string { return fmt.Sprintf("%s-%d", s.Name, i) }

func labels(s *Store) map[string]string { return map[string]string{instanceLabel: s.Name} }
