// Command podreaper is the controller of the podreaper example: it runs a
// Ring custom resource as a StatefulSet sized to spec.members and, when the
// ring shrinks, deletes the PVCs of the members that left.
//
// It reproduces the shape of an unobserved-state bug (cassandra-operator
// #398): it frees a member's PVC only when it sees the member's pod with a
// deletionTimestamp; if that state is never observed, the PVC leaks.
// --fixed turns on the fix. See ../README.md.
//
// Usage:
//
//	podreaper [--kubeconfig PATH] [--fixed]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/go-logr/logr/funcr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func main() {
	fixed := flag.Bool("fixed", false, "turn on the fix: free PVCs from the pods and PVCs that exist, not from pods seen terminating")
	flag.Parse() // --kubeconfig is registered by controller-runtime
	if err := run(*fixed); err != nil {
		fmt.Fprintln(os.Stderr, "podreaper:", err)
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
		For(&Ring{}).
		Owns(&appsv1.StatefulSet{}).
		Watches(&corev1.Pod{}, handler.EnqueueRequestsFromMapFunc(ringOfPod)).
		Complete(&Reconciler{Client: mgr.GetClient(), Fixed: fixed})
	if err != nil {
		return fmt.Errorf("new controller: %w", err)
	}
	ctrl.Log.Info("starting", "fixed", fixed)
	return mgr.Start(ctrl.SetupSignalHandler())
}

// ringOfPod maps a pod to the Ring it is a member of, by its instance label.
func ringOfPod(_ context.Context, pod client.Object) []ctrl.Request {
	name, ok := pod.GetLabels()[instanceLabel]
	if !ok {
		return nil
	}
	return []ctrl.Request{{NamespacedName: types.NamespacedName{Namespace: pod.GetNamespace(), Name: name}}}
}
