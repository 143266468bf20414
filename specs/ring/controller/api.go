package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the Ring resource.
const group = "ring.sieve.dev"

// groupVersion is the API group and version of the Ring resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// Ring is a Cassandra-like store: a StatefulSet of nodes, each pod with an
// agent the controller calls at the pod's IP.
type Ring struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RingSpec   `json:"spec,omitempty"`
	Status RingStatus `json:"status,omitempty"`
}

// RingSpec is the desired state of a Ring.
type RingSpec struct {
	Replicas int32 `json:"replicas"`
}

// RingStatus is the observed state of a Ring.
type RingStatus struct {
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// Decommissioning is the node the controller is taking out of the
	// ring before it shrinks the StatefulSet: the record that lets a
	// restarted controller resume a scale-down.
	Decommissioning string `json:"decommissioning,omitempty"`
	// Nodes is the ring as the first node's agent sees it:
	// "NAME:UN NAME:UL NAME:DN" (up normal, up leaving, down).
	Nodes string `json:"nodes,omitempty"`
}

// RingList is a list of Rings.
type RingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Ring `json:"items"`
}

// DeepCopyObject returns a deep copy of the Ring.
func (in *Ring) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// DeepCopyObject returns a deep copy of the RingList.
func (in *RingList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = make([]Ring, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*Ring)
	}
	return &out
}

// addToScheme registers the Ring types with s.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion(), &Ring{}, &RingList{})
	metav1.AddToGroupVersion(s, groupVersion())
	return nil
}
