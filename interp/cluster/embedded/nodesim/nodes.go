package nodesim

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// leaseNamespace holds the node leases.
const leaseNamespace = "kube-node-lease"

// leaseSeconds is the lease duration a kubelet uses.
const leaseSeconds = 40

func (s *sim) ensureStorageClass(ctx context.Context) error {
	sc := &storagev1.StorageClass{
		ObjectMeta: metav1.ObjectMeta{
			Name:        s.opts.StorageClass,
			Annotations: map[string]string{"storageclass.kubernetes.io/is-default-class": "true"},
		},
		Provisioner:          Provisioner,
		ReclaimPolicy:        ptr.To(corev1.PersistentVolumeReclaimDelete),
		VolumeBindingMode:    ptr.To(storagev1.VolumeBindingImmediate),
		AllowVolumeExpansion: ptr.To(true),
	}
	_, err := s.client.StorageV1().StorageClasses().Create(ctx, sc, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating storage class %s: %w", sc.Name, err)
	}
	return nil
}

// registerNode creates the node (or takes over an existing one), marks it
// Ready and removes the taints a missing node-lifecycle controller would
// otherwise leave.
func (s *sim) registerNode(ctx context.Context, name string, index int) error {
	nodes := s.client.CoreV1().Nodes()
	node, err := nodes.Create(ctx, newNode(name, index), metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		node, err = nodes.Get(ctx, name, metav1.GetOptions{})
	}
	if err != nil {
		return fmt.Errorf("registering node %s: %w", name, err)
	}
	if len(node.Spec.Taints) > 0 {
		node.Spec.Taints = nil
		if node, err = nodes.Update(ctx, node, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("untainting node %s: %w", name, err)
		}
	}
	node.Status = nodeStatus(index, time.Now())
	if _, err := nodes.UpdateStatus(ctx, node, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("node %s status: %w", name, err)
	}
	return s.renewLease(ctx, name, node.UID)
}

func newNode(name string, index int) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Labels: map[string]string{
				"kubernetes.io/hostname": name,
				"kubernetes.io/os":       "linux",
				"kubernetes.io/arch":     "amd64",
				"type":                   "sieve-nodesim",
			},
		},
		Spec:   corev1.NodeSpec{PodCIDR: nodeCIDR(index), PodCIDRs: []string{nodeCIDR(index)}},
		Status: nodeStatus(index, time.Now()),
	}
}

func nodeCIDR(index int) string { return fmt.Sprintf("10.244.%d.0/24", index%256) }

func nodeStatus(index int, now time.Time) corev1.NodeStatus {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:              resource.MustParse("32"),
		corev1.ResourceMemory:           resource.MustParse("256Gi"),
		corev1.ResourcePods:             resource.MustParse("250"),
		corev1.ResourceEphemeralStorage: resource.MustParse("1Ti"),
	}
	t := metav1.NewTime(now)
	cond := func(typ corev1.NodeConditionType, status corev1.ConditionStatus, reason string) corev1.NodeCondition {
		return corev1.NodeCondition{Type: typ, Status: status, Reason: reason, LastHeartbeatTime: t, LastTransitionTime: t}
	}
	return corev1.NodeStatus{
		Capacity:    capacity,
		Allocatable: capacity,
		Phase:       corev1.NodeRunning,
		Conditions: []corev1.NodeCondition{
			cond(corev1.NodeReady, corev1.ConditionTrue, "KubeletReady"),
			cond(corev1.NodeMemoryPressure, corev1.ConditionFalse, "KubeletHasSufficientMemory"),
			cond(corev1.NodeDiskPressure, corev1.ConditionFalse, "KubeletHasNoDiskPressure"),
			cond(corev1.NodePIDPressure, corev1.ConditionFalse, "KubeletHasSufficientPID"),
		},
		Addresses: []corev1.NodeAddress{
			{Type: corev1.NodeInternalIP, Address: fmt.Sprintf("10.243.%d.%d", index/250, index%250+1)},
			{Type: corev1.NodeHostName, Address: fmt.Sprintf("sieve-node-%d", index)},
		},
		NodeInfo: corev1.NodeSystemInfo{
			KubeletVersion:          "v1.37.2",
			ContainerRuntimeVersion: "sieve://nodesim",
			OperatingSystem:         "linux",
			Architecture:            "amd64",
			OSImage:                 "sieve nodesim",
		},
	}
}

// renewLeases renews every node's lease until ctx ends.
func (s *sim) renewLeases(ctx context.Context) {
	t := time.NewTicker(s.opts.LeaseRenew)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for name := range s.nodes {
			_ = s.renewLease(ctx, name, "")
		}
	}
}

func (s *sim) renewLease(ctx context.Context, node string, uid types.UID) error {
	leases := s.client.CoordinationV1().Leases(leaseNamespace)
	now := metav1.NewMicroTime(time.Now())
	lease, err := leases.Get(ctx, node, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = leases.Create(ctx, newLease(node, uid, now), metav1.CreateOptions{})
		return wrapLease(node, err)
	}
	if err != nil {
		return wrapLease(node, err)
	}
	lease.Spec.RenewTime = &now
	_, err = leases.Update(ctx, lease, metav1.UpdateOptions{})
	return wrapLease(node, err)
}

func newLease(node string, uid types.UID, now metav1.MicroTime) *coordinationv1.Lease {
	lease := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: node, Namespace: leaseNamespace},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity:       ptr.To(node),
			LeaseDurationSeconds: ptr.To[int32](leaseSeconds),
			RenewTime:            &now,
		},
	}
	if uid != "" {
		lease.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node, UID: uid}}
	}
	return lease
}

func wrapLease(node string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("lease of node %s: %w", node, err)
}
