// Command ensemble is the controller of the ensemble example: it runs an
// Ensemble custom resource as a StatefulSet with one PVC per member and
// keeps the application's membership through its members API, reached at
// the client Service's cluster DNS name. To scale down, it asks the
// members API to remove each departing member, shrinks the StatefulSet
// and deletes the departed members' PVCs.
//
// It reproduces the shape of a stale-state bug (zookeeper-operator #314):
// restarted against a stale view, it sees an old, smaller spec.replicas
// and scales the live ensemble back down, deleting a live member's PVC.
// --fixed turns on the fix. See ../README.md.
//
// Usage:
//
//	ensemble [--kubeconfig PATH] [--fixed]
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
	fixed := flag.Bool("fixed", false, "turn on the fix: scale down only if the members API is not ahead of the Ensemble seen")
	flag.Parse() // --kubeconfig is registered by controller-runtime
	if err := run(*fixed); err != nil {
		fmt.Fprintln(os.Stderr, "ensemble:", err)
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
	err = ctrl.NewControllerManagedBy(mgr).
		For(&Ensemble{}).
		Owns(&appsv1.StatefulSet{}).
		Owns(&corev1.Service{}).
		Complete(&Reconciler{Client: mgr.GetClient(), Members: newHTTPMembers(), Fixed: fixed})
	if err != nil {
		return fmt.Errorf("new controller: %w", err)
	}
	ctrl.Log.Info("starting", "fixed", fixed)
	return mgr.Start(ctrl.SetupSignalHandler())
}
