package embedded_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/cluster/embedded/seed"
)

// waitTimeout bounds every wait of the end-to-end tests.
const waitTimeout = 60 * time.Second

// TestWorkloads runs real workloads on the embedded control plane: a
// StatefulSet with volumes, a Deployment, garbage collection of a deleted
// StatefulSet's pods (observably terminating first) and namespace deletion.
func TestWorkloads(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()
	ns := createNamespace(t, client, "e2e")

	create(t, func() error {
		_, err := client.AppsV1().StatefulSets(ns).Create(ctx, statefulSet("web", 3), metav1.CreateOptions{})
		return err
	})
	create(t, func() error {
		_, err := client.AppsV1().Deployments(ns).Create(ctx, deployment("app", 2), metav1.CreateOptions{})
		return err
	})
	waitFor(t, "3 Running and Ready pods of the StatefulSet", func() (bool, error) {
		return countPods(ctx, client, ns, "app=web", podReady) == 3, nil
	})
	waitFor(t, "3 Bound claims", func() (bool, error) {
		return countClaims(ctx, client, ns, corev1.ClaimBound) == 3, nil
	})
	waitFor(t, "the Deployment's 2 available replicas", func() (bool, error) {
		d, err := client.AppsV1().Deployments(ns).Get(ctx, "app", metav1.GetOptions{})
		return err == nil && d.Status.AvailableReplicas == 2, err
	})

	terminating := watchTerminating(t, client, ns, "app=web")
	if err := client.AppsV1().StatefulSets(ns).Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the garbage collector to remove the StatefulSet's pods", func() (bool, error) {
		return countPods(ctx, client, ns, "app=web", anyPod) == 0, nil
	})
	if n := <-terminating; n == 0 {
		t.Errorf("no pod of the deleted StatefulSet was seen terminating")
	}
	if n := countClaims(ctx, client, ns, corev1.ClaimBound); n != 3 {
		t.Errorf("after deleting the StatefulSet: %d Bound claims, want 3 (claims are retained)", n)
	}

	if err := client.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the namespace deletion to finish", func() (bool, error) {
		_, err := client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
}

func createNamespace(t *testing.T, client kubernetes.Interface, name string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	create(t, func() error {
		_, err := client.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{})
		return err
	})
	return name
}

func create(t *testing.T, f func() error) {
	t.Helper()
	if err := f(); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	start := time.Now()
	defer func() { t.Logf("%s: %v", what, time.Since(start).Round(time.Millisecond)) }()
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, waitTimeout, true,
		func(context.Context) (bool, error) { return cond() })
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

func podReady(p corev1.Pod) bool {
	if p.Status.Phase != corev1.PodRunning || p.Status.PodIP == "" || len(p.Status.ContainerStatuses) == 0 {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func anyPod(corev1.Pod) bool { return true }

func countPods(ctx context.Context, client kubernetes.Interface, ns, selector string, pred func(corev1.Pod) bool) int {
	list, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return -1
	}
	n := 0
	for _, p := range list.Items {
		if pred(p) {
			n++
		}
	}
	return n
}

func countClaims(ctx context.Context, client kubernetes.Interface, ns string, phase corev1.PersistentVolumeClaimPhase) int {
	list, err := client.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return -1
	}
	n := 0
	for _, c := range list.Items {
		if c.Status.Phase == phase && c.Spec.VolumeName != "" {
			n++
		}
	}
	return n
}

// watchTerminating counts the pods seen with a deletionTimestamp while
// they still exist; the count is sent when the watch ends (waitTimeout).
func watchTerminating(t *testing.T, client kubernetes.Interface, ns, selector string) <-chan int {
	t.Helper()
	w, err := client.CoreV1().Pods(ns).Watch(context.Background(), metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan int, 1)
	go func() {
		defer w.Stop()
		seen := map[string]bool{}
		timeout := time.After(waitTimeout)
		for len(seen) < 3 {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					out <- len(seen)
					return
				}
				if p, isPod := ev.Object.(*corev1.Pod); isPod && ev.Type == watch.Modified && p.DeletionTimestamp != nil {
					seen[p.Name] = true
				}
			case <-timeout:
				out <- len(seen)
				return
			}
		}
		out <- len(seen)
	}()
	return out
}

func labels(app string) map[string]string { return map[string]string{"app": app} }

// podSpec is a pod with a short termination grace: the namespace
// controller waits half the longest grace of the pods it deletes before it
// looks again, as on a real cluster.
func podSpec() corev1.PodSpec {
	return corev1.PodSpec{
		TerminationGracePeriodSeconds: ptr.To[int64](2),
		Containers:                    []corev1.Container{{Name: "main", Image: "registry.k8s.io/pause:3.10"}},
	}
}

func statefulSet(name string, replicas int32) *appsv1.StatefulSet {
	spec := podSpec()
	spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    ptr.To(replicas),
			ServiceName: name,
			Selector:    &metav1.LabelSelector{MatchLabels: labels(name)},
			Template:    corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels(name)}, Spec: spec},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data"},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{
						Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")},
					},
				},
			}},
		},
	}
}

func deployment(name string, replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels(name)},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels(name)}, Spec: podSpec()},
		},
	}
}

// TestParallelClusters runs two control planes at once in one process, as
// parallel workers do, and a workload on each.
func TestParallelClusters(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	bin := embeddedtest.ControlPlane(t)
	clusters := make([]*embedded.Cluster, 2)
	errs := make(chan error, len(clusters))
	for i := range clusters {
		clusters[i] = embedded.New(embedded.Options{Binary: bin})
		t.Cleanup(func() { _ = clusters[i].Stop() })
		go func() { errs <- clusters[i].Start(context.Background()) }()
	}
	for range clusters {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if clusters[0].RESTConfig().Host == clusters[1].RESTConfig().Host {
		t.Fatalf("both clusters serve at %s", clusters[0].RESTConfig().Host)
	}
	for i, c := range clusters {
		client := kubernetes.NewForConfigOrDie(c.RESTConfig())
		create(t, func() error {
			_, err := client.AppsV1().Deployments("default").Create(context.Background(), deployment("app", 2), metav1.CreateOptions{})
			return err
		})
		waitFor(t, fmt.Sprintf("2 Ready pods on cluster %d", i), func() (bool, error) {
			return countPods(context.Background(), client, "default", "app=app", podReady) == 2, nil
		})
	}
}

// TestBootstrapObjects checks that a started cluster has what the API
// server's bootstrap creates. (The control plane runs it without the stock
// hooks' first second, and the roles outside /healthz.) The roles and
// bindings of RBAC's bootstrap policy, the system priority classes and the
// default ServiceCIDR must be present when Start returns. It starts a
// cluster without the etcd seed, which writes the seed, and one with it,
// from a cache of its own.
func TestBootstrapObjects(t *testing.T) {
	build := embeddedtest.ControlPlane(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	bin := filepath.Join(cache, "sieve", "controlplane", "src-test", filepath.Base(build))
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(build, bin); err != nil {
		t.Fatal(err)
	}
	path := embedded.SeedPath(bin)
	if path == "" {
		t.Skip("the user cache is not under $XDG_CACHE_HOME on this system")
	}
	for _, seeded := range []bool{false, true} {
		t.Run(fmt.Sprintf("seeded=%v", seeded), func(t *testing.T) {
			c := embeddedtest.Start(t, embedded.Options{Binary: bin})
			checkBootstrapObjects(t, c.RESTConfig())
			log, err := os.ReadFile(filepath.Join(c.Dir(), "logs", "etcd.log"))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(log), "etcd seeded with"); got != seeded {
				t.Errorf("etcd log says seeded: %v, want %v:\n%s", got, seeded, log)
			}
			kvs, err := seed.Read(path)
			if err != nil {
				t.Fatalf("the cluster left no seed: %v", err)
			}
			if len(kvs) < 100 {
				t.Errorf("the seed holds %d keys, want the hundred and more objects of the bootstrap", len(kvs))
			}
			if !slices.ContainsFunc(kvs, func(kv seed.KV) bool { return kv.Key == "/registry/servicecidrs/kubernetes" }) {
				t.Error("the seed lacks the default ServiceCIDR")
			}
		})
	}
}

func checkBootstrapObjects(t *testing.T, cfg *rest.Config) {
	t.Helper()
	ctx := context.Background()
	rbac := func(resource string) schema.GroupVersionResource {
		return schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: resource}
	}
	priorityClasses := schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1", Resource: "priorityclasses"}
	dyn := dynamic.NewForConfigOrDie(cfg)
	for _, o := range []struct {
		gvr             schema.GroupVersionResource
		namespace, name string
	}{
		{rbac("clusterroles"), "", "cluster-admin"},
		{rbac("clusterroles"), "", "system:controller:statefulset-controller"},
		{rbac("clusterrolebindings"), "", "system:kube-scheduler"},
		{rbac("roles"), "kube-system", "extension-apiserver-authentication-reader"},
		{rbac("rolebindings"), "kube-public", "system:controller:bootstrap-signer"},
		{priorityClasses, "", "system-node-critical"},
		{priorityClasses, "", "system-cluster-critical"},
		{schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "servicecidrs"}, "", "kubernetes"},
	} {
		if _, err := dyn.Resource(o.gvr).Namespace(o.namespace).Get(ctx, o.name, metav1.GetOptions{}); err != nil {
			t.Errorf("%s %s/%s: %v", o.gvr.Resource, o.namespace, o.name, err)
		}
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	readyz, err := client.Discovery().RESTClient().Get().AbsPath("/readyz").Param("verbose", "true").DoRaw(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[+]sieve-bootstrap-roles ok", "[+]poststarthook/sieve/scheduling/bootstrap-system-priority-classes ok"} {
		if !strings.Contains(string(readyz), want) {
			t.Errorf("/readyz?verbose lacks %q:\n%s", want, readyz)
		}
	}
	if strings.Contains(string(readyz), "poststarthook/rbac/bootstrap-roles") {
		t.Errorf("/readyz?verbose lists the stock hook rbac/bootstrap-roles, which should be disabled:\n%s", readyz)
	}
}
