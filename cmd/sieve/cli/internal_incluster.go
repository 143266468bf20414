package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/sievetool/sieve/interp/run/controller"
)

// newInternalInClusterCmd is the helper the controller runner starts in a
// private mount namespace: it mounts the emulated pod's service-account
// files and the private network's resolv.conf, and execs the controller
// (see controller.HelperMain).
func newInternalInClusterCmd(g *globals) *cobra.Command {
	var m controller.Mounts
	cmd := &cobra.Command{
		Use:   "incluster [--dir DIR] [--resolv FILE] -- COMMAND [ARGS...]",
		Short: "Run a controller as if in a pod (service-account files and resolv.conf mounted)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if m.ServiceAccount == "" && m.ResolvConf == "" {
				return usageErr(errors.New("incluster: --dir or --resolv is required"))
			}
			return infraErr(controller.HelperMain(m, args))
		},
	}
	cmd.Flags().StringVar(&m.ServiceAccount, "dir", "", "directory holding token, ca.crt and namespace")
	cmd.Flags().StringVar(&m.ResolvConf, "resolv", "", "file to mount on /etc/resolv.conf")
	cmd.Flags().SetInterspersed(false)
	return cmd
}
