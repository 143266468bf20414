package main

import (
	"context"
	"strings"
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

// TestChange creates WebApp web (log level info, two replicas), then
// changes one property and reconciles again: the buggy controller brings
// the StatefulSet to a new replica count but leaves the configuration
// file as it was created; the fixed one brings both up to date.
func TestChange(t *testing.T) {
	tests := []struct {
		name     string
		fixed    bool
		change   func(*WebApp)
		level    string // in the configuration file after the change
		replicas int32  // of the StatefulSet after the change
	}{
		{"log level, buggy: ignored", false, func(a *WebApp) { a.Spec.LogLevel = "debug" }, "info", 2},
		{"log level, fixed", true, func(a *WebApp) { a.Spec.LogLevel = "debug" }, "debug", 2},
		{"replicas, buggy", false, func(a *WebApp) { a.Spec.Replicas = 3 }, "info", 3},
		{"replicas, fixed", true, func(a *WebApp) { a.Spec.Replicas = 3 }, "info", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, webApp("info", 2))
			r := &Reconciler{Client: c, Fixed: tt.fixed}
			reconcile(t, r)
			var app WebApp
			get(t, c, "web", &app)
			tt.change(&app)
			if err := c.Update(context.Background(), &app); err != nil {
				t.Fatal(err)
			}
			reconcile(t, r)
			var cm corev1.ConfigMap
			get(t, c, "web-config", &cm)
			if want := "log-level " + tt.level + "\n"; !strings.Contains(cm.Data[configFile], want) {
				t.Errorf("configuration file %q, want it to say %q", cm.Data[configFile], want)
			}
			var sts appsv1.StatefulSet
			get(t, c, "web", &sts)
			if *sts.Spec.Replicas != tt.replicas {
				t.Errorf("statefulset replicas = %d, want %d", *sts.Spec.Replicas, tt.replicas)
			}
		})
	}
}

// TestCreate creates the objects of a new WebApp: its configuration file,
// and a StatefulSet that mounts it, both owned by the WebApp.
func TestCreate(t *testing.T) {
	c := newClient(t, webApp("warn", 2))
	reconcile(t, &Reconciler{Client: c})
	var cm corev1.ConfigMap
	get(t, c, "web-config", &cm)
	if got := cm.Data[configFile]; got != "listen 8080\nlog-level warn\n" {
		t.Errorf("configuration file %q", got)
	}
	var sts appsv1.StatefulSet
	get(t, c, "web", &sts)
	vols := sts.Spec.Template.Spec.Volumes
	if len(vols) != 1 || vols[0].ConfigMap == nil || vols[0].ConfigMap.Name != "web-config" {
		t.Errorf("statefulset volumes %+v, want the configuration mounted", vols)
	}
	for _, o := range []metav1.Object{&cm, &sts} {
		if refs := o.GetOwnerReferences(); len(refs) != 1 || refs[0].Kind != "WebApp" {
			t.Errorf("%s: owner references %+v, want the WebApp", o.GetName(), refs)
		}
	}
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
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(&WebApp{}).Build()
}

func webApp(level string, replicas int32) *WebApp {
	return &WebApp{
		TypeMeta:   metav1.TypeMeta{APIVersion: groupVersion().String(), Kind: "WebApp"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "uid-web"},
		Spec:       WebAppSpec{Replicas: replicas, LogLevel: level},
	}
}

// reconcile reconciles WebApp web once; it must succeed.
func reconcile(t *testing.T, r *Reconciler) {
	t.Helper()
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "web"}}
	if _, err := r.Reconcile(context.Background(), req); err != nil {
		t.Fatalf("reconcile: %v", err)
	}
}

func get(t *testing.T, c client.Client, name string, obj client.Object) {
	t.Helper()
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: name}, obj); err != nil {
		t.Fatalf("get %s: %v", name, err)
	}
}
