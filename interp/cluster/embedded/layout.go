package embedded

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
)

// serviceCIDR is the service IP range; its first address,
// kubernetesServiceIP, is the "kubernetes" service's.
const (
	serviceCIDR         = "10.0.0.0/16"
	kubernetesServiceIP = "10.0.0.1"
)

// seedName is the name of the etcd seed beside a control-plane build
// (controlplane.SeedPath). The seed holds the default ServiceCIDR, which
// the API server makes of serviceCIDR, so the name carries the range: a
// seed written with another range is not used.
func seedName() string {
	return "bootstrap-" + strings.NewReplacer(".", "-", "/", "_").Replace(serviceCIDR) + ".seed"
}

// layout is where a cluster keeps its files and which ports it listens on.
type layout struct {
	dir string
	// etcdSocket is the unix socket etcd serves its clients on, without
	// TLS; "" when it serves them on etcdPort (see withEtcdSocket).
	etcdSocket             string
	etcdPort, etcdPeerPort int
	apiPort, schedulerPort int
	controllers            []string
	nodes                  int
	terminationGrace       string
	// line is the older Kubernetes version of the API server, controller
	// manager and scheduler ("": the binary's own).
	line string
	// seed is the etcd seed file to start etcd with ("": none).
	seed string
}

func (l layout) path(elem ...string) string {
	return filepath.Join(append([]string{l.dir}, elem...)...)
}

func (l layout) kubeconfig() string { return l.path("kubeconfig") }
func (l layout) apiURL() string     { return fmt.Sprintf("https://127.0.0.1:%d", l.apiPort) }
func (l layout) schedulerURL() string {
	return fmt.Sprintf("https://127.0.0.1:%d", l.schedulerPort)
}

// pendingFile is where the node simulator says how many things it has yet
// to do (nodesim.Options.Pending).
func (l layout) pendingFile() string { return l.path("nodesim.pending") }

// maxSocketPath is the longest path a unix socket address holds on every
// platform: 103 bytes and a NUL on macOS and the BSDs (108 on Linux).
const maxSocketPath = 103

// withEtcdSocket returns l with etcd serving its clients on a unix socket
// in the cluster's directory, when the binary's own API server runs and
// the path fits in a socket address. The directory is the owner's alone
// (mode 0700), so the socket needs no TLS. A loopback port, open to every
// local user, needs TLS and a client certificate. The API server opens
// many connections to etcd as it starts, and their TLS handshakes cost
// CPU on both sides (BenchmarkColdStart measures a start). An older line
// keeps the port: its API server's etcd client was not tried on a socket.
func (l layout) withEtcdSocket() layout {
	if path := l.path("etcd.sock"); l.line == "" && len(path) <= maxSocketPath {
		l.etcdSocket = path
	}
	return l
}

// etcdURL is where etcd serves its clients.
func (l layout) etcdURL() string {
	if l.etcdSocket != "" {
		return "unix://" + l.etcdSocket
	}
	return fmt.Sprintf("https://127.0.0.1:%d", l.etcdPort)
}

// componentArgs returns the arguments of each component, in start order.
func (l layout) componentArgs() []componentSpec {
	return []componentSpec{
		{name: "etcd", args: l.etcdArgs()},
		{name: "kube-apiserver", args: l.apiServerArgs(), env: apiServerEnv(), line: true},
		{name: "kube-controller-manager", args: l.controllerManagerArgs(), wait: waitHealthy, line: true},
		{name: "kube-scheduler", args: l.schedulerArgs(), wait: waitServing, line: true},
		{name: "nodesim", args: l.nodesimArgs(), wait: waitServing},
	}
}

// componentSpec is one child process to start.
type componentSpec struct {
	name string
	args []string
	wait waitFor  // what of the API server to wait for before starting
	env  []string // added to the environment
	// line says an older Kubernetes line (Options.Kubernetes), when the
	// cluster runs one, runs the component.
	line bool
}

// apiServerEnv trades some memory for start-up time. The API server
// allocates a few hundred megabytes while it builds its APIs and OpenAPI
// documents, and with the default GOGC garbage collection takes a good
// share of its start-up CPU. It collects when the heap triples, or when
// it nears the soft limit (BenchmarkColdStart measures the memory).
func apiServerEnv() []string {
	return []string{"GOGC=200", "GOMEMLIMIT=256MiB"}
}

// waitFor says how long a component waits for the API server.
type waitFor int

const (
	waitNothing waitFor = iota
	// waitServing waits until the API server answers requests; the
	// scheduler and the node simulator only list, watch and write with an
	// admin identity, which works before the post-start hooks finish.
	waitServing
	// waitHealthy waits for /healthz, which the controller manager checks
	// itself, sleeping a whole second when it fails. It does not wait for
	// the bootstrap roles (the API server's /readyz does): the controller
	// manager runs with an admin identity.
	waitHealthy
)

func (l layout) etcdArgs() []string {
	args := []string{
		"--data-dir=" + l.path("etcd"),
		"--listen-client-url=" + l.etcdURL(),
		fmt.Sprintf("--listen-peer-url=https://127.0.0.1:%d", l.etcdPeerPort),
		"--cert-file=" + l.path("pki", "etcd.crt"),
		"--key-file=" + l.path("pki", "etcd.key"),
		"--trusted-ca-file=" + l.path("pki", "ca.crt"),
	}
	if l.seed != "" {
		args = append(args, "--seed="+l.seed)
	}
	return args
}

func (l layout) apiServerArgs() []string {
	args := []string{
		"--etcd-servers=" + l.etcdURL(),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		// The endpoint reconcilers refuse a loopback address, and no pod
		// reaches the API server through its service anyway.
		"--endpoint-reconciler-type=none",
		"--secure-port=" + strconv.Itoa(l.apiPort),
		"--cert-dir=" + l.path("apiserver"),
		"--tls-cert-file=" + l.path("pki", "apiserver.crt"),
		"--tls-private-key-file=" + l.path("pki", "apiserver.key"),
		"--client-ca-file=" + l.path("pki", "ca.crt"),
		"--token-auth-file=" + l.path("pki", "tokens.csv"),
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + l.path("pki", "sa.pub"),
		"--service-account-signing-key-file=" + l.path("pki", "sa.key"),
		"--service-cluster-ip-range=" + serviceCIDR,
		"--allow-privileged=true",
		"--enable-priority-and-fairness=false",
		"--profiling=false",
		"--v=0",
	}
	if l.etcdSocket == "" {
		args = append(args,
			"--etcd-cafile="+l.path("pki", "ca.crt"),
			"--etcd-certfile="+l.path("pki", "etcd.crt"),
			"--etcd-keyfile="+l.path("pki", "etcd.key"),
		)
	}
	if l.line == "" { // an older line serves neither
		args = append(args, "--runtime-config="+strings.Join(disabledAPIs(), ","))
	}
	return args
}

// disabledAPIs are the API groups the API server serves by default that
// sieve turns off, as --runtime-config entries. Every API group and
// version costs start-up time (storage, handlers, OpenAPI documents), and
// these serve no controller under test. They are flow control and storage
// version migration. Priority and fairness is off, and the flow control
// API's post-start hook writes objects before the API server is ready.
func disabledAPIs() []string {
	return []string{
		"flowcontrol.apiserver.k8s.io/v1=false",
		"storagemigration.k8s.io/v1=false",
	}
}

// clientArgs are the flags the controller manager and the scheduler share.
func (l layout) clientArgs() []string {
	args := []string{
		"--kubeconfig=" + l.kubeconfig(),
		"--leader-elect=false",
		"--kube-api-qps=500",
		"--kube-api-burst=1000",
		"--profiling=false",
		"--v=0",
	}
	if l.line != "" {
		// A 1.21 controller manager and scheduler also serve plain HTTP
		// on a fixed port (10252, 10251), which two clusters would share.
		args = append(args, "--port=0")
	}
	return args
}

func (l layout) controllerManagerArgs() []string {
	return append(l.clientArgs(),
		"--controllers="+strings.Join(l.controllerNames(), ","),
		"--secure-port=0",
		"--use-service-account-credentials=false",
		"--service-account-private-key-file="+l.path("pki", "sa.key"),
		"--root-ca-file="+l.path("pki", "ca.crt"),
	)
}

func (l layout) schedulerArgs() []string {
	return append(l.clientArgs(),
		"--bind-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(l.schedulerPort),
		"--tls-cert-file="+l.path("pki", "scheduler.crt"),
		"--tls-private-key-file="+l.path("pki", "scheduler.key"),
	)
}

func (l layout) nodesimArgs() []string {
	args := []string{"--kubeconfig=" + l.kubeconfig(), "--nodes=" + strconv.Itoa(l.nodes), "--pending-file=" + l.pendingFile()}
	if l.terminationGrace != "" {
		args = append(args, "--termination-grace="+l.terminationGrace)
	}
	return args
}

// controllerNames are the controllers in the controller manager's names:
// a 1.21 controller manager names some differently ("endpoint", "podgc").
func (l layout) controllerNames() []string {
	if l.line == "" {
		return l.controllers
	}
	var out []string
	for _, c := range l.controllers {
		name := strings.TrimSuffix(c, "-controller")
		if old, ok := names121[name]; ok {
			name = old
		}
		out = append(out, name)
	}
	return out
}

// names121 are the Kubernetes 1.21 names of the controllers whose name
// changed since (the others are the same without "-controller").
var names121 = map[string]string{
	"endpoints":                        "endpoint",
	"endpointslice-mirroring":          "endpointslicemirroring",
	"garbage-collector":                "garbagecollector",
	"persistentvolume-protection":      "pv-protection",
	"persistentvolumeclaim-protection": "pvc-protection",
	"pod-garbage-collector":            "podgc",
	"root-ca-certificate-publisher":    "root-ca-cert-publisher",
}

// schedulerReadyPath is the scheduler's readiness endpoint (a 1.21
// scheduler has only /healthz).
func (l layout) schedulerReadyPath() string {
	if l.line != "" {
		return "/healthz"
	}
	return "/readyz"
}

// freePorts returns n distinct free TCP ports on 127.0.0.1. Another process
// may take one before the component binds it; Start then fails with the
// component's log and may be retried.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
