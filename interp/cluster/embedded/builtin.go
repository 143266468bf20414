package embedded

import (
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
)

// BuiltinCommand returns the command line that runs the built-in
// kube-controller-manager controller name (for instance "statefulset") as
// a controller under test against the API server of kubeconfig (typically
// the interception proxy's). binary is the sieve-controlplane binary; ""
// means the one controlplane.Find finds (see Options.Binary). The process serves no port and takes no lock, so it
// can be killed and restarted at will. Leave the controller out of the
// cluster's own controller manager with Options.Disable.
func BuiltinCommand(binary, name, kubeconfig string) []string {
	if binary == "" {
		binary, _ = controlplane.Find(controlplane.Options{})
	}
	return []string{
		binary, "kube-controller-manager",
		"--kubeconfig=" + kubeconfig,
		"--controllers=" + ControllerName(name),
		"--leader-elect=false",
		"--secure-port=0",
		"--use-service-account-credentials=false",
		"--kube-api-qps=500",
		"--kube-api-burst=1000",
		"--v=0",
	}
}

// BuiltinCommand is the package-level BuiltinCommand with the cluster's
// control-plane binary.
func (c *Cluster) BuiltinCommand(name, kubeconfig string) []string {
	binary, _ := c.binary()
	return BuiltinCommand(binary, name, kubeconfig)
}
