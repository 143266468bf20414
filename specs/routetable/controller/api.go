package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the Route resource.
const group = "routetable.sieve.dev"

// groupVersion is the API group and version of the Route resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// Route asks the gateway to send the requests for a host to a Service.
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RouteSpec `json:"spec,omitempty"`
}

// RouteSpec is the desired state of a Route.
type RouteSpec struct {
	Host    string `json:"host"`
	Service string `json:"service"`
	Port    int32  `json:"port"`
}

// RouteList is a list of Routes.
type RouteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Route `json:"items"`
}

// DeepCopyObject returns a deep copy of the Route.
func (in *Route) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// DeepCopyObject returns a deep copy of the RouteList.
func (in *RouteList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = make([]Route, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*Route)
	}
	return &out
}

// addToScheme registers the Route types with s.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion(), &Route{}, &RouteList{})
	metav1.AddToGroupVersion(s, groupVersion())
	return nil
}
