package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the Ring resource.
const group = "podreaper.sieve.dev"

// groupVersion is the API group and version of the Ring resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// Ring is a ring of database members (as in Cassandra): a StatefulSet with one
// PVC per member. When the ring shrinks, the PVCs of the members that left
// are deleted.
type Ring struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RingSpec   `json:"spec,omitempty"`
	Status RingStatus `json:"status,omitempty"`
}

// RingSpec is the desired state of a Ring.
type RingSpec struct {
	Members int32  `json:"members"`
	Storage string `json:"storage"`
}

// RingStatus is the observed state of a Ring.
type RingStatus struct {
	ReadyMembers int32              `json:"readyMembers,omitempty"`
	Conditions   []metav1.Condition `json:"conditions,omitempty"`
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
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
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
