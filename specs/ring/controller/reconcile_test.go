package main

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// fakeAgents are the agents of pods by IP, each with its node's mode.
type fakeAgents struct {
	modes          map[string]string // pod IP -> mode
	decommissioned []string          // the IPs asked to decommission
}

func (f *fakeAgents) Mode(_ context.Context, ip string) (string, error) { return f.modes[ip], nil }

func (f *fakeAgents) Decommission(_ context.Context, ip string) error {
	f.decommissioned = append(f.decommissioned, ip)
	if f.modes[ip] == modeNormal {
		f.modes[ip] = modeLeaving
	}
	return nil
}

func (f *fakeAgents) Ring(context.Context, string) (string, error) { return "", nil }

// resumeAfterCrash reconciles, twice, a Ring scaled down to 2 whose
// status records that ring-2 is being decommissioned, with ring-2's agent
// in mode: what a controller restarted after a crash finds. It returns
// the StatefulSet's replicas after, the record, and the agents.
func resumeAfterCrash(t *testing.T, fixed bool, mode string) (int32, string, *fakeAgents) {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := addToScheme(s); err != nil {
		t.Fatal(err)
	}
	ring := &Ring{ObjectMeta: metav1.ObjectMeta{Name: "ring", Namespace: "default", UID: "ring-uid"},
		Spec: RingSpec{Replicas: 2}, Status: RingStatus{Decommissioning: "ring-2"}}
	r := &Reconciler{Client: fake.NewClientBuilder().WithScheme(s).WithStatusSubresource(&Ring{}).WithObjects(ring).Build(), Fixed: fixed}
	ctx := context.Background()
	sts, err := r.ensureStatefulSet(ctx, &Ring{ObjectMeta: ring.ObjectMeta, Spec: RingSpec{Replicas: 3}})
	if err != nil {
		t.Fatal(err)
	}
	agents := &fakeAgents{modes: map[string]string{}}
	for i, ip := range []string{"10.128.0.1", "10.128.0.2", "10.128.0.3"} {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: node(ring, int32(i)), Namespace: "default", Labels: labels(ring)},
			Status: corev1.PodStatus{PodIP: ip}}
		if err := r.Create(ctx, pod); err != nil {
			t.Fatal(err)
		}
		agents.modes[ip] = modeNormal
	}
	agents.modes["10.128.0.3"] = mode
	r.Agents = agents
	// Twice: a shrink clears the record at the reconcile after it.
	for range 2 {
		if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "ring"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Get(ctx, client.ObjectKeyFromObject(sts), sts); err != nil {
		t.Fatal(err)
	}
	var after Ring
	if err := r.Get(ctx, client.ObjectKeyFromObject(ring), &after); err != nil {
		t.Fatal(err)
	}
	return *sts.Spec.Replicas, after.Status.Decommissioning, agents
}

// TestResumeNotStarted is the bug: the controller crashed after it
// recorded ring-2's decommission and before it asked ring-2's agent, so
// the node is still NORMAL. The buggy controller shrinks the StatefulSet
// (ring-2's pod goes, its node never left the ring); the fixed one asks
// the agent again and keeps the StatefulSet.
func TestResumeNotStarted(t *testing.T) {
	n, rec, agents := resumeAfterCrash(t, false, modeNormal)
	if n != 2 || rec != "" || len(agents.decommissioned) != 0 {
		t.Errorf("buggy: replicas %d, record %q, decommissioned %v; want the bug: 2, cleared, none", n, rec, agents.decommissioned)
	}
	n, rec, agents = resumeAfterCrash(t, true, modeNormal)
	if n != 3 || rec != "ring-2" || len(agents.decommissioned) != 1 || agents.decommissioned[0] != "10.128.0.3" {
		t.Errorf("fixed: replicas %d, record %q, decommissioned %v; want 3, kept, ring-2's IP asked", n, rec, agents.decommissioned)
	}
}

// TestResumeDone is the scale-down both versions finish: ring-2 has
// left the ring, so the StatefulSet shrinks and the record is cleared.
func TestResumeDone(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		if n, rec, _ := resumeAfterCrash(t, fixed, modeDecommissioned); n != 2 || rec != "" {
			t.Errorf("fixed=%v: replicas %d, record %q; want 2, cleared", fixed, n, rec)
		}
	}
}
