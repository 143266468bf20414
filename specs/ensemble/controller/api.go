package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the Ensemble resource.
const group = "ensemble.sieve.dev"

// groupVersion is the API group and version of the Ensemble resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// Ensemble is a replicated store: a StatefulSet with one PVC per member,
// whose membership is kept through the members API at its client Service.
type Ensemble struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EnsembleSpec   `json:"spec,omitempty"`
	Status EnsembleStatus `json:"status,omitempty"`
}

// EnsembleSpec is the desired state of an Ensemble.
type EnsembleSpec struct {
	Replicas int32 `json:"replicas"`
}

// EnsembleStatus is the observed state of an Ensemble.
type EnsembleStatus struct {
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// Members is how many members the members API lists.
	Members int32 `json:"members,omitempty"`
}

// EnsembleList is a list of Ensembles.
type EnsembleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Ensemble `json:"items"`
}

// DeepCopyObject returns a deep copy of the Ensemble.
func (in *Ensemble) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// DeepCopyObject returns a deep copy of the EnsembleList.
func (in *EnsembleList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = make([]Ensemble, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*Ensemble)
	}
	return &out
}

// addToScheme registers the Ensemble types with s.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion(), &Ensemble{}, &EnsembleList{})
	metav1.AddToGroupVersion(s, groupVersion())
	return nil
}
