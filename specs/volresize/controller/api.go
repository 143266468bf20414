package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the BrokerCluster resource.
const group = "volresize.sieve.dev"

// groupVersion is the API group and version of the BrokerCluster resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// BrokerCluster is a replicated message broker: a StatefulSet with one PVC
// per member, whose size can grow.
type BrokerCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BrokerClusterSpec   `json:"spec,omitempty"`
	Status BrokerClusterStatus `json:"status,omitempty"`
}

// BrokerClusterSpec is the desired state of a BrokerCluster.
type BrokerClusterSpec struct {
	Replicas int32 `json:"replicas"`
	// Storage is the size of each member's PVC; it may only grow.
	Storage string `json:"storage"`
	// StorageClassName names a class that allows volume expansion; empty
	// means the cluster's default class.
	StorageClassName string `json:"storageClassName,omitempty"`
}

// BrokerClusterStatus is the observed state of a BrokerCluster.
type BrokerClusterStatus struct {
	ReadyReplicas int32              `json:"readyReplicas,omitempty"`
	Conditions    []metav1.Condition `json:"conditions,omitempty"`
	// ResizingTo records a storage resize in progress (used with the fix):
	// it is set before the StatefulSet is deleted and cleared once the
	// PVCs are expanded and the StatefulSet is recreated.
	ResizingTo string `json:"resizingTo,omitempty"`
}

// BrokerClusterList is a list of BrokerClusters.
type BrokerClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BrokerCluster `json:"items"`
}

// DeepCopyObject returns a deep copy of the BrokerCluster.
func (in *BrokerCluster) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// DeepCopyObject returns a deep copy of the BrokerClusterList.
func (in *BrokerClusterList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = make([]BrokerCluster, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*BrokerCluster)
	}
	return &out
}

// addToScheme registers the BrokerCluster types with s.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion(), &BrokerCluster{}, &BrokerClusterList{})
	metav1.AddToGroupVersion(s, groupVersion())
	return nil
}
