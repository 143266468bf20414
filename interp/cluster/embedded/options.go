package embedded

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sievetool/sieve/lang/kinds"
)

// Options configure a Cluster. The zero value is the default.
type Options struct {
	// Binary is the sieve-controlplane binary that runs the components
	// (default: the one controlplane.Ensure finds, or builds on first use).
	Binary string
	// Nodes is the number of simulated nodes (default 1).
	Nodes int
	// Controllers are the kube-controller-manager controllers to run
	// (default DefaultControllers()). Names may omit the "-controller" suffix.
	Controllers []string
	// Disable leaves controllers out of Controllers, for instance the
	// built-in controller that is the controller under test.
	Disable []string
	// TempDir is where the cluster's temporary directory is made (default
	// os.TempDir()).
	TempDir string
	// StartTimeout bounds Start (default 60s).
	StartTimeout time.Duration
	// TerminationGrace is how long a deleted pod stays terminating before
	// the simulated kubelet removes it (default 500ms).
	TerminationGrace time.Duration
	// Kubernetes is an older minor version whose kube-apiserver,
	// kube-controller-manager and kube-scheduler to run
	// (controlplane.Lines: "1.21"); "" is the binary's own.
	Kubernetes string
	// LineBinary is that version's binary (default: the one
	// controlplane.EnsureLine finds, or builds on first use).
	LineBinary string
}

// DefaultControllers returns the kube-controller-manager controllers a
// Cluster runs unless Options say otherwise: what workloads need to behave
// as on a real cluster, without the node lifecycle, cloud, certificate and
// quota controllers.
func DefaultControllers() []string {
	var out []string
	for _, name := range kinds.BuiltinControllers() {
		out = append(out, name+"-controller")
	}
	return out
}

// ControllerName returns the canonical kube-controller-manager name of a
// controller: "statefulset" and "statefulset-controller" both give
// "statefulset-controller".
func ControllerName(name string) string {
	name = strings.TrimSpace(name)
	if strings.HasSuffix(name, "-controller") {
		return name
	}
	return name + "-controller"
}

// controllers returns the controllers to run: Controllers minus Disable.
// Disabling a controller that is not in the list is an error, to catch a
// misspelled name.
func (o Options) controllers() ([]string, error) {
	list := o.Controllers
	if len(list) == 0 {
		list = DefaultControllers()
	}
	var out []string
	for _, c := range list {
		out = append(out, ControllerName(c))
	}
	for _, d := range o.Disable {
		i := slices.Index(out, ControllerName(d))
		if i < 0 {
			return nil, unknownController(d, out)
		}
		out = slices.Delete(out, i, i+1)
	}
	return out, nil
}

// unknownController says that name, to be left out, is not among the
// controllers the cluster runs, naming them as a spec or --disable writes
// them: without the "-controller" suffix.
func unknownController(name string, running []string) error {
	if slices.Equal(running, DefaultControllers()) {
		if summary, hint := kinds.CheckBuiltinController(strings.TrimSuffix(name, "-controller")); summary != "" {
			if hint != "" {
				return fmt.Errorf("disable: %s (%s)", summary, hint)
			}
			return fmt.Errorf("disable: %s", summary)
		}
	}
	short := make([]string, len(running))
	for i, c := range running {
		short[i] = strings.TrimSuffix(c, "-controller")
	}
	return fmt.Errorf("disable %q: not among the controllers the cluster runs (%s)", name, strings.Join(short, ", "))
}

func (o Options) withDefaults() Options {
	if o.Nodes <= 0 {
		o.Nodes = 1
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 60 * time.Second
	}
	return o
}
