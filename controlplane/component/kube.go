package component

import (
	"context"
	"io"

	"github.com/spf13/cobra"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
)

// The Kubernetes commands are built only when run: constructing one installs
// process-global signal handling and flags.

func runAPIServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runCobra(newAPIServerCommand(), args, stdout, stderr)
}

func runControllerManager(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runCobra(controllermanager.NewControllerManagerCommand(), args, stdout, stderr)
}

func runScheduler(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runCobra(scheduler.NewSchedulerCommand(), args, stdout, stderr)
}

func runCobra(cmd *cobra.Command, args []string, stdout, stderr io.Writer) error {
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	return cmd.Execute()
}
