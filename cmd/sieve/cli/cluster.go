package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/cluster/embedded"
)

// clusterUpFlags are the flags of `sieve cluster up`.
type clusterUpFlags struct {
	kubeconfigOut string
	nodes         int
	disable       []string
}

func newClusterCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Run the embedded Kubernetes control plane",
	}
	cmd.AddCommand(newClusterUpCmd(g))
	return cmd
}

func newClusterUpCmd(g *globals) *cobra.Command {
	var f clusterUpFlags
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start the embedded control plane and keep it up until interrupted",
		Long: `Start the embedded control plane (etcd, kube-apiserver,
kube-controller-manager, kube-scheduler and simulated nodes) on loopback,
print how to reach it, and keep it up until SIGINT (Ctrl-C), SIGTERM, SIGHUP
or SIGQUIT; then stop every process and remove every temporary file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runClusterUp(cmd.Context(), g, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.kubeconfigOut, "kubeconfig-out", "", "also write the admin kubeconfig to `FILE`")
	fl.IntVar(&f.nodes, "nodes", 1, "number of simulated nodes")
	fl.StringSliceVar(&f.disable, "disable-controller", nil, "leave a built-in `controller` out of kube-controller-manager (repeatable)")
	return cmd
}

func runClusterUp(ctx context.Context, g *globals, f clusterUpFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := absPaths(&f.kubeconfigOut); err != nil {
		return usageErr(err)
	}
	g.interruptible() // a stop signal stops the cluster below
	c := embedded.New(embedded.Options{Nodes: f.nodes, Disable: f.disable})
	if !g.quiet {
		fmt.Fprintln(g.stderr, "sieve: starting the embedded control plane")
	}
	if err := c.Start(ctx); err != nil {
		return infraErr(err)
	}
	kubeconfig := c.Kubeconfig()
	if f.kubeconfigOut != "" {
		if err := embedded.WriteKubeconfig(f.kubeconfigOut, c.RESTConfig()); err != nil {
			_ = c.Stop()
			return infraErr(err)
		}
		kubeconfig = f.kubeconfigOut
	}
	printClusterUp(g, c, kubeconfig)
	<-ctx.Done()
	if !g.quiet {
		fmt.Fprintln(g.stderr, "sieve: stopping the embedded control plane")
	}
	if err := c.Stop(); err != nil {
		return infraErr(err)
	}
	return nil
}

// printClusterUp tells the user how to reach the cluster: the export line
// on stdout (it is the result), the rest on stderr.
func printClusterUp(g *globals, c *embedded.Cluster, kubeconfig string) {
	fmt.Fprintf(g.stdout, "export KUBECONFIG=%s\n", kubeconfig)
	if g.quiet {
		return
	}
	fmt.Fprintf(g.stderr, "sieve: control plane up at %s (logs in %s/logs)\n", c.RESTConfig().Host, c.Dir())
	fmt.Fprintln(g.stderr, "sieve: press Ctrl-C to stop it and remove its files")
}
