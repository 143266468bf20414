package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// execTarget checks, as the API server does before it reaches a kubelet,
// that the exec's pod exists and has the container (filling in the only
// container when none is named). It returns the API server's refusal, or
// nil.
func (p *Proxy) execTarget(ctx context.Context, r *Request, e *Exec) error {
	path := fmt.Sprintf("/api/v1/namespaces/%s/pods/%s", e.Namespace, e.Pod)
	resp, _ := p.roundTrip(ctx, http.MethodGet, path, nil, nil, r)
	switch {
	case resp.Err != nil:
		return fmt.Errorf("looking up the pod: %w", resp.Err)
	case resp.Code != http.StatusOK:
		return upstreamRefusal(resp)
	}
	var pod corev1.Pod
	if err := json.Unmarshal(resp.Body, &pod); err != nil {
		return fmt.Errorf("looking up the pod: %w", err)
	}
	return execContainer(&pod, e)
}

// upstreamRefusal turns the upstream's failure Status into a StatusError.
func upstreamRefusal(resp *Response) *StatusError {
	var st metav1.Status
	if json.Unmarshal(resp.Body, &st) != nil || st.Message == "" {
		st.Message = strings.TrimSpace(string(resp.Body))
	}
	return &StatusError{Code: resp.Code, Reason: string(st.Reason), Message: st.Message}
}

// execContainer names the exec's container as the API server does: the
// pod's only container when none is given; a name the pod does not have
// is refused.
func execContainer(pod *corev1.Pod, e *Exec) error {
	var names []string
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	if e.Container == "" {
		if len(names) != 1 {
			return badRequest("a container name must be specified for pod %s, choose one of: [%s]", e.Pod, strings.Join(names, " "))
		}
		e.Container = names[0]
		return nil
	}
	for _, c := range pod.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.EphemeralContainers {
		names = append(names, c.Name)
	}
	for _, n := range names {
		if n == e.Container {
			return nil
		}
	}
	return badRequest("container %s is not valid for pod %s", e.Container, e.Pod)
}

func badRequest(format string, args ...any) *StatusError {
	return &StatusError{Code: http.StatusBadRequest, Reason: string(metav1.StatusReasonBadRequest), Message: fmt.Sprintf(format, args...)}
}
