package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the Store resource.
const group = "members.sieve.dev"

// groupVersion is the API group and version of the Store resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// Store is a replicated key-value store: a StatefulSet with one PVC per
// member, whose member list is kept through the store's admin API.
type Store struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   StoreSpec   `json:"spec,omitempty"`
	Status StoreStatus `json:"status,omitempty"`
}

// StoreSpec is the desired state of a Store.
type StoreSpec struct {
	Replicas int32 `json:"replicas"`
}

// StoreStatus is the observed state of a Store.
type StoreStatus struct {
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// Members are the members the admin API lists, sorted.
	Members []string `json:"members,omitempty"`
}

// StoreList is a list of Stores.
type StoreList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Store `json:"items"`
}

// DeepCopyObject returns a deep copy of the Store.
func (in *Store) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Members = append([]string(nil), in.Status.Members...)
	return &out
}

// DeepCopyObject returns a deep copy of the StoreList.
func (in *StoreList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = make([]Store, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*Store)
	}
	return &out
}

// addToScheme registers the Store types with s.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion(), &Store{}, &StoreList{})
	metav1.AddToGroupVersion(s, groupVersion())
	return nil
}
