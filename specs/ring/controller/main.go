// Command ring is the controller of the ring example: it runs a Ring
// custom resource, a Cassandra-like store, as a StatefulSet whose pods
// each run an agent it calls at http://POD_IP:4567. To scale down, it
// records the node it takes out in the Ring's status, asks that node's
// agent to decommission it, and shrinks the StatefulSet once the node
// has left the ring. It elects a leader as controller-runtime's old
// "configmapsleases" lock did: a ConfigMap's leader annotation and a
// Lease, both renewed every retry period.
//
// It reproduces the shape of an intermediate-state bug: restarted after
// a crash between recording a decommission and asking the agent, it
// takes the node, still NORMAL, for decommissioned and shrinks the
// StatefulSet, so the ring keeps a dead member. --fixed turns on the
// fix. See ../README.md.
//
// Usage:
//
//	ring [--kubeconfig PATH] [--fixed] [--lease-duration D] [--renew-deadline D] [--retry-period D]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/go-logr/logr/funcr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// options are the command's flags.
type options struct {
	fixed                                bool
	namespace                            string
	leaseDuration, renewDeadline, period time.Duration
}

func main() {
	var o options
	flag.BoolVar(&o.fixed, "fixed", false, "turn on the fix: a recorded decommission is done only when the node's agent says DECOMMISSIONED")
	flag.StringVar(&o.namespace, "leader-election-namespace", "default", "the namespace of the leader-election lock")
	flag.DurationVar(&o.leaseDuration, "lease-duration", 15*time.Second, "how long a candidate waits before it takes over a lock its holder stopped renewing")
	flag.DurationVar(&o.renewDeadline, "renew-deadline", 10*time.Second, "how long the leader tries to renew before it gives up")
	flag.DurationVar(&o.period, "retry-period", 2*time.Second, "how often the leader renews, and a candidate tries")
	flag.Parse() // --kubeconfig is registered by controller-runtime
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "ring:", err)
		os.Exit(1)
	}
}

func run(o options) error {
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
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	lock, err := configMapsLeasesLock(cs, o.namespace, "ring-operator-lock")
	if err != nil {
		return err
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                              scheme,
		Metrics:                             metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:              "0",
		LeaderElection:                      true,
		LeaderElectionResourceLockInterface: lock,
		LeaseDuration:                       &o.leaseDuration,
		RenewDeadline:                       &o.renewDeadline,
		RetryPeriod:                         &o.period,
	})
	if err != nil {
		return fmt.Errorf("new manager: %w", err)
	}
	err = ctrl.NewControllerManagedBy(mgr).
		For(&Ring{}).
		Owns(&appsv1.StatefulSet{}).
		Watches(&corev1.Pod{}, handler.EnqueueRequestsFromMapFunc(ringOfPod)).
		Complete(&Reconciler{Client: mgr.GetClient(), Agents: newHTTPAgents(), Fixed: o.fixed})
	if err != nil {
		return fmt.Errorf("new controller: %w", err)
	}
	ctrl.Log.Info("starting", "fixed", o.fixed, "lock", lock.Describe(), "identity", lock.Identity())
	return mgr.Start(ctrl.SetupSignalHandler())
}

// ringOfPod maps a node's pod to its Ring.
func ringOfPod(_ context.Context, o client.Object) []reconcile.Request {
	name := o.GetLabels()["ring"]
	if o.GetLabels()["app"] != "ring-node" || name == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: name}}}
}
