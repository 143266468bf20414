package main

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// Modes of a node, as its agent reports them.
const (
	modeNormal         = "NORMAL"
	modeLeaving        = "LEAVING"
	modeDecommissioned = "DECOMMISSIONED"
)

// poll is how soon the controller looks again at a node that is leaving
// or a ring that is not yet what it should be.
const poll = time.Second

// Reconciler drives a Ring: its StatefulSet, the decommissioning of the
// nodes a scale-down removes (through their agents), and its status.
type Reconciler struct {
	client.Client
	Agents Agents
	// Fixed turns on the fix: a recorded decommission is done only when
	// the node's agent says DECOMMISSIONED; a node still NORMAL is asked
	// to leave again.
	Fixed bool
}

// Reconcile brings one Ring one step closer to its desired state.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ring Ring
	if err := r.Get(ctx, req.NamespacedName, &ring); err != nil || !ring.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sts, err := r.ensureStatefulSet(ctx, &ring)
	if err != nil {
		return ctrl.Result{}, err
	}
	pods, err := r.podIPs(ctx, &ring)
	if err != nil {
		return ctrl.Result{}, err
	}
	switch {
	case ring.Status.Decommissioning != "":
		return r.resume(ctx, &ring, sts, pods)
	case ring.Spec.Replicas < *sts.Spec.Replicas:
		return r.startDecommission(ctx, &ring, sts, pods)
	case ring.Spec.Replicas > *sts.Spec.Replicas:
		return ctrl.Result{}, r.scale(ctx, sts, ring.Spec.Replicas)
	}
	return r.updateStatus(ctx, &ring, sts, pods)
}

// startDecommission records that the highest node is being taken out of
// the ring, then asks its agent to leave.
func (r *Reconciler) startDecommission(ctx context.Context, ring *Ring, sts *appsv1.StatefulSet, pods map[string]string) (ctrl.Result, error) {
	name := node(ring, *sts.Spec.Replicas-1)
	ip := pods[name]
	if ip == "" {
		return ctrl.Result{RequeueAfter: poll}, nil // its pod has no IP yet
	}
	log.FromContext(ctx).Info("decommissioning", "node", name, "pod ip", ip)
	if err := r.setDecommissioning(ctx, ring, name); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Agents.Decommission(ctx, ip); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: poll}, nil
}

// resume carries on with the recorded decommission: once the node has
// left the ring, the StatefulSet shrinks below it, and the record is
// cleared at a later reconcile, once the StatefulSet read from the cache
// is below it too. Cleared at once, the next reconcile could read the
// StatefulSet as it was before the shrink (its watch event not yet
// delivered) with no record, and decommission the node again: a busy
// machine made the buggy controller repair its own bug that way.
//
// The bug: anything but LEAVING is taken for "done". A controller that
// crashed between recording the decommission and asking the agent finds
// the node still NORMAL and shrinks the StatefulSet. The node's pod goes
// away without its node ever leaving the ring: the ring keeps a dead
// member (DN) for good.
func (r *Reconciler) resume(ctx context.Context, ring *Ring, sts *appsv1.StatefulSet, pods map[string]string) (ctrl.Result, error) {
	name := ring.Status.Decommissioning
	if ip := pods[name]; ip != "" {
		mode, err := r.Agents.Mode(ctx, ip)
		if err != nil {
			return ctrl.Result{}, err
		}
		log.FromContext(ctx).Info("decommission in progress", "node", name, "mode", mode)
		if mode == modeLeaving {
			return ctrl.Result{RequeueAfter: poll}, nil
		}
		if r.Fixed && mode == modeNormal {
			log.FromContext(ctx).Info("node has not started leaving, asking again", "node", name)
			return ctrl.Result{RequeueAfter: poll}, r.Agents.Decommission(ctx, ip)
		}
	}
	if i := index(ring, name); i >= 0 && i < *sts.Spec.Replicas {
		return ctrl.Result{RequeueAfter: poll}, r.scale(ctx, sts, i)
	}
	return ctrl.Result{}, r.setDecommissioning(ctx, ring, "")
}

// updateStatus writes the ready replicas and the ring as the first
// node's agent sees it, on change only; it looks again while the ring
// does not have as many normal members as the StatefulSet has pods.
func (r *Reconciler) updateStatus(ctx context.Context, ring *Ring, sts *appsv1.StatefulSet, pods map[string]string) (ctrl.Result, error) {
	want := ring.Status
	want.ReadyReplicas = sts.Status.ReadyReplicas
	if ip := pods[node(ring, 0)]; ip != "" {
		nodes, err := r.Agents.Ring(ctx, ip)
		if err != nil {
			return ctrl.Result{}, err
		}
		want.Nodes = nodes
	}
	var res ctrl.Result
	if want.Nodes != settled(ring, *sts.Spec.Replicas) {
		res.RequeueAfter = poll
	}
	if ring.Status == want {
		return res, nil
	}
	before := ring.DeepCopyObject().(*Ring)
	ring.Status = want
	return res, r.Status().Patch(ctx, ring, client.MergeFrom(before))
}

// setDecommissioning records the node being decommissioned ("" when
// none) in the status.
func (r *Reconciler) setDecommissioning(ctx context.Context, ring *Ring, name string) error {
	before := ring.DeepCopyObject().(*Ring)
	ring.Status.Decommissioning = name
	return r.Status().Patch(ctx, ring, client.MergeFrom(before))
}

// scale sets the StatefulSet's replicas.
func (r *Reconciler) scale(ctx context.Context, sts *appsv1.StatefulSet, n int32) error {
	log.FromContext(ctx).Info("scaling", "statefulset", sts.Name, "from", *sts.Spec.Replicas, "to", n)
	before := sts.DeepCopy()
	sts.Spec.Replicas = &n
	return r.Patch(ctx, sts, client.MergeFrom(before))
}

// podIPs maps the Ring's pods that have an IP to it.
func (r *Reconciler) podIPs(ctx context.Context, ring *Ring) (map[string]string, error) {
	var list corev1.PodList
	if err := r.List(ctx, &list, client.InNamespace(ring.Namespace), client.MatchingLabels(labels(ring))); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range list.Items {
		if p.Status.PodIP != "" && p.DeletionTimestamp.IsZero() {
			out[p.Name] = p.Status.PodIP
		}
	}
	return out, nil
}

// ensureStatefulSet creates the Ring's StatefulSet if it is missing and
// returns it.
func (r *Reconciler) ensureStatefulSet(ctx context.Context, ring *Ring) (*appsv1.StatefulSet, error) {
	var sts appsv1.StatefulSet
	err := r.Get(ctx, types.NamespacedName{Namespace: ring.Namespace, Name: ring.Name}, &sts)
	if !apierrors.IsNotFound(err) {
		return &sts, err
	}
	replicas := ring.Spec.Replicas
	want := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: ring.Name, Namespace: ring.Namespace, Labels: labels(ring)},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &replicas,
			ServiceName: ring.Name,
			Selector:    &metav1.LabelSelector{MatchLabels: labels(ring)},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels(ring)},
				Spec: corev1.PodSpec{Containers: []corev1.Container{
					{Name: "node", Image: "registry.k8s.io/pause:3.10"},
					{Name: "agent", Image: "registry.k8s.io/pause:3.10", Ports: []corev1.ContainerPort{{Name: "agent", ContainerPort: agentPort}}},
				}},
			},
		},
	}
	if err := controllerutil.SetControllerReference(ring, want, r.Scheme()); err != nil {
		return nil, err
	}
	log.FromContext(ctx).Info("creating statefulset", "statefulset", want.Name)
	return want, r.Create(ctx, want)
}

// settled is the ring of n normal nodes, as an agent lists it.
func settled(ring *Ring, n int32) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += " "
		}
		s += node(ring, i) + ":UN"
	}
	return s
}

// node is the name of node i: its pod's name.
func node(ring *Ring, i int32) string { return fmt.Sprintf("%s-%d", ring.Name, i) }

// index is the ordinal of node name, or -1.
func index(ring *Ring, name string) int32 {
	var i int32
	if _, err := fmt.Sscanf(name, ring.Name+"-%d", &i); err != nil {
		return -1
	}
	return i
}

// labels are the labels of a Ring's StatefulSet and pods; app=ring-node
// is what the spec's pod stand-in selects.
func labels(ring *Ring) map[string]string {
	return map[string]string{"app": "ring-node", "ring": ring.Name}
}
