package component

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// Names of the components Run knows.
const (
	Etcd              = "etcd"
	APIServer         = "kube-apiserver"
	ControllerManager = "kube-controller-manager"
	Scheduler         = "kube-scheduler"
	NodeSim           = "nodesim"
)

// Flags that Run itself understands; they are removed before the arguments
// reach the component.
const (
	// FlagLifeline makes the process exit when file descriptor 3 reaches end
	// of file, that is when the parent that holds the write end dies.
	FlagLifeline = "--sieve-lifeline"
	// FlagWaitHealthy makes a client component wait until the API server
	// of its --kubeconfig answers /healthz before it starts, so that it can
	// be started in parallel with the API server without the component's
	// own one-second polling of /healthz (the controller manager's).
	FlagWaitHealthy = "--sieve-wait-healthy"
	// FlagWaitServing makes a client component wait only until the API
	// server serves requests (/version), before its post-start hooks have
	// finished: enough for a component that only lists and watches with
	// an admin identity.
	FlagWaitServing = "--sieve-wait-serving"
)

// lifelineFD is the file descriptor of the lifeline pipe (ExtraFiles[0]).
const lifelineFD = 3

// runFunc runs a component; ctx ends on SIGINT or SIGTERM.
type runFunc func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// runner is one component. A Kubernetes command installs its own signal
// handling, so Run must not catch signals for it (a caught SIGTERM would
// not end the process).
type runner struct {
	run         runFunc
	ownsSignals bool
}

func runners() map[string]runner {
	return map[string]runner{
		Etcd:              {run: runEtcd},
		APIServer:         {run: runAPIServer, ownsSignals: true},
		ControllerManager: {run: runControllerManager, ownsSignals: true},
		Scheduler:         {run: runScheduler, ownsSignals: true},
		NodeSim:           {run: runNodeSim},
	}
}

// Names lists the components Run knows, sorted.
func Names() []string {
	var names []string
	for n := range runners() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Run runs the named component with args until it fails or the process is
// told to stop. It must be called at most once per process.
func Run(name string, args []string, stdout, stderr io.Writer) error {
	r, ok := runners()[name]
	if !ok {
		return fmt.Errorf("unknown component %q (want one of %s)", name, strings.Join(Names(), ", "))
	}
	args, lifeline := takeFlag(args, FlagLifeline)
	args, waitHealthy := takeFlag(args, FlagWaitHealthy)
	args, waitServing := takeFlag(args, FlagWaitServing)
	if lifeline {
		go watchLifeline()
	}
	if err := startProfile(name, stderr); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if waitHealthy || waitServing {
		path := "/healthz"
		if !waitHealthy {
			path = "/version"
		}
		if err := waitAPI(ctx, kubeconfigArg(args), path); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if r.ownsSignals {
		stop()
	}
	return r.run(ctx, args, stdout, stderr)
}

// takeFlag removes every occurrence of the boolean flag from args.
func takeFlag(args []string, flag string) ([]string, bool) {
	var out []string
	found := false
	for _, a := range args {
		if a == flag {
			found = true
			continue
		}
		out = append(out, a)
	}
	return out, found
}

// kubeconfigArg returns the value of --kubeconfig in args, or "".
func kubeconfigArg(args []string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--kubeconfig="); ok {
			return v
		}
		if a == "--kubeconfig" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// watchLifeline exits the process once the parent's end of the lifeline
// pipe is closed.
func watchLifeline() {
	f := os.NewFile(lifelineFD, "lifeline")
	if f == nil {
		return
	}
	_, _ = io.Copy(io.Discard, f)
	os.Exit(3)
}
