// Command members is the controller of the members example: it runs a
// Store custom resource, a replicated key-value store, as a StatefulSet
// with one PVC per member, and keeps the store's member list through its
// admin API, reached at the admin Service's cluster DNS name. To scale
// down, it asks the admin API to remove each departing member, shrinks the
// StatefulSet (which deletes the members' pods) and deletes their PVCs.
//
// It reproduces the shape of a bug where an operator mishandles its
// application's error: a remove call that fails (a 5xx, a reset
// connection) is taken for done, so the member's pod and data are deleted
// while the store still counts it as a member. --fixed turns on the fix.
// See ../README.md.
//
// Usage:
//
//	members [--kubeconfig PATH] [--fixed]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/go-logr/logr/funcr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func main() {
	fixed := flag.Bool("fixed", false, "turn on the fix: retry a remove call the admin API did not confirm, and delete nothing until it does")
	flag.Parse() // --kubeconfig is registered by controller-runtime
	if err := run(*fixed); err != nil {
		fmt.Fprintln(os.Stderr, "members:", err)
		os.Exit(1)
	}
}

func run(fixed bool) error {
	ctrl.SetLogger(funcr.New(func(prefix, args string) {
		fmt.Fprintln(os.Stderr, prefix, args)
	}, funcr.Options{}))
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return err
	}
	if err := addToScheme(scheme); err != nil {
		return err
	}
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return fmt.Errorf("load kubeconfig: %w", err)
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		return fmt.Errorf("new manager: %w", err)
	}
	r := &Reconciler{Client: mgr.GetClient(), Claims: mgr.GetAPIReader(), Admin: newHTTPAdmin(), Fixed: fixed}
	err = ctrl.NewControllerManagedBy(mgr).
		For(&Store{}).
		Owns(&appsv1.StatefulSet{}).
		Owns(&corev1.Service{}).
		Complete(r)
	if err != nil {
		return fmt.Errorf("new controller: %w", err)
	}
	ctrl.Log.Info("starting", "fixed", fixed)
	return mgr.Start(ctrl.SetupSignalHandler())
}
