package embedded

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
)

// pollInterval is how often readiness is checked.
const pollInterval = 20 * time.Millisecond

// systemNamespaces are the namespaces the API server creates, each with a
// default service account and the root CA config map.
func systemNamespaces() []string {
	return []string{"default", "kube-system", "kube-public", "kube-node-lease"}
}

// check is one readiness condition.
type check struct {
	what string
	ok   func(ctx context.Context) bool
}

// waitReady waits until every component serves: API server first, then
// the others together.
func (c *Cluster) waitReady(ctx context.Context) error {
	client, err := c.probeClient()
	if err != nil {
		return fmt.Errorf("admin client: %w", err)
	}
	apiReady := check{"kube-apiserver /readyz", func(ctx context.Context) bool {
		code := 0
		res := client.Discovery().RESTClient().Get().AbsPath("/readyz").Do(ctx).StatusCode(&code)
		return res.Error() == nil && code == http.StatusOK
	}}
	if err := c.poll(ctx, []check{apiReady}); err != nil {
		return err
	}
	return c.poll(ctx, c.settledChecks(client))
}

// probeClient is an admin client whose requests give up after a while, so
// that one stuck probe does not hold a whole wait.
func (c *Cluster) probeClient() (kubernetes.Interface, error) {
	cfg := rest.CopyConfig(c.rest)
	cfg.Timeout = 2 * time.Second
	return kubernetes.NewForConfig(cfg)
}

// settledChecks are the conditions of a settled cluster: scheduler ready,
// nodes Ready, the kubernetes Service, system namespaces populated. Start
// takes the first checkpoint once they hold, so that Reset does not delete
// what the control plane wrote late.
func (c *Cluster) settledChecks(client kubernetes.Interface) []check {
	sched := &http.Client{
		Timeout:   time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
	}
	core := client.CoreV1()
	svc := kubernetesService(c.layout.apiPort)
	checks := []check{
		{"kube-scheduler /readyz", func(ctx context.Context) bool {
			ok := c.schedulerReady(ctx, sched)
			if ok {
				sched.CloseIdleConnections()
			}
			return ok
		}},
		{"nodes Ready", func(ctx context.Context) bool { return c.nodesReady(ctx, client) }},
		written(c, "the kubernetes Service", svc, []string{svc.Namespace},
			func(ns string) getCreator[*corev1.Service] { return core.Services(ns) }),
	}
	return append(checks, c.systemObjectChecks(core)...)
}

// systemObjectChecks are the checks that each system namespace holds a
// default service account and the root CA config map, when the controller
// manager runs the controllers that write them.
func (c *Cluster) systemObjectChecks(core typedcorev1.CoreV1Interface) []check {
	var checks []check
	if slices.Contains(c.layout.controllers, "serviceaccount-controller") {
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
		checks = append(checks, written(c, "default service accounts", sa, systemNamespaces(),
			func(ns string) getCreator[*corev1.ServiceAccount] { return core.ServiceAccounts(ns) }))
	}
	if slices.Contains(c.layout.controllers, "root-ca-certificate-publisher-controller") {
		cm := rootCA(c.rest.CAData) // pki/ca.crt, the controller manager's --root-ca-file
		checks = append(checks, written(c, "root CA config maps", cm, systemNamespaces(),
			func(ns string) getCreator[*corev1.ConfigMap] { return core.ConfigMaps(ns) }))
	}
	return checks
}

// getCreator is client-go's typed client of one kind, in one namespace.
type getCreator[T any] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
}

// written is the check that obj is in each of namespaces.
//
// With the binary's own control plane, Start writes obj itself first, as
// the component that writes it would: the same object, so that the
// component finds it in place and writes nothing. Those components write
// late: the API server's kubernetes Service controller asks /readyz every
// 100 ms before it writes, and the controller manager's caches are filled
// 0.2–0.5 s after the API server is healthy. A start waited for them last;
// the writes take milliseconds. When the component wrote first, the
// create fails, and not always as "already exists" (the kubernetes
// Service's IP is taken): a get then finds the object. A 1.21 control
// plane writes more with them (a token secret for each service account):
// for it Start only waits.
func written[T metav1.Object](c *Cluster, what string, obj T, namespaces []string, client func(ns string) getCreator[T]) check {
	write := c.layout.line == ""
	return check{what, func(ctx context.Context) bool {
		for _, ns := range namespaces {
			cl := client(ns)
			if write {
				if _, err := cl.Create(ctx, obj, metav1.CreateOptions{}); err == nil {
					continue
				}
			}
			if _, err := cl.Get(ctx, obj.GetName(), metav1.GetOptions{}); err != nil {
				return false
			}
		}
		return true
	}}
}

// kubernetesService is the kubernetes Service as the API server's
// controller writes it, for an API server on apiPort
// (k8s.io/kubernetes/pkg/controlplane/controller/kubernetesservice).
func kubernetesService(apiPort int) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Name:      "kubernetes",
			Namespace: metav1.NamespaceDefault,
			Labels:    map[string]string{"provider": "kubernetes", "component": "apiserver"},
		},
		Spec: corev1.ServiceSpec{
			Ports: []corev1.ServicePort{{
				Protocol: corev1.ProtocolTCP, Port: 443, Name: "https", TargetPort: intstr.FromInt32(int32(apiPort)),
			}},
			ClusterIP:       kubernetesServiceIP,
			IPFamilyPolicy:  ptr.To(corev1.IPFamilyPolicySingleStack),
			SessionAffinity: corev1.ServiceAffinityNone,
			Type:            corev1.ServiceTypeClusterIP,
		},
	}
}

// rootCA is the root CA config map as the controller manager's publisher
// writes it (k8s.io/kubernetes/pkg/controller/certificates/rootcacertpublisher).
func rootCA(ca []byte) *corev1.ConfigMap {
	const description = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
		"No other usage is guaranteed across distributions of Kubernetes clusters."
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-root-ca.crt", Annotations: map[string]string{"kubernetes.io/description": description}},
		Data:       map[string]string{"ca.crt": string(ca)},
	}
}

func (c *Cluster) nodesReady(ctx context.Context, client kubernetes.Interface) bool {
	nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false
	}
	ready := 0
	for _, n := range nodes.Items {
		for _, cond := range n.Status.Conditions {
			if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue && len(n.Spec.Taints) == 0 {
				ready++
			}
		}
	}
	return ready >= c.layout.nodes
}

// schedulerReady asks the scheduler's /readyz; it serves a self-signed
// certificate on loopback, which is not verified.
func (c *Cluster) schedulerReady(ctx context.Context, client *http.Client) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.layout.schedulerURL()+c.layout.schedulerReadyPath(), nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// poll waits until every check passes, failing early when a component
// exits.
func (c *Cluster) poll(ctx context.Context, checks []check) error {
	for {
		if err := c.exitedProc(); err != nil {
			return err
		}
		pending := pendingChecks(ctx, checks)
		if len(pending) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (logs in %s)", pending[0].what, ctx.Err(), c.layout.path("logs"))
		case <-time.After(pollInterval):
		}
		checks = pending
	}
}

// pendingChecks runs the checks together and returns those that failed.
// Each check's requests wait for the API server and etcd, not for the CPU:
// after the API server is ready, the writes of three checks (written) end
// the start sooner together than one after another.
func pendingChecks(ctx context.Context, checks []check) []check {
	ok := make([]bool, len(checks))
	var wg sync.WaitGroup
	for i, ch := range checks {
		wg.Go(func() { ok[i] = ch.ok(ctx) })
	}
	wg.Wait()
	var pending []check
	for i, ch := range checks {
		if !ok[i] {
			pending = append(pending, ch)
		}
	}
	return pending
}

// exitedProc returns the failure of the first component that exited.
func (c *Cluster) exitedProc() error {
	for _, p := range c.procs {
		if p.exited() {
			return p.failure()
		}
	}
	return nil
}
