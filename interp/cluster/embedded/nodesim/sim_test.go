package nodesim

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"
)

// startSim runs the simulator on a fake client until the test ends.
func startSim(t *testing.T) kubernetes.Interface {
	t.Helper()
	return startSimWith(t, Options{Nodes: 2, TerminationGrace: 50 * time.Millisecond, JobPodRun: 50 * time.Millisecond})
}

// startSimWith runs the simulator with opts (two nodes) on a fake client
// until the test ends.
func startSimWith(t *testing.T, opts Options) kubernetes.Interface {
	t.Helper()
	client := fake.NewClientset()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, client, opts)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	eventually(t, "nodes registered", func() bool {
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		return err == nil && len(nodes.Items) == 2
	})
	return client
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 5*time.Millisecond, 10*time.Second, true,
		func(context.Context) (bool, error) { return cond(), nil })
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

func TestSetup(t *testing.T) {
	client := startSim(t)
	ctx := context.Background()
	node, err := client.CoreV1().Nodes().Get(ctx, "sieve-node-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(node.Spec.Taints) != 0 || node.Status.Conditions[0].Type != corev1.NodeReady || node.Status.Conditions[0].Status != corev1.ConditionTrue {
		t.Errorf("node not Ready and untainted: %+v %+v", node.Spec.Taints, node.Status.Conditions)
	}
	eventually(t, "the node's lease", func() bool {
		_, err := client.CoordinationV1().Leases("kube-node-lease").Get(ctx, "sieve-node-1", metav1.GetOptions{})
		return err == nil
	})
	sc, err := client.StorageV1().StorageClasses().Get(ctx, "standard", metav1.GetOptions{})
	if err != nil || sc.Annotations["storageclass.kubernetes.io/is-default-class"] != "true" {
		t.Errorf("default storage class: %v %v", sc, err)
	}
}

func pod(name, node string, owner *metav1.OwnerReference) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name)},
		Spec: corev1.PodSpec{
			NodeName:   node,
			Containers: []corev1.Container{{Name: "main", Image: "busybox"}},
		},
	}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	return p
}

func TestPodLifecycle(t *testing.T) {
	client := startSim(t)
	ctx := context.Background()
	pods := client.CoreV1().Pods("ns")
	for _, p := range []*corev1.Pod{
		pod("web", "sieve-node-0", nil),
		pod("elsewhere", "other-node", nil),
		pod("job-x", "sieve-node-1", &metav1.OwnerReference{Kind: "Job", Name: "x", Controller: ptr.To(true)}),
	} {
		if _, err := pods.Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "web Running and Ready", func() bool {
		p, err := pods.Get(ctx, "web", metav1.GetOptions{})
		return err == nil && p.Status.Phase == corev1.PodRunning && p.Status.PodIP != "" &&
			len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].Ready
	})
	eventually(t, "the Job's pod Succeeded", func() bool {
		p, err := pods.Get(ctx, "job-x", metav1.GetOptions{})
		return err == nil && p.Status.Phase == corev1.PodSucceeded
	})
	if p, _ := pods.Get(ctx, "elsewhere", metav1.GetOptions{}); p.Status.Phase != "" {
		t.Errorf("a pod on a node nodesim does not run got phase %q", p.Status.Phase)
	}

	terminating := pod("leaving", "sieve-node-0", nil)
	terminating.DeletionTimestamp = ptr.To(metav1.Now())
	terminating.DeletionGracePeriodSeconds = ptr.To[int64](30)
	terminating.Finalizers = nil
	if _, err := pods.Create(ctx, terminating, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the terminating pod deleted", func() bool {
		_, err := pods.Get(ctx, "leaving", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}

// TestTerminatingPodIsPending: once the simulator has seen a pod
// terminating, it reports work pending for as long as the pod exists (its
// grace runs on a timer the cluster does not show), and none once it is
// gone.
func TestTerminatingPodIsPending(t *testing.T) {
	var n atomic.Int64
	client := startSimWith(t, Options{Nodes: 2, TerminationGrace: 400 * time.Millisecond,
		Pending: func(p int) { n.Store(int64(p)) }})
	ctx := context.Background()
	pods := client.CoreV1().Pods("ns")
	eventually(t, "nothing pending after the start", func() bool { return n.Load() == 0 })
	leaving := pod("leaving", "sieve-node-0", nil)
	leaving.DeletionTimestamp = ptr.To(metav1.Now())
	leaving.DeletionGracePeriodSeconds = ptr.To[int64](30)
	if _, err := pods.Create(ctx, leaving, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the terminating pod pending", func() bool { return n.Load() > 0 })
	start := time.Now()
	for {
		pending := n.Load()
		_, err := pods.Get(ctx, "leaving", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		if pending == 0 {
			t.Fatalf("nothing pending %s into the grace, the pod still there", time.Since(start))
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the terminating pod still there after 10s")
		}
		time.Sleep(time.Millisecond)
	}
	eventually(t, "nothing pending once the pod is gone", func() bool { return n.Load() == 0 })
}

func TestPodIPIsStable(t *testing.T) {
	a, b := pod("web-0", "n", nil), pod("web-0", "n", nil)
	b.UID = "another"
	if podIP(a) != podIP(b) {
		t.Errorf("same namespace/name, different IPs: %s %s", podIP(a), podIP(b))
	}
	if podIP(a) == podIP(pod("web-1", "n", nil)) {
		t.Errorf("web-0 and web-1 share an IP")
	}
}

func TestProvision(t *testing.T) {
	client := startSim(t)
	ctx := context.Background()
	pvc := &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: "ns", UID: "pvc-uid"},
		Spec: corev1.PersistentVolumeClaimSpec{
			StorageClassName: ptr.To("fast"),
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("3Gi")},
			},
		},
	}
	if _, err := client.CoreV1().PersistentVolumeClaims("ns").Create(ctx, pvc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a volume pre-bound to the claim", func() bool {
		pv, err := client.CoreV1().PersistentVolumes().Get(ctx, "pvc-pvc-uid", metav1.GetOptions{})
		return err == nil && pv.Spec.ClaimRef != nil && pv.Spec.ClaimRef.UID == "pvc-uid" &&
			pv.Spec.StorageClassName == "fast" && pv.Spec.Capacity.Storage().String() == "3Gi"
	})
}
