package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/controller"
)

// newInternalInClusterCmd is the in-cluster helper the controller runner
// starts in a private mount namespace: it mounts the emulated pod's
// service-account files and execs the controller (see
// controller.HelperMain).
func newInternalInClusterCmd(g *globals) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "incluster --dir DIR -- COMMAND [ARGS...]",
		Short: "Run a controller as if in a pod (service-account files mounted)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return usageErr(errors.New("incluster: --dir is required"))
			}
			return infraErr(controller.HelperMain(dir, args))
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "directory holding token, ca.crt and namespace")
	cmd.Flags().SetInterspersed(false)
	return cmd
}
