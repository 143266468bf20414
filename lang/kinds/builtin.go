package kinds

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
)

// BuiltinControllers returns the kube-controller-manager controllers that
// a Controller's Builtin and Replaces may name, sorted: the controllers
// the embedded cluster runs, each of which it can leave out for a
// controller under test. Names are kube-controller-manager's without the
// "-controller" suffix.
func BuiltinControllers() []string {
	return []string{
		"clusterrole-aggregation",
		"cronjob",
		"daemonset",
		"deployment",
		"disruption",
		"endpoints",
		"endpointslice",
		"endpointslice-mirroring",
		"ephemeral-volume",
		"garbage-collector",
		"job",
		"namespace",
		"persistentvolume-binder",
		"persistentvolume-protection",
		"persistentvolumeclaim-protection",
		"pod-garbage-collector",
		"replicaset",
		"replicationcontroller",
		"root-ca-certificate-publisher",
		"serviceaccount",
		"serviceaccount-token",
		"statefulset",
		"ttl-after-finished",
	}
}

// CheckBuiltinController says what is wrong with name as a built-in
// controller name: a summary ("" when name is one) and a hint (the
// nearest name, or the name without its "-controller" suffix). Both front
// ends and the embedded backend report with it.
func CheckBuiltinController(name string) (summary, hint string) {
	names := BuiltinControllers()
	if slices.Contains(names, name) {
		return "", ""
	}
	if short, ok := strings.CutSuffix(name, "-controller"); ok && slices.Contains(names, short) {
		return fmt.Sprintf("builtin controller %q: write it without the -controller suffix", name),
			fmt.Sprintf("did you mean %q?", short)
	}
	return fmt.Sprintf("unknown builtin controller %q (want one of %s)", name, strings.Join(names, ", ")),
		spell.Hint(name, names)
}

// DefaultKubernetes is the Kubernetes minor version of the embedded
// backend's own control plane, whose kinds this table holds. A test may
// name it, to go back to the default from a base that chose an older
// line; it lowers to "".
const DefaultKubernetes = "1.37"
