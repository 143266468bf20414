// Command settings is the controller of the settings example: it runs a
// WebApp custom resource as a StatefulSet of web servers and renders the
// WebApp's settings into their configuration file, a ConfigMap the
// servers mount.
//
// It reproduces the shape of a bug that operators often have and that
// their own tests rarely reach: a property read when the object is
// created and ignored when it changes. Here the configuration file is
// written once, so a change of spec.logLevel never reaches the servers.
// Only an operation that changes spec.logLevel shows it, which sieve
// explore generates from the CRD's schema. --fixed turns on the fix. See
// ../README.md.
//
// Usage:
//
//	settings [--kubeconfig PATH] [--fixed]
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
	fixed := flag.Bool("fixed", false, "turn on the fix: bring the configuration file up to date when the WebApp changes")
	flag.Parse() // --kubeconfig is registered by controller-runtime
	if err := run(*fixed); err != nil {
		fmt.Fprintln(os.Stderr, "settings:", err)
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
		For(&WebApp{}).
		Owns(&appsv1.StatefulSet{}).
		Owns(&corev1.ConfigMap{}).
		Complete(&Reconciler{Client: mgr.GetClient(), Fixed: fixed})
	if err != nil {
		return fmt.Errorf("new controller: %w", err)
	}
	ctrl.Log.Info("starting", "fixed", fixed)
	return mgr.Start(ctrl.SetupSignalHandler())
}
