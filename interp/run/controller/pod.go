package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/lang/ir"
)

// PodLabel marks the emulated pod of the controller under test; its value
// is the controller's name.
const PodLabel = "sieve.dev/controller"

// podGate keeps the emulated pod away from schedulers and kubelets: no
// node runs it, so the status sieve writes stays as written.
const podGate = "sieve.dev/emulated"

// PodOf names controller c's emulated pod: NAME-sieve in its first
// namespace, with the spec's labels and service account.
func PodOf(c *ir.Controller) PodInfo {
	ns := "default"
	if len(c.Namespaces) > 0 && c.Namespaces[0] != "" {
		ns = c.Namespaces[0]
	}
	p := PodInfo{Name: c.Name + "-sieve", Namespace: ns, Controller: c.Name, ServiceAccount: "default"}
	if c.Pod != nil {
		p.Labels = c.Pod.Labels
		if c.Pod.ServiceAccount != "" {
			p.ServiceAccount = c.Pod.ServiceAccount
		}
	}
	return p
}

// CreatePod returns an Options.Pod callback that creates the emulated pod
// object with an admin client, as its Deployment would. The pod has no
// owner, and has the spec's labels and service account (created if missing).
// It is Running and Ready (written through the status subresource). A pod
// left by an earlier start is deleted first, so every start gets a new pod
// (a new UID), as a restarted real pod would. No node runs it: a scheduling
// gate keeps schedulers and kubelets of any backend away.
func CreatePod(cs kubernetes.Interface) func(context.Context, PodInfo) (*corev1.Pod, error) {
	return func(ctx context.Context, p PodInfo) (*corev1.Pod, error) {
		if err := ensureServiceAccount(ctx, cs, p); err != nil {
			return nil, err
		}
		if err := deletePod(ctx, cs, p); err != nil {
			return nil, err
		}
		pod, err := cs.CoreV1().Pods(p.Namespace).Create(ctx, newPod(p), metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		pod.Status = runningStatus(time.Now())
		pod, err = cs.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s: status: %w", p.Namespace, p.Name, err)
		}
		return pod, nil
	}
}

func newPod(p PodInfo) *corev1.Pod {
	labels := map[string]string{}
	for k, v := range p.Labels {
		labels[k] = v
	}
	labels[PodLabel] = p.Controller
	labels["app.kubernetes.io/managed-by"] = "sieve"
	no := false
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, Labels: labels},
		Spec: corev1.PodSpec{
			ServiceAccountName:           p.ServiceAccount,
			AutomountServiceAccountToken: &no,
			SchedulingGates:              []corev1.PodSchedulingGate{{Name: podGate}},
			Containers:                   []corev1.Container{{Name: "controller", Image: "sieve.dev/controller-under-test"}},
		},
	}
}

// runningStatus is the status of a pod whose one container runs and is
// ready. Its IP is the loopback address, where the controller is
// reachable in its private network.
func runningStatus(now time.Time) corev1.PodStatus {
	t := metav1.NewTime(now)
	cond := func(c corev1.PodConditionType) corev1.PodCondition {
		return corev1.PodCondition{Type: c, Status: corev1.ConditionTrue, LastTransitionTime: t}
	}
	return corev1.PodStatus{
		Phase:      corev1.PodRunning,
		Conditions: []corev1.PodCondition{cond(corev1.PodInitialized), cond(corev1.PodReady), cond(corev1.ContainersReady), cond(corev1.PodScheduled)},
		HostIP:     "127.0.0.1", PodIP: "127.0.0.1", PodIPs: []corev1.PodIP{{IP: "127.0.0.1"}},
		StartTime: &t,
		ContainerStatuses: []corev1.ContainerStatus{{
			Name: "controller", Ready: true, Started: &[]bool{true}[0],
			Image: "sieve.dev/controller-under-test", ImageID: "sieve.dev/controller-under-test",
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t}},
		}},
	}
}

func ensureServiceAccount(ctx context.Context, cs kubernetes.Interface, p PodInfo) error {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: p.ServiceAccount, Namespace: p.Namespace}}
	_, err := cs.CoreV1().ServiceAccounts(p.Namespace).Create(ctx, sa, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("service account %s/%s: %w", p.Namespace, p.ServiceAccount, err)
	}
	return nil
}

// deletePod deletes the pod of an earlier start at once and waits until
// it is gone.
func deletePod(ctx context.Context, cs kubernetes.Interface, p PodInfo) error {
	api := cs.CoreV1().Pods(p.Namespace)
	var zero int64
	err := api.Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("pod %s/%s: deleting the last start's: %w", p.Namespace, p.Name, err)
	}
	err = wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
		_, err := api.Get(ctx, p.Name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if err != nil {
		return fmt.Errorf("pod %s/%s: the last start's is not gone: %w", p.Namespace, p.Name, err)
	}
	return nil
}

// fieldValue is the value of a downward-API field path of pod.
func fieldValue(pod *corev1.Pod, path string) string {
	if key, ok := bracketKey(path, "metadata.labels"); ok {
		return pod.Labels[key]
	}
	if key, ok := bracketKey(path, "metadata.annotations"); ok {
		return pod.Annotations[key]
	}
	switch path {
	case "metadata.name":
		return pod.Name
	case "metadata.namespace":
		return pod.Namespace
	case "metadata.uid":
		return string(pod.UID)
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName
	case "spec.nodeName":
		return pod.Spec.NodeName
	case "status.podIP":
		return pod.Status.PodIP
	case "status.hostIP":
		return pod.Status.HostIP
	}
	return ""
}

// bracketKey reads KEY from PREFIX['KEY'].
func bracketKey(path, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(path, prefix+"['")
	if !ok || !strings.HasSuffix(rest, "']") {
		return "", false
	}
	return strings.TrimSuffix(rest, "']"), true
}
