// Command sieve-controlplane-1.21 runs kube-apiserver,
// kube-controller-manager or kube-scheduler of Kubernetes 1.21, the last
// line that serves policy/v1beta1 and apiextensions.k8s.io/v1beta1, for
// sieve's embedded backend (embedded.Options.Kubernetes "1.21"); etcd and
// the node simulator come from the default sieve-controlplane. It
// understands the flags of that binary's component runner that the
// backend gives these components: --sieve-lifeline, --sieve-wait-healthy
// and --sieve-wait-serving. Not a user interface.
//
// Its module is outside the workspace (GOWORK=off): its Kubernetes
// version differs from the control plane's. k8s.io/kubernetes is replaced
// by a copy with pkg/generated/openapi/zz_generated.openapi.go generated
// into it (the module zip lacks it); sieve's build does that
// (interp/cluster/embedded/controlplane).
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
)

// Flags of the component runner (see controlplane/component).
const (
	flagLifeline    = "--sieve-lifeline"
	flagWaitHealthy = "--sieve-wait-healthy"
	flagWaitServing = "--sieve-wait-serving"
)

func commands() map[string]func() *cobra.Command {
	return map[string]func() *cobra.Command{
		"kube-apiserver":          apiserver.NewAPIServerCommand,
		"kube-controller-manager": controllermanager.NewControllerManagerCommand,
		"kube-scheduler":          func() *cobra.Command { return scheduler.NewSchedulerCommand() },
	}
}

func main() {
	if len(os.Args) < 2 || commands()[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: sieve-controlplane-1.21 kube-apiserver|kube-controller-manager|kube-scheduler [ARGS...]")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "sieve-controlplane-1.21: %v\n", err)
		os.Exit(1)
	}
}

func run(name string, args []string) error {
	var pass []string
	var lifeline bool
	wait := ""
	for _, a := range args {
		switch a {
		case flagLifeline:
			lifeline = true
		case flagWaitHealthy:
			wait = "/healthz"
		case flagWaitServing:
			wait = "/version"
		default:
			pass = append(pass, a)
		}
	}
	if lifeline {
		go func() {
			if f := os.NewFile(3, "lifeline"); f != nil {
				_, _ = io.Copy(io.Discard, f)
			}
			os.Exit(3)
		}()
	}
	if wait != "" {
		if err := waitAPI(kubeconfigArg(pass), wait); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	cmd := commands()[name]()
	cmd.SetArgs(pass)
	return cmd.Execute()
}

// waitAPI waits until the API server of kubeconfig answers path with 200.
func waitAPI(kubeconfig, path string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("reading kubeconfig: %w", err)
	}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: rt, Timeout: time.Second}
	for {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, cfg.Host+path, nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kubeconfigArg is the value of --kubeconfig in args.
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
