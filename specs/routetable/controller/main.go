// Command routetable is the controller of the routetable example: it
// publishes each Route custom resource as an entry of the ConfigMap
// "routes" in the Route's namespace, the routing table a gateway loads.
//
// It reproduces the shape of a bug many operators have: an update refused
// with 409 Conflict is taken for "someone else is on it" and dropped. The
// controller does not watch the ConfigMap, the Route did not change, and
// resyncs do not reconcile it, so nothing brings the Route back: its entry
// is not published until the controller restarts. --fixed turns on the
// fix. See ../README.md.
//
// Usage:
//
//	routetable [--kubeconfig PATH] [--fixed]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/go-logr/logr/funcr"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

func main() {
	fixed := flag.Bool("fixed", false, "turn on the fix: retry an update of the routing table refused with a conflict")
	flag.Parse() // --kubeconfig is registered by controller-runtime
	if err := run(*fixed); err != nil {
		fmt.Fprintln(os.Stderr, "routetable:", err)
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
	// The routing table is read from the API server, not from a cache: the
	// controller does not watch ConfigMaps. It reconciles a Route when it
	// appears or its spec changes (a new generation), not at its informer's
	// resyncs and relists, which change nothing.
	r := &Reconciler{Client: mgr.GetClient(), Table: mgr.GetAPIReader(), Fixed: fixed}
	err = ctrl.NewControllerManagedBy(mgr).
		For(&Route{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Complete(r)
	if err != nil {
		return fmt.Errorf("new controller: %w", err)
	}
	ctrl.Log.Info("starting", "fixed", fixed)
	return mgr.Start(ctrl.SetupSignalHandler())
}
