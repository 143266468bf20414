package nodesim

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

// syncPod moves one pod along its simulated life: bound -> Running and
// Ready -> (Job pods) Succeeded; deleted -> gone after the grace.
func (s *sim) syncPod(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	pod, err := s.pods.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if _, ours := s.nodes[pod.Spec.NodeName]; !ours {
		return 0, nil
	}
	switch {
	case pod.DeletionTimestamp != nil:
		return s.finalize(ctx, pod)
	case pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed:
		return 0, nil
	case pod.Status.Phase != corev1.PodRunning:
		return s.start(ctx, pod)
	case ownedByJob(pod):
		return s.complete(ctx, pod)
	}
	return 0, nil
}

// finalize deletes a terminating pod once it has been seen terminating for
// the grace, as a kubelet does after its containers stopped.
func (s *sim) finalize(ctx context.Context, pod *corev1.Pod) (time.Duration, error) {
	grace := s.opts.TerminationGrace
	if g := pod.DeletionGracePeriodSeconds; g != nil && time.Duration(*g)*time.Second < grace {
		grace = time.Duration(*g) * time.Second
	}
	if left := grace - time.Since(s.seenTerminating(pod)); left > 0 {
		return left, nil
	}
	err := s.client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{
		GracePeriodSeconds: ptr.To[int64](0),
		Preconditions:      &metav1.Preconditions{UID: &pod.UID},
	})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return 0, fmt.Errorf("deleting pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	s.forget(pod)
	return 0, nil
}

func (s *sim) seenTerminating(pod *corev1.Pod) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.terminating[pod.UID]
	if !ok {
		t = time.Now()
		s.terminating[pod.UID] = t
	}
	return t
}

func (s *sim) forget(pod *corev1.Pod) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.terminating, pod.UID)
}

// start makes a bound pod Running and Ready.
func (s *sim) start(ctx context.Context, pod *corev1.Pod) (time.Duration, error) {
	pod = pod.DeepCopy()
	now := metav1.Now()
	pod.Status = runningStatus(pod, s.hostIP(pod.Spec.NodeName), now)
	_, err := s.client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	return 0, ignoreGone(err)
}

// complete makes a running Job pod succeed after it ran for JobPodRun.
func (s *sim) complete(ctx context.Context, pod *corev1.Pod) (time.Duration, error) {
	if st := pod.Status.StartTime; st != nil {
		if left := s.opts.JobPodRun - time.Since(st.Time); left > 0 {
			return left, nil
		}
	}
	pod = pod.DeepCopy()
	pod.Status = succeededStatus(pod, metav1.Now())
	_, err := s.client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	return 0, ignoreGone(err)
}

func (s *sim) hostIP(node string) string {
	i := s.nodes[node]
	return fmt.Sprintf("10.243.%d.%d", i/250, i%250+1)
}

func ignoreGone(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func ownedByJob(pod *corev1.Pod) bool {
	for _, ref := range pod.OwnerReferences {
		if ref.Kind == "Job" && ref.Controller != nil && *ref.Controller {
			return true
		}
	}
	return false
}

// podIP derives a stable IP from the pod's namespace and name, so that a
// reference run and a test run give a pod the same address.
func podIP(pod *corev1.Pod) string {
	h := fnv.New32a()
	h.Write([]byte(pod.Namespace + "/" + pod.Name))
	v := h.Sum32()
	return fmt.Sprintf("10.%d.%d.%d", 128+(v>>16)&63, (v>>8)&255, v%253+1)
}

func runningStatus(pod *corev1.Pod, hostIP string, now metav1.Time) corev1.PodStatus {
	st := pod.Status
	st.Phase = corev1.PodRunning
	st.HostIP = hostIP
	st.HostIPs = []corev1.HostIP{{IP: hostIP}}
	st.PodIP = podIP(pod)
	st.PodIPs = []corev1.PodIP{{IP: st.PodIP}}
	st.StartTime = &now
	st.Conditions = setConditions(st.Conditions, now, corev1.ConditionTrue, "",
		corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady)
	st.InitContainerStatuses = nil
	for _, c := range pod.Spec.InitContainers {
		st.InitContainerStatuses = append(st.InitContainerStatuses, containerStatus(pod, c, terminated(now), false))
	}
	st.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}
		st.ContainerStatuses = append(st.ContainerStatuses, containerStatus(pod, c, running, true))
	}
	return st
}

func succeededStatus(pod *corev1.Pod, now metav1.Time) corev1.PodStatus {
	st := pod.Status
	st.Phase = corev1.PodSucceeded
	st.Conditions = setConditions(st.Conditions, now, corev1.ConditionFalse, "PodCompleted",
		corev1.ContainersReady, corev1.PodReady)
	st.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, containerStatus(pod, c, terminated(now), false))
	}
	return st
}

func terminated(now metav1.Time) corev1.ContainerState {
	return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		ExitCode: 0, Reason: "Completed", StartedAt: now, FinishedAt: now,
	}}
}

func containerStatus(pod *corev1.Pod, c corev1.Container, state corev1.ContainerState, ready bool) corev1.ContainerStatus {
	return corev1.ContainerStatus{
		Name:         c.Name,
		State:        state,
		Ready:        ready,
		Started:      ptr.To(state.Running != nil),
		Image:        c.Image,
		ImageID:      "sieve.dev/image@sha256:" + digest(c.Image),
		ContainerID:  "sieve://" + digest(string(pod.UID)+"/"+c.Name),
		RestartCount: 0,
	}
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// setConditions sets the given pod conditions to status, keeping others.
func setConditions(conds []corev1.PodCondition, now metav1.Time, status corev1.ConditionStatus, reason string, types ...corev1.PodConditionType) []corev1.PodCondition {
	out := append([]corev1.PodCondition(nil), conds...)
	for _, t := range types {
		c := corev1.PodCondition{Type: t, Status: status, Reason: reason, LastTransitionTime: now}
		replaced := false
		for i := range out {
			if out[i].Type == t {
				if out[i].Status == status {
					c.LastTransitionTime = out[i].LastTransitionTime
				}
				out[i], replaced = c, true
			}
		}
		if !replaced {
			out = append(out, c)
		}
	}
	return out
}
