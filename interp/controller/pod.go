package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// PodLabel marks the emulated pod of the controller under test; its value
// is the controller's name. The oracle uses it to tell the controller's own
// objects from those it manages.
const PodLabel = "sieve.dev/controller"

// CreatePod returns an Options.Pod callback that creates the emulated pod
// object with an admin client, so an operator that looks itself up (leader
// election, owner references) finds it. On the embedded backend the
// scheduler places it on a simulated node, which keeps it Running; no
// container runs it.
func CreatePod(cs kubernetes.Interface, controllerName string) func(context.Context, PodInfo) error {
	return func(ctx context.Context, p PodInfo) error {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Name: p.Name, Namespace: p.Namespace,
				Labels: map[string]string{PodLabel: controllerName, "app.kubernetes.io/managed-by": "sieve"},
			},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "controller", Image: "sieve.dev/controller-under-test"}}},
		}
		_, err := cs.CoreV1().Pods(p.Namespace).Create(ctx, pod, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		return nil
	}
}
