package embedded

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
	"github.com/sievetool/sieve/interp/cluster/embedded/seed"
	"github.com/sievetool/sieve/interp/internal/owndir"
	"github.com/sievetool/sieve/interp/nospace"
)

// Cluster is an embedded control plane. Its methods are safe for
// concurrent use; Start and Stop are called once each.
type Cluster struct {
	opts Options

	mu       sync.Mutex
	layout   layout
	rest     *rest.Config
	procs    []*proc
	lifeline *os.File // write end of the children's lifeline pipe
	etcd     *clientv3.Client
	etcdTLS  *tls.Config // the client certificate etcd requires
	baseline *snapshot
	// seed is where the etcd seed of the API server's binary is kept
	// (controlplane.SeedPath), "" if nowhere.
	seed string
}

var (
	_ cluster.Backend  = (*Cluster)(nil)
	_ cluster.Rewinder = (*Cluster)(nil)
)

// dirPrefix starts the name of every cluster's temporary directory.
const dirPrefix = "sieve-cluster-"

// New returns a cluster that Start will bring up.
func New(opts Options) *Cluster {
	return &Cluster{opts: opts.withDefaults()}
}

// Start brings the control plane up. It returns once the API server is
// ready, the scheduler is ready and the nodes are Ready. The kubernetes
// Service and each system namespace's default service account and root CA
// config map exist by then; Start writes them, as the API server and the
// controller manager would. On failure everything started so far is torn
// down and the error carries the end of the failed component's log.
func (c *Cluster) Start(ctx context.Context) error {
	// Building the binary on first use takes minutes; it is not part of
	// the start timeout.
	if err := c.ensureBinary(ctx); err != nil {
		return fmt.Errorf("embedded cluster: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.StartTimeout)
	defer cancel()
	const attempts = 3
	for i := 1; ; i++ {
		err := c.start(ctx)
		if err == nil {
			return nil
		}
		_ = c.Stop()
		if !errors.Is(err, errPortTaken) || i == attempts {
			return nospace.First(fmt.Errorf("embedded cluster: %w", err), "")
		}
	}
}

func (c *Cluster) start(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.layout.dir != "" {
		return errors.New("already started")
	}
	binary, err := c.binary()
	if err != nil {
		return err
	}
	if err := c.prepare(binary); err != nil {
		return err
	}
	if err := c.spawnAll(binary); err != nil {
		return err
	}
	if err := c.waitReady(ctx); err != nil {
		return err
	}
	if err := c.connectEtcd(ctx); err != nil {
		return err
	}
	if c.seed != "" && c.layout.seed == "" {
		c.writeSeed()
	}
	return nil
}

// ensureBinary sets Options.Binary, when empty, to the binary
// controlplane.Ensure finds or builds (printing its progress to stderr),
// and Options.LineBinary likewise when the cluster runs an older line.
func (c *Cluster) ensureBinary(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.opts.Binary == "" {
		bin, err := controlplane.Ensure(ctx, controlplane.Options{Progress: os.Stderr})
		if err != nil {
			return err
		}
		c.opts.Binary = bin
	}
	if c.opts.Kubernetes == "" || c.opts.LineBinary != "" {
		return nil
	}
	line, err := controlplane.LookupLine(c.opts.Kubernetes)
	if err != nil {
		return err
	}
	bin, err := controlplane.EnsureLine(ctx, line, controlplane.Options{Progress: os.Stderr})
	c.opts.LineBinary = bin
	return err
}

func (c *Cluster) binary() (string, error) {
	if c.opts.Binary != "" {
		return c.opts.Binary, nil
	}
	return controlplane.Find(controlplane.Options{})
}

// prepare makes the temporary directory (named after this process, after
// removing those of processes that died without removing theirs), picks
// ports, writes the credentials and the kubeconfig, and finds the etcd
// seed.
func (c *Cluster) prepare(binary string) error {
	controllers, err := c.opts.controllers()
	if err != nil {
		return err
	}
	dir, err := owndir.MkdirTemp(c.opts.TempDir, dirPrefix)
	if err != nil {
		return fmt.Errorf("creating the cluster directory: %w", err)
	}
	c.layout.dir = dir
	ports, err := freePorts(4)
	if err != nil {
		return err
	}
	c.layout = layout{
		dir: dir, etcdPort: ports[0], etcdPeerPort: ports[1], apiPort: ports[2], schedulerPort: ports[3],
		controllers: controllers, nodes: c.opts.Nodes, line: c.opts.Kubernetes,
	}
	c.layout = c.layout.withEtcdSocket()
	if c.opts.TerminationGrace > 0 {
		c.layout.terminationGrace = c.opts.TerminationGrace.String()
	}
	creds, err := newCredentials()
	if err != nil {
		return err
	}
	if err := creds.write(c.layout); err != nil {
		return err
	}
	c.rest = creds.restConfig(c.layout)
	c.seed = controlplane.SeedPath(c.componentBinary(binary, true), seedName())
	if _, err := os.Stat(c.seed); c.seed != "" && err == nil {
		c.layout.seed = c.seed
	}
	if c.etcdTLS, err = creds.etcdTLS(); err != nil {
		return err
	}
	return os.MkdirAll(c.layout.path("logs"), 0o700)
}

// spawnAll starts every component at once; the clients of the API server
// wait for it themselves, so their start-up overlaps with its own.
func (c *Cluster) spawnAll(binary string) error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("creating the lifeline pipe: %w", err)
	}
	defer r.Close()
	c.lifeline = w
	for _, spec := range c.layout.componentArgs() {
		p, err := spawn(c.componentBinary(binary, spec.line), c.layout.path("logs"), spec, r)
		if err != nil {
			return err
		}
		c.procs = append(c.procs, p)
	}
	return nil
}

// componentBinary is the binary of a component: binary, or the older
// line's when the cluster runs one and the component is one of the line's.
func (c *Cluster) componentBinary(binary string, line bool) string {
	if line && c.layout.line != "" {
		return c.opts.LineBinary
	}
	return binary
}

// writeSeed writes the etcd seed from the first checkpoint, which holds
// what the API server's bootstrap wrote and nothing else yet. The seed
// only saves time, so failing to write it is not an error.
func (c *Cluster) writeSeed() {
	var kvs []seed.KV
	for key, e := range c.baseline.entries {
		if seed.Seeded(key) {
			kvs = append(kvs, seed.KV{Key: key, Value: e.value})
		}
	}
	slices.SortFunc(kvs, func(a, b seed.KV) int { return strings.Compare(a.Key, b.Key) })
	_ = seed.Write(c.seed, kvs)
}

// Stop kills every component and removes the temporary directory. It may
// be called more than once.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	if c.etcd != nil {
		_ = c.etcd.Close()
		c.etcd = nil
	}
	for _, p := range slices.Backward(c.procs) {
		errs = append(errs, p.kill())
	}
	c.procs = nil
	if c.lifeline != nil {
		c.lifeline.Close()
		c.lifeline = nil
	}
	if c.layout.dir != "" {
		if err := os.RemoveAll(c.layout.dir); err != nil {
			errs = append(errs, fmt.Errorf("removing %s: %w", c.layout.dir, err))
		}
	}
	c.layout, c.rest, c.baseline = layout{}, nil, nil
	return errors.Join(errs...)
}

// RESTConfig returns an admin client configuration (bearer token, TLS).
func (c *Cluster) RESTConfig() *rest.Config {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rest == nil {
		return nil
	}
	return rest.CopyConfig(c.rest)
}

// Kubernetes is the older Kubernetes line the cluster runs
// (Options.Kubernetes), "" for the binary's own.
func (c *Cluster) Kubernetes() string { return c.opts.Kubernetes }

// Kubeconfig returns the path of the admin kubeconfig file.
func (c *Cluster) Kubeconfig() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.layout.kubeconfig()
}

// Dir returns the cluster's temporary directory (logs are in Dir/logs).
func (c *Cluster) Dir() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.layout.dir
}

// SimulatesPods reports that the cluster's pods run no containers
// (nodesim makes them Running and Ready), so the API server cannot serve
// an exec into them.
func (c *Cluster) SimulatesPods() bool { return true }

// Pending reports whether the node simulator has work it has not done
// yet, which the cluster's objects do not show. That is a change it has
// not acted on, or a timer it set (a pod in its termination grace, a Job's
// pod running). False when it says nothing (not started).
func (c *Cluster) Pending() bool {
	c.mu.Lock()
	path := c.layout.pendingFile()
	c.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return err == nil && n > 0
}

// Health returns nil while every component of a started cluster runs, and
// otherwise the failure of the first that exited: its name, its exit
// status and the last lines of its log.
func (c *Cluster) Health() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.exitedProc(); err != nil {
		return nospace.First(fmt.Errorf("embedded cluster: %w", err), "")
	}
	return nil
}

// Process is one running component of the cluster.
type Process struct {
	Name string
	PID  int
}

// Processes lists the running components.
func (c *Cluster) Processes() []Process {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Process
	for _, p := range c.procs {
		if !p.exited() {
			out = append(out, Process{Name: p.name, PID: p.cmd.Process.Pid})
		}
	}
	return out
}

// Ports lists the TCP ports the cluster listens on (etcd peer and, unless
// it serves a socket, client; API server; scheduler health).
func (c *Cluster) Ports() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.layout
	ports := []int{l.etcdPeerPort, l.apiPort, l.schedulerPort}
	if l.etcdSocket == "" {
		ports = append(ports, l.etcdPort)
	}
	return ports
}

// String describes the cluster for logs.
func (c *Cluster) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return "embedded cluster at " + c.layout.apiURL() + " (dir " + c.layout.dir + ", " + strconv.Itoa(len(c.procs)) + " processes)"
}
