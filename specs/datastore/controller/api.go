package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the Datastore resource.
const group = "datastore.sieve.dev"

// groupVersion is the API group and version of the Datastore resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// Datastore is a replicated database: a StatefulSet with one PVC per member.
type Datastore struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   DatastoreSpec   `json:"spec,omitempty"`
	Status DatastoreStatus `json:"status,omitempty"`
}

// DatastoreSpec is the desired state of a Datastore.
type DatastoreSpec struct {
	Replicas int32  `json:"replicas"`
	Storage  string `json:"storage"`
}

// DatastoreStatus is the observed state of a Datastore.
type DatastoreStatus struct {
	ReadyReplicas int32              `json:"readyReplicas,omitempty"`
	Conditions    []metav1.Condition `json:"conditions,omitempty"`
}

// DatastoreList is a list of Datastores.
type DatastoreList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Datastore `json:"items"`
}

// DeepCopyObject returns a deep copy of the Datastore.
func (in *Datastore) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// DeepCopyObject returns a deep copy of the DatastoreList.
func (in *DatastoreList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = make([]Datastore, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*Datastore)
	}
	return &out
}

// addToScheme registers the Datastore types with s.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion(), &Datastore{}, &DatastoreList{})
	metav1.AddToGroupVersion(s, groupVersion())
	return nil
}
