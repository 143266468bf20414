// Command datastore is the controller of the datastore example: it runs a
// Datastore custom resource as a StatefulSet and, through a finalizer,
// deletes the Datastore's PVCs when the Datastore is deleted.
//
// It reproduces the shape of a stale-state bug (cass-operator K8SSAND-559,
// zookeeper-operator #312): restarted against a stale view, it sees an old,
// deleting Datastore while a new one of the same name is live, and deletes
// the live PVCs. --fixed turns on the fix. See ../README.md.
//
// Usage:
//
//	datastore [--kubeconfig PATH] [--fixed]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/go-logr/logr/funcr"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func main() {
	fixed := flag.Bool("fixed", false, "turn on the fix: delete only the PVCs of the Datastore with the same UID")
	flag.Parse() // --kubeconfig is registered by controller-runtime
	if err := run(*fixed); err != nil {
		fmt.Fprintln(os.Stderr, "datastore:", err)
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
		For(&Datastore{}).
		Owns(&appsv1.StatefulSet{}).
		Complete(&Reconciler{Client: mgr.GetClient(), Fixed: fixed})
	if err != nil {
		return fmt.Errorf("new controller: %w", err)
	}
	ctrl.Log.Info("starting", "fixed", fixed)
	return mgr.Start(ctrl.SetupSignalHandler())
}
