package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
)

// Backend says where a test's runs happen. The zero value is the embedded
// backend.
type Backend struct {
	// Name is "embedded" (the default, also when empty), "kind" or
	// "kubeconfig".
	Name string
	// Kubeconfig and Context name the existing cluster of the kubeconfig
	// backend.
	Kubeconfig, Context string
	// HostNetwork runs the controllers on the host's network, not each in
	// a private one (for a controller that must reach the outside).
	HostNetwork bool
	// Kubernetes is an older Kubernetes version the embedded backend runs
	// (controlplane.Lines); "" is its own, which kinds.DefaultKubernetes
	// names (For lowers it to "", over a test's older line).
	Kubernetes string
	// Progress receives the control-plane build's progress, when the
	// embedded or kind backend has to build it (default: nothing).
	Progress io.Writer
}

// For is the backend for test t: the test's Kubernetes line unless the
// backend names one already (the command line's --kubernetes wins over
// the spec, and may name the default line, kinds.DefaultKubernetes, to run
// a test of an older line on it). On another backend, whose cluster runs
// its own version, a test's line is told to Progress and left out.
func (b Backend) For(t *ir.Test) Backend {
	switch {
	case b.Kubernetes == kinds.DefaultKubernetes:
		b.Kubernetes = ""
	case t.Kubernetes == "" || b.Kubernetes != "":
	case kind(b) == "embedded":
		b.Kubernetes = t.Kubernetes
	case b.Progress != nil:
		fmt.Fprintf(b.Progress, "warning: test %s: kubernetes %q applies to the embedded backend; the %s backend runs its cluster's own version\n", t.Name, t.Kubernetes, kind(b))
	}
	return b
}

// kind is the backend's name, "embedded" when empty.
func kind(b Backend) string {
	if b.Name == "" {
		return "embedded"
	}
	return b.Name
}

// CheckBackend says what is wrong with b, for a user who set it.
func CheckBackend(b Backend) error {
	switch kind(b) {
	case "embedded", "kind":
		if b.Kubeconfig != "" || b.Context != "" {
			return fmt.Errorf("--kubeconfig and --context go with --backend kubeconfig")
		}
		if b.Kubernetes != "" {
			if kind(b) != "embedded" {
				return fmt.Errorf("--kubernetes goes with --backend embedded")
			}
			if _, err := controlplane.LookupLine(b.Kubernetes); b.Kubernetes != kinds.DefaultKubernetes && err != nil {
				return fmt.Errorf("--kubernetes: %w", err)
			}
		}
	case "kubeconfig":
		if b.Kubeconfig == "" {
			return fmt.Errorf("--backend kubeconfig needs --kubeconfig FILE (sieve never uses a cluster it was not pointed at)")
		}
		if b.Kubernetes != "" {
			return fmt.Errorf("--kubernetes goes with --backend embedded (an existing cluster runs its own version)")
		}
	default:
		return fmt.Errorf("--backend: unknown backend %q (want embedded, kind or kubeconfig)", b.Name)
	}
	return nil
}

// maxAutoWorkers caps the default number of workers: a plan spends
// most of its time waiting for the controller and the cluster, so on two
// processors two workers run twice as many plans in the same time, and
// more than four rarely pay for their memory.
const maxAutoWorkers = 4

// WorkerCount is the number of plans to run at once on backend b:
// parallel, or by default (0) one per processor (at most four) on the
// embedded backend, whose control planes are cheap, and 1 on the others (a
// kind cluster is not; an existing cluster is shared). On the embedded
// backend it is at most what the machine holds (embedded.Capacity), and
// never more than maxPlans when that is set. notes say, for a parallel
// asked for, why fewer are used.
func WorkerCount(b Backend, parallel, maxPlans int) (n int, notes []string) {
	if kind(b) == "kubeconfig" {
		return 1, nil
	}
	n = parallel
	if n == 0 {
		if kind(b) != "embedded" {
			return 1, nil
		}
		n = min(runtime.NumCPU(), maxAutoWorkers)
	}
	if kind(b) == "embedded" {
		if limit, bound := embedded.Capacity(); n > limit {
			if parallel > 0 {
				notes = append(notes, fmt.Sprintf("--parallel %d: this machine holds %d control plane(s) (%s); using %d", n, limit, bound, limit))
			}
			n = limit
		}
	}
	if maxPlans > 0 && n > maxPlans {
		if parallel > 0 {
			notes = append(notes, fmt.Sprintf("--parallel %d: at most %d plan(s) to run (--max-plans); using %d", n, maxPlans, maxPlans))
		}
		n = maxPlans
	}
	return n, notes
}

// StartWorkers starts n backends of kind b for the runs of controller c,
// in parallel (one only for an existing cluster: plans share it one after
// the other). The returned stop function stops every backend that
// started; it is never nil.
func StartWorkers(ctx context.Context, b Backend, c *ir.Controller, n int) ([]*session.Worker, func() error, error) {
	if kind(b) == "kubeconfig" {
		n = 1
	}
	if kind(b) == "kind" && c.Builtin != "" {
		// The built-in controller runs from the control-plane binary,
		// which a kind cluster does not otherwise need.
		if _, err := controlplane.Ensure(ctx, controlplane.Options{Progress: b.Progress}); err != nil {
			return nil, func() error { return nil }, err
		}
	}
	backends := make([]cluster.Backend, n)
	errs := make([]error, n)
	done := make(chan int)
	for i := range n {
		backends[i] = newBackend(b, c, i)
		go func() { errs[i] = backends[i].Start(ctx); done <- i }()
	}
	for range n {
		<-done
	}
	stop := func() error {
		var errs []error
		for _, b := range backends {
			errs = append(errs, b.Stop())
		}
		return errors.Join(errs...)
	}
	if err := joinDistinct(errs); err != nil {
		return nil, stop, err
	}
	ws := make([]*session.Worker, n)
	host := b.HostNetwork || hostNetwork(b.Progress)
	notePIDNamespaces(b.Progress)
	for i, be := range backends {
		ws[i] = &session.Worker{Backend: be, HostNetwork: host}
		// A built-in controller can be left out of clusters sieve creates,
		// not out of an existing one.
		if kind(b) != "kubeconfig" {
			ws[i].Builtin = builtinCommand
		}
	}
	return ws, stop, nil
}

// joinDistinct joins errs, leaving out those whose message an earlier one
// already has: backends that fail alike are reported once.
func joinDistinct(errs []error) error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	return errors.Join(out...)
}

// builtinCommand runs a built-in kube-controller-manager controller from
// the control-plane binary (found by then: the embedded backend's Start,
// or StartWorkers for kind, made sure of it).
func builtinCommand(name, kubeconfig string) []string {
	return embedded.BuiltinCommand("", name, kubeconfig)
}

// Disabled are the kube-controller-manager controllers a backend for
// controller c leaves out: those it replaces and the built-in controller
// under test. Backends with the same ones can run its tests.
func Disabled(c *ir.Controller) []string {
	disable := slices.Clone(c.Replaces)
	if c.Builtin != "" {
		disable = append(disable, c.Builtin)
	}
	return disable
}

// newBackend is backend i of kind b for controller c.
func newBackend(b Backend, c *ir.Controller, i int) cluster.Backend {
	switch kind(b) {
	case "kind":
		return cluster.NewKind(cluster.KindOptions{Name: fmt.Sprintf("sieve-%d", i), Disable: Disabled(c)})
	case "kubeconfig":
		return cluster.NewExisting(cluster.ExistingOptions{Path: b.Kubeconfig, Context: b.Context})
	}
	return embedded.New(embedded.Options{Disable: Disabled(c), Kubernetes: b.Kubernetes})
}

// hostNetwork reports whether controllers must share the host's network,
// and says so once per process, with what that costs.
func hostNetwork(progress io.Writer) bool {
	err := netns.Check()
	if err == nil {
		return false
	}
	hostNetworkOnce.Do(func() {
		fmt.Fprintf(progress, "warning: no private network per controller: %v; controllers share the host's network, so fixed ports may collide between workers and cluster DNS names do not resolve (run as root on Linux for private networks)\n", err)
	})
	return true
}

var hostNetworkOnce sync.Once

// notePIDNamespaces says once per process when the programs sieve runs
// (controllers, stand-ins) cannot have a PID namespace of their own, and
// what that costs.
func notePIDNamespaces(progress io.Writer) {
	err := proctree.Check()
	if err == nil {
		return
	}
	pidNamespacesOnce.Do(func() {
		fmt.Fprintf(progress, "warning: %v; a controller or stand-in is killed with its process group only, so a daemon it starts (setsid) may outlive its run\n", err)
	})
}

var pidNamespacesOnce sync.Once
