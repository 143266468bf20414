package main

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

const (
	// instanceLabel names the WebApp a StatefulSet or pod belongs to.
	instanceLabel = "app.kubernetes.io/instance"
	// configFile is the key of the configuration file in the ConfigMap.
	configFile = "server.conf"
)

// Reconciler drives a WebApp: it renders its configuration file into a
// ConfigMap, runs its servers as a StatefulSet that mounts it, and reports
// how many are ready.
type Reconciler struct {
	client.Client
	// Fixed turns on the fix: the configuration file is rendered anew on
	// every reconcile and updated when it differs, not only created.
	Fixed bool
}

// Reconcile brings one WebApp one step closer to its desired state.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var app WebApp
	if err := r.Get(ctx, req.NamespacedName, &app); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.ensureConfig(ctx, &app); err != nil {
		return ctrl.Result{}, err
	}
	sts, err := r.ensureStatefulSet(ctx, &app)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.updateStatus(ctx, &app, sts)
}

// ensureConfig creates the WebApp's ConfigMap with its configuration file.
//
// The bug: a ConfigMap that exists is left as it is, so the file keeps the
// settings the WebApp had when it was created. With the fix, a file that
// differs from the one the WebApp asks for now is updated.
func (r *Reconciler) ensureConfig(ctx context.Context, app *WebApp) error {
	want, err := r.configMap(app)
	if err != nil {
		return err
	}
	var cm corev1.ConfigMap
	err = r.Get(ctx, client.ObjectKeyFromObject(want), &cm)
	if apierrors.IsNotFound(err) {
		log.FromContext(ctx).Info("creating configuration", "configmap", want.Name)
		return r.Create(ctx, want)
	}
	if err != nil || !r.Fixed || cm.Data[configFile] == want.Data[configFile] {
		return err
	}
	cm.Data = want.Data
	log.FromContext(ctx).Info("updating configuration", "configmap", cm.Name)
	return r.Update(ctx, &cm)
}

// configMap is the ConfigMap "NAME-config" a WebApp wants: its
// configuration file, rendered from its spec.
func (r *Reconciler) configMap(app *WebApp) (*corev1.ConfigMap, error) {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: app.Name + "-config", Namespace: app.Namespace,
			Labels: map[string]string{instanceLabel: app.Name}},
		Data: map[string]string{configFile: render(app)},
	}
	return cm, controllerutil.SetControllerReference(app, cm, r.Scheme())
}

// render is a WebApp's configuration file.
func render(app *WebApp) string {
	return fmt.Sprintf("listen 8080\nlog-level %s\n", app.Spec.LogLevel)
}

// ensureStatefulSet creates the WebApp's StatefulSet, or brings its
// replica count to the WebApp's, and returns it.
func (r *Reconciler) ensureStatefulSet(ctx context.Context, app *WebApp) (*appsv1.StatefulSet, error) {
	var sts appsv1.StatefulSet
	err := r.Get(ctx, types.NamespacedName{Namespace: app.Namespace, Name: app.Name}, &sts)
	if apierrors.IsNotFound(err) {
		want, err := r.statefulSet(app)
		if err != nil {
			return nil, err
		}
		log.FromContext(ctx).Info("creating statefulset", "statefulset", want.Name)
		return want, r.Create(ctx, want)
	}
	if err != nil || sts.Spec.Replicas != nil && *sts.Spec.Replicas == app.Spec.Replicas {
		return &sts, err
	}
	log.FromContext(ctx).Info("scaling statefulset", "statefulset", sts.Name, "replicas", app.Spec.Replicas)
	sts.Spec.Replicas = &app.Spec.Replicas
	return &sts, r.Update(ctx, &sts)
}

// statefulSet is the StatefulSet a WebApp wants: one server pod per
// replica, each mounting the configuration file.
func (r *Reconciler) statefulSet(app *WebApp) (*appsv1.StatefulSet, error) {
	selector := map[string]string{instanceLabel: app.Name}
	replicas := app.Spec.Replicas
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: app.Name, Namespace: app.Namespace, Labels: selector},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &replicas,
			ServiceName: app.Name,
			Selector:    &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: selector},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{
						Name:         "server",
						Image:        "registry.k8s.io/pause:3.10",
						VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/server"}},
					}},
					Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{
						ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: app.Name + "-config"}},
					}}},
				},
			},
		},
	}
	return sts, controllerutil.SetControllerReference(app, sts, r.Scheme())
}

// updateStatus copies the StatefulSet's ready count into the WebApp's
// status; it writes only on change.
func (r *Reconciler) updateStatus(ctx context.Context, app *WebApp, sts *appsv1.StatefulSet) error {
	if app.Status.ReadyReplicas == sts.Status.ReadyReplicas {
		return nil
	}
	before := app.DeepCopyObject().(*WebApp)
	app.Status.ReadyReplicas = sts.Status.ReadyReplicas
	return r.Status().Patch(ctx, app, client.MergeFrom(before))
}
