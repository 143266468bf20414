package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/kind/pkg/apis/config/v1alpha4"
	kind "sigs.k8s.io/kind/pkg/cluster"
)

// ErrNoContainerRuntime is returned by the kind backend when neither a Docker
// nor a Podman engine answers.
var ErrNoContainerRuntime = errors.New("kind: no container runtime is running (docker and podman need a running engine; hint: use the embedded backend, the default, which needs none)")

// KindOptions configures the kind backend. The zero value is one control
// plane, no workers, the node image kind defaults to.
type KindOptions struct {
	// Name of the cluster; default "sieve-<pid>".
	Name string
	// ControlPlanes is 1 (default) or 3.
	ControlPlanes int
	// Workers is the number of worker nodes (default 0: the control plane
	// runs workloads).
	Workers int
	// NodeImage overrides kind's default node image.
	NodeImage string
	// Disable names kube-controller-manager controllers to leave out (the
	// controller under test does their job).
	Disable []string
	// Dir holds the kubeconfig; default a new temporary directory.
	Dir string
	// Runtime probes the container engine; nil probes docker then podman.
	Runtime func(ctx context.Context) (string, error)
}

// Kind is a backend that creates (and deletes) a kind cluster.
type Kind struct {
	opts     KindOptions
	dir      string
	ownDir   bool
	created  bool
	provider *kind.Provider
	cfg      *rest.Config
}

// NewKind returns a kind backend; nothing is created until Start.
func NewKind(opts KindOptions) *Kind {
	if opts.Name == "" {
		opts.Name = fmt.Sprintf("sieve-%d", os.Getpid())
	}
	if opts.ControlPlanes == 0 {
		opts.ControlPlanes = 1
	}
	if opts.Runtime == nil {
		opts.Runtime = probeRuntime
	}
	return &Kind{opts: opts}
}

// Config returns the kind cluster configuration Start creates.
func (k *Kind) Config() (*v1alpha4.Cluster, error) {
	if k.opts.ControlPlanes != 1 && k.opts.ControlPlanes != 3 {
		return nil, fmt.Errorf("kind: %d control planes (want 1 or 3)", k.opts.ControlPlanes)
	}
	if k.opts.Workers < 0 {
		return nil, fmt.Errorf("kind: %d workers (want 0 or more)", k.opts.Workers)
	}
	c := &v1alpha4.Cluster{Name: k.opts.Name}
	c.Kind, c.APIVersion = "Cluster", "kind.x-k8s.io/v1alpha4"
	for range k.opts.ControlPlanes {
		c.Nodes = append(c.Nodes, v1alpha4.Node{Role: v1alpha4.ControlPlaneRole, Image: k.opts.NodeImage})
	}
	for range k.opts.Workers {
		c.Nodes = append(c.Nodes, v1alpha4.Node{Role: v1alpha4.WorkerRole, Image: k.opts.NodeImage})
	}
	if len(k.opts.Disable) > 0 {
		c.KubeadmConfigPatches = []string{controllersPatch(k.opts.Disable)}
	}
	return c, nil
}

// controllersPatch is a kubeadm ClusterConfiguration patch that runs every
// default controller except the disabled ones.
func controllersPatch(disable []string) string {
	list := []string{"*"}
	for _, d := range disable {
		list = append(list, "-"+d)
	}
	return "kind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n  - name: controllers\n    value: \"" + strings.Join(list, ",") + "\"\n"
}

// Start creates the cluster and waits until its nodes are ready.
func (k *Kind) Start(ctx context.Context) error {
	cfg, err := k.Config()
	if err != nil {
		return err
	}
	engine, err := k.opts.Runtime(ctx)
	if err != nil {
		return err
	}
	if err := k.makeDir(); err != nil {
		return err
	}
	opt := kind.ProviderWithDocker()
	if engine == "podman" {
		opt = kind.ProviderWithPodman()
	}
	k.provider = kind.NewProvider(opt)
	kubeconfig := k.Kubeconfig()
	err = k.provider.Create(k.opts.Name,
		kind.CreateWithV1Alpha4Config(cfg),
		kind.CreateWithKubeconfigPath(kubeconfig),
		kind.CreateWithWaitForReady(3*time.Minute),
		kind.CreateWithDisplayUsage(false),
		kind.CreateWithDisplaySalutation(false))
	if err != nil {
		return fmt.Errorf("kind: create cluster %s: %w", k.opts.Name, err)
	}
	k.created = true
	k.cfg, err = clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("kind: %w", err)
	}
	return nil
}

func (k *Kind) makeDir() error {
	if k.opts.Dir != "" {
		k.dir = k.opts.Dir
		return os.MkdirAll(k.dir, 0o700)
	}
	dir, err := os.MkdirTemp("", "sieve-kind-")
	if err != nil {
		return fmt.Errorf("kind: %w", err)
	}
	k.dir, k.ownDir = dir, true
	return nil
}

// RESTConfig is the cluster's admin configuration (nil before Start).
func (k *Kind) RESTConfig() *rest.Config { return k.cfg }

// Kubeconfig is the path of the cluster's kubeconfig.
func (k *Kind) Kubeconfig() string { return filepath.Join(k.dir, "kubeconfig") }

// Reset deletes every namespace and CRD created since Start and every
// object in the default namespace.
func (k *Kind) Reset(ctx context.Context) error {
	if k.cfg == nil {
		return errors.New("kind: reset before start")
	}
	return wipe(ctx, k.cfg, wipeAll)
}

// Stop deletes the cluster and the kubeconfig directory.
func (k *Kind) Stop() error {
	var errs []error
	if k.created {
		if err := k.provider.Delete(k.opts.Name, k.Kubeconfig()); err != nil {
			errs = append(errs, fmt.Errorf("kind: delete cluster %s: %w", k.opts.Name, err))
		}
		k.created = false
	}
	if k.ownDir {
		errs = append(errs, os.RemoveAll(k.dir))
	}
	return errors.Join(errs...)
}

// probeRuntime returns "docker" or "podman" for the first engine that
// answers, or ErrNoContainerRuntime. A client without an engine (the docker
// CLI with no daemon) does not count.
func probeRuntime(ctx context.Context) (string, error) {
	for _, engine := range []string{"docker", "podman"} {
		if _, err := exec.LookPath(engine); err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, engine, "info", "--format", "{{.ServerVersion}}")
		if engine == "podman" {
			cmd = exec.CommandContext(ctx, engine, "info", "--format", "{{.Version.Version}}")
		}
		cmd.Stdout = &out
		err := cmd.Run()
		cancel()
		if err == nil && strings.TrimSpace(out.String()) != "" {
			return engine, nil
		}
	}
	return "", ErrNoContainerRuntime
}
