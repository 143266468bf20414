package cli

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/campaign/image"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/lang/diag"
)

// The real node's network: a bridge of its own, whose address is also
// where the in-process registry listens. So containerd (on this machine's
// network) and the pods (behind the bridge) reach it at one address, a
// private one that go-containerregistry talks plain HTTP to.
const (
	nodeName   = "sieve-e2e-node"
	nodeBridge = "sievee2e0"
	nodeIP     = "10.89.0.1"
	nodeSubnet = "10.89.0.0/24"
	// realNodeEnv opts in to TestCampaignOnARealNode.
	realNodeEnv = "SIEVE_REAL_NODE"
)

// TestCampaignOnARealNode runs a campaign on a real node: a kubelet built
// from k8s.io/kubernetes at the control plane's version (the realnode
// module), containerd and runc from the distribution, joined to an
// embedded control plane. The worker image goes through an in-process
// registry, and the kubelet pulls it. The pods run unprivileged as the
// dispatcher made them and push their results to that registry, and the
// dispatcher collects them. The result must equal the single-machine run
// of the same references. It needs root and the packages containerd, runc
// and containernetworking-plugins; it runs only with SIEVE_REAL_NODE=1.
func TestCampaignOnARealNode(t *testing.T) {
	if os.Getenv(realNodeEnv) != "1" {
		t.Skip("joins a kubelet, containerd and runc to an embedded control plane as root; set " + realNodeEnv + "=1 to run it (docs/scale-out.md)")
	}
	needNodeTools(t)
	bin, cp := embeddedtest.Binary(t), embeddedtest.ControlPlane(t)
	work := t.TempDir()
	kubelet, pause := buildNodeBinaries(t, work)
	bridge(t)
	lis, err := net.Listen("tcp", nodeIP+":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: registry.New(registry.Logger(log.New(io.Discard, "", 0)))}
	go srv.Serve(lis)
	defer srv.Close()
	reg := lis.Addr().String()
	pauseRef := pushPause(t, pause, reg)

	c := embeddedtest.Start(t, embedded.Options{})
	cs, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	startNode(t, cs, c.Kubeconfig(), kubelet, pauseRef, reg)

	spec, err := filepath.Abs("../../../specs/datastore/datastore.sieve")
	if err != nil {
		t.Fatal(err)
	}
	ref := strings.TrimSpace(sieveOut(t, bin, "image", spec, "--test", "buggy", "--push", reg+"/sieve/worker:e2e", "--sieve-binary", bin, "--controlplane", cp))
	t.Logf("worker image %s", ref)
	start := time.Now()
	d := startCampaign(t, bin, spec, c.Kubeconfig(), ref, work, "--node-selector", "kubernetes.io/hostname="+nodeName, "--worker-cpu", "500m")
	stopSampling := samplePods(t)
	d.wait(t, 10*time.Minute)
	stopSampling()
	t.Logf("campaign on the real node: %s from the dispatcher's start", time.Since(start).Round(time.Second))
	pods, err := cs.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{LabelSelector: "batch.kubernetes.io/job-name=sieve-e2e"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if p.Spec.NodeName != nodeName || p.Status.Phase != corev1.PodSucceeded {
			t.Errorf("pod %s: node %q, phase %s; want %s, Succeeded", p.Name, p.Spec.NodeName, p.Status.Phase, nodeName)
			continue
		}
		if st := p.Status.ContainerStatuses; len(st) == 1 && st[0].State.Terminated != nil {
			end := st[0].State.Terminated
			t.Logf("pod %s: created to started %s (scheduling, image pull), ran %s", p.Name,
				end.StartedAt.Sub(p.CreationTimestamp.Time), end.FinishedAt.Sub(end.StartedAt.Time))
		}
	}
	sameAsOneMachine(t, bin, spec, d.dir, work, len(pods.Items))
}

// needNodeTools fails the test, saying what to install, unless this is
// root with containerd, runc, the CNI plugins and ip.
func needNodeTools(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal(realNodeEnv + "=1 needs root: a kubelet and containerd manage cgroups, mounts and network namespaces")
	}
	for _, tool := range []string{"containerd", "containerd-shim-runc-v2", "runc", "ctr", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: install containerd, runc and containernetworking-plugins (apt-get install containerd runc containernetworking-plugins)", tool)
		}
	}
	if !isFile(filepath.Join(cniBin, "bridge")) {
		t.Fatalf("no CNI bridge plugin in %s: apt-get install containernetworking-plugins", cniBin)
	}
}

// cniBin is where Debian's containernetworking-plugins puts the plugins.
const cniBin = "/usr/lib/cni"

// buildNodeBinaries builds the kubelet and the pause program from the
// realnode module (GOWORK=off: it is not in the workspace, so that its
// requirements do not touch the control plane's build).
func buildNodeBinaries(t *testing.T, dir string) (kubelet, pause string) {
	t.Helper()
	goCmd := func(env string, args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = "../../../realnode"
		cmd.Env = append(os.Environ(), "GOWORK=off", env)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// The kubelet says its version as a release build would (the API
	// server and kubectl show it), not "v0.0.0-master".
	version := goCmd("", "list", "-m", "-f", "{{.Version}}", "k8s.io/kubernetes")
	major, minor, _ := strings.Cut(strings.TrimPrefix(version, "v"), ".")
	minor, _, _ = strings.Cut(minor, ".")
	x := "k8s.io/component-base/version."
	kubelet, pause = filepath.Join(dir, "kubelet"), filepath.Join(dir, "pause")
	goCmd("CGO_ENABLED=1", "build", "-o", kubelet, "-ldflags", "-X "+x+"gitVersion="+version+" -X "+x+"gitMajor="+major+" -X "+x+"gitMinor="+minor,
		"k8s.io/kubernetes/cmd/kubelet")
	goCmd("CGO_ENABLED=0", "build", "-o", pause, "./pause")
	return kubelet, pause
}

// bridge makes the node's bridge with the registry's address (the CNI
// bridge plugin takes it as the pods' gateway) and removes it at the end.
func bridge(t *testing.T) {
	t.Helper()
	mustRun(t, "ip", "link", "add", nodeBridge, "type", "bridge")
	t.Cleanup(func() { exec.Command("ip", "link", "del", nodeBridge).Run() })
	mustRun(t, "ip", "addr", "add", nodeIP+"/24", "dev", nodeBridge)
	mustRun(t, "ip", "link", "set", nodeBridge, "up")
}

// pushPause pushes an image of the pause program, the pods' sandbox.
func pushPause(t *testing.T, pause, reg string) string {
	t.Helper()
	img, err := image.Build(image.Options{
		Layers: [][]image.Entry{{{Name: "pause", Source: pause, Mode: 0o755}}},
		Config: v1.Config{Entrypoint: []string{"/pause"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := image.Push(context.Background(), img, reg+"/sieve/pause:e2e")
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// startNode starts containerd and the kubelet, waits for the node to be
// Ready, and lifts the not-ready taint that the node lifecycle controller
// (not among the embedded control plane's) would lift. At the end it
// deletes the pods, stops both and removes what they left: the
// containers' shims and mounts.
func startNode(t *testing.T, cs kubernetes.Interface, kubeconfig, kubelet, pauseRef, reg string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "sieve-node-") // short: it holds sockets
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "containerd.sock")
	writeFile(t, filepath.Join(dir, "certs.d", reg, "hosts.toml"), fmt.Sprintf("server = %q\n[host.%q]\n  capabilities = [\"pull\", \"resolve\"]\n", "http://"+reg, "http://"+reg))
	writeFile(t, filepath.Join(dir, "net.d", "10-sieve.conflist"), fmt.Sprintf(`{"cniVersion": "1.0.0", "name": "sieve-e2e", "plugins": [
  {"type": "bridge", "bridge": %q, "isGateway": true, "ipMasq": true,
   "ipam": {"type": "host-local", "dataDir": %q, "ranges": [[{"subnet": %q, "gateway": %q}]], "routes": [{"dst": "0.0.0.0/0"}]}},
  {"type": "loopback"}]}
`, nodeBridge, filepath.Join(dir, "ipam"), nodeSubnet, nodeIP))
	// restrict_oom_score_adj: the kubelet asks -998 for a sandbox, which
	// needs CAP_SYS_RESOURCE, which a container or VM running this test
	// may not have.
	writeFile(t, filepath.Join(dir, "containerd.toml"), fmt.Sprintf(`version = 2
root = %[1]q
state = %[2]q
[grpc]
  address = %[3]q
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = %[4]q
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = %[5]q
    conf_dir = %[6]q
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
    runtime_type = "io.containerd.runc.v2"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = %[7]q
`, filepath.Join(dir, "root"), filepath.Join(dir, "state"), sock, pauseRef, cniBin, filepath.Join(dir, "net.d"), filepath.Join(dir, "certs.d")))
	writeFile(t, filepath.Join(dir, "kubelet.yaml"), fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
failSwapOn: false
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://%s
address: %s
readOnlyPort: 0
healthzPort: 0
authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
authorization: {mode: AlwaysAllow}
evictionHard: {memory.available: "100Mi", nodefs.available: "1%%", imagefs.available: "1%%"}
`, sock, nodeIP))

	containerd := daemon(t, dir, "containerd", "containerd", "--config", filepath.Join(dir, "containerd.toml"))
	kube := daemon(t, dir, "kubelet", kubelet, "--config", filepath.Join(dir, "kubelet.yaml"), "--kubeconfig", kubeconfig,
		"--root-dir", filepath.Join(dir, "kubelet"), "--hostname-override", nodeName, "--node-ip", nodeIP, "--v=1")
	t.Cleanup(func() {
		deletePods(t, cs)
		stop(kube)
		stopContainers(sock)
		stop(containerd)
		killShims(sock)
		unmountBelow(dir)
		os.RemoveAll(dir)
	})
	waitNodeReady(t, cs, dir)
}

// daemon starts a node process, its output in dir/name.log.
func daemon(t *testing.T, dir, name, exe string, args ...string) *exec.Cmd {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	go func() { cmd.Wait(); f.Close() }()
	return cmd
}

// stop ends a node process: SIGTERM, SIGKILL after ten seconds.
func stop(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if cmd.Process.Signal(syscall.Signal(0)) != nil {
			return
		}
	}
	cmd.Process.Kill()
}

// waitNodeReady waits for the kubelet's node to be Ready, then removes
// its not-ready taint.
func waitNodeReady(t *testing.T, cs kubernetes.Interface, dir string) {
	t.Helper()
	ctx := context.Background()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		n, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil || !nodeReady(n) {
			continue
		}
		patch := []byte(`{"spec":{"taints":null}}`)
		if _, err := cs.CoreV1().Nodes().Patch(ctx, nodeName, types.StrategicMergePatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Logf("node %s Ready (kubelet %s, %s)", nodeName, n.Status.NodeInfo.KubeletVersion, n.Status.NodeInfo.ContainerRuntimeVersion)
		return
	}
	kubelet, _ := os.ReadFile(filepath.Join(dir, "kubelet.log"))
	containerd, _ := os.ReadFile(filepath.Join(dir, "containerd.log"))
	t.Fatalf("node %s not Ready after 2 minutes; kubelet log:\n%s\ncontainerd log:\n%s", nodeName, diag.Tail(kubelet, 40), diag.Tail(containerd, 20))
}

func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// deletePods deletes the pods of the default namespace and waits (up to a
// minute) for the kubelet to have stopped them.
func deletePods(t *testing.T, cs kubernetes.Interface) {
	ctx := context.Background()
	cs.CoreV1().Pods("default").DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}, metav1.ListOptions{})
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		pods, err := cs.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
		if err == nil && len(pods.Items) == 0 {
			return
		}
	}
	t.Logf("pods still there a minute after their deletion")
}

// stopContainers kills and removes what the kubelet left in containerd.
func stopContainers(sock string) {
	ctr := func(args ...string) string {
		out, _ := exec.Command("ctr", append([]string{"-a", sock, "-n", "k8s.io"}, args...)...).Output()
		return string(out)
	}
	ids := strings.Fields(ctr("containers", "ls", "-q"))
	for _, id := range ids {
		ctr("tasks", "kill", "-s", "SIGKILL", id)
	}
	for _, id := range ids {
		ctr("tasks", "delete", "-f", id)
		ctr("containers", "rm", id)
	}
}

// killShims kills the containerd shims that serve sock's containerd (they
// outlive it by design).
func killShims(sock string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), "containerd-shim") || !strings.Contains(string(b), sock) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// unmountBelow detaches every mount below dir (containerd's snapshots
// and the kubelet's volumes), deepest first.
func unmountBelow(dir string) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return
	}
	var points []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], dir+"/") {
			points = append(points, f[4])
		}
	}
	for i := len(points) - 1; i >= 0; i-- {
		syscall.Unmount(points[i], syscall.MNT_DETACH)
	}
}

// samplePods follows the worker pods' cgroups (the kubelet's cgroupfs
// layout on cgroup v1) every second and, when stopped, logs each pod's
// peak memory and CPU time: the measured cost docs/scale-out.md sizes
// requests from.
func samplePods(t *testing.T) (stop func()) {
	type cost struct {
		mem int64
		cpu float64
	}
	seen := map[string]cost{}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			dirs, _ := filepath.Glob("/sys/fs/cgroup/memory/kubepods/burstable/pod*")
			for _, d := range dirs {
				pod := filepath.Base(d)
				c := seen[pod]
				c.mem = max(c.mem, readInt(filepath.Join(d, "memory.max_usage_in_bytes")))
				c.cpu = max(c.cpu, float64(readInt(filepath.Join("/sys/fs/cgroup/cpuacct/kubepods/burstable", pod, "cpuacct.usage")))/1e9)
				seen[pod] = c
			}
			select {
			case <-done:
				return
			case <-time.After(time.Second):
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		for pod, c := range seen {
			t.Logf("worker %s: peak memory %d MiB, %.1f CPU-seconds", pod, c.mem>>20, c.cpu)
		}
	}
}

func readInt(file string) int64 {
	b, _ := os.ReadFile(file)
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n
}

func mustRun(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func writeFile(t *testing.T, file, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
