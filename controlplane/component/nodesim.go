package component

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/sievetool/sieve/interp/cluster/embedded/nodesim"
)

func runNodeSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		kubeconfig string
		opts       nodesim.Options
	)
	fs := flag.NewFlagSet(NodeSim, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&kubeconfig, "kubeconfig", "", "kubeconfig of the API server (required)")
	fs.IntVar(&opts.Nodes, "nodes", 0, "number of fake nodes (default 1)")
	fs.DurationVar(&opts.TerminationGrace, "termination-grace", 0, "how long a deleted pod stays terminating (default 500ms)")
	fs.DurationVar(&opts.JobPodRun, "job-pod-run", 0, "how long a Job's pod runs before it succeeds (default 1s)")
	pendingFile := fs.String("pending-file", "", "file that says how many things the simulator has yet to do (none: not kept)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *pendingFile != "" {
		opts.Pending = func(n int) { writePending(*pendingFile, n, stderr) }
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("nodesim: reading kubeconfig: %w", err)
	}
	cfg.QPS, cfg.Burst = 500, 1000
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("nodesim: %w", err)
	}
	return nodesim.Run(ctx, client, opts)
}

// writePending replaces the pending file with n, in one rename so that a
// reader never sees it half written.
func writePending(path string, n int, stderr io.Writer) {
	tmp := path + ".tmp"
	err := os.WriteFile(tmp, []byte(strconv.Itoa(n)+"\n"), 0o600)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		fmt.Fprintf(stderr, "nodesim: pending file: %v\n", err)
	}
}
