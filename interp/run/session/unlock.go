package session

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// unlockTimeout bounds the release of a killed controller's locks; past
// it the restarted controller waits out the lease as it would anyway.
const unlockTimeout = 5 * time.Second

// killer is how the injector kills the controller: killAndUnlock on the
// clusters sieve creates; on a cluster it does not own, where a lock may
// live in a namespace that is not the run's, the kill alone.
func (s *session) killer(admin kubernetes.Interface) func() error {
	if owner(s.w.Backend) != nil {
		return s.runner.Kill
	}
	return func() error { return s.killAndUnlock(admin) }
}

// killAndUnlock kills the controller and lets go the leader-election
// locks it held, as its leader election would on a clean exit
// (leader.Release): the process that held them is gone, and its restart
// then takes them at once instead of waiting out a lease that no live
// process renews. Each lock let go is a fault entry of the trace; a lock
// that changed since the controller wrote it, or that sieve cannot
// update, is left as it is.
func (s *session) killAndUnlock(admin kubernetes.Interface) error {
	if err := s.runner.Kill(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), unlockTimeout)
	defer cancel()
	held := s.px.HeldLocks()
	keys := make([]trace.Key, 0, len(held))
	for k := range held {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b trace.Key) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range keys {
		released, err := unlock(ctx, admin, k, held[k])
		if err != nil {
			s.sink(trace.Entry{Time: time.Now(), Type: trace.Fault, What: "unlock", Key: &k, Error: err.Error()})
		}
		if !released {
			continue
		}
		s.sink(trace.Entry{Time: time.Now(), Type: trace.Fault, What: "unlock", Key: &k,
			Message: fmt.Sprintf("the killed controller's lock let go (holder %s)", held[k])})
	}
	return nil
}

// unlock lets go the lock k if holder still holds it, and reports
// whether it did.
func unlock(ctx context.Context, admin kubernetes.Interface, k trace.Key, holder string) (bool, error) {
	switch k.Kind {
	case "lease":
		c := admin.CoordinationV1().Leases(k.Namespace)
		return release(k, holder, func() (*coordinationv1.Lease, error) { return c.Get(ctx, k.Name, metav1.GetOptions{}) },
			func(o *coordinationv1.Lease) error { _, err := c.Update(ctx, o, metav1.UpdateOptions{}); return err })
	case "configmap":
		c := admin.CoreV1().ConfigMaps(k.Namespace)
		return release(k, holder, func() (*corev1.ConfigMap, error) { return c.Get(ctx, k.Name, metav1.GetOptions{}) },
			func(o *corev1.ConfigMap) error { _, err := c.Update(ctx, o, metav1.UpdateOptions{}); return err })
	case "endpoints":
		c := admin.CoreV1().Endpoints(k.Namespace)
		return release(k, holder, func() (*corev1.Endpoints, error) { return c.Get(ctx, k.Name, metav1.GetOptions{}) },
			func(o *corev1.Endpoints) error { _, err := c.Update(ctx, o, metav1.UpdateOptions{}); return err })
	}
	return false, nil
}

// release reads the lock, lets its record go (leader.Release) and writes
// it back, the update conditional on the version read; false when holder
// no longer holds it.
func release[T any](k trace.Key, holder string, get func() (*T, error), update func(*T) error) (bool, error) {
	o, err := get()
	if err != nil {
		return false, err
	}
	raw, err := json.Marshal(o)
	if err != nil {
		return false, err
	}
	out, ok := leader.Release(k.Kind, raw, holder)
	if !ok {
		return false, nil
	}
	var released T
	if err := json.Unmarshal(out, &released); err != nil {
		return false, err
	}
	return true, update(&released)
}
