package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// group is the API group of the WebApp resource.
const group = "settings.sieve.dev"

// groupVersion is the API group and version of the WebApp resource.
func groupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: "v1"}
}

// WebApp is a web server run as a StatefulSet, configured by a file that
// the controller renders into a ConfigMap.
type WebApp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WebAppSpec   `json:"spec,omitempty"`
	Status WebAppStatus `json:"status,omitempty"`
}

// WebAppSpec is the desired state of a WebApp.
type WebAppSpec struct {
	Replicas int32 `json:"replicas"`
	// LogLevel is the level the servers log at: debug, info, warn or error.
	LogLevel string `json:"logLevel"`
}

// WebAppStatus is the observed state of a WebApp.
type WebAppStatus struct {
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
}

// WebAppList is a list of WebApps.
type WebAppList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WebApp `json:"items"`
}

// DeepCopyObject returns a deep copy of the WebApp.
func (in *WebApp) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// DeepCopyObject returns a deep copy of the WebAppList.
func (in *WebAppList) DeepCopyObject() runtime.Object {
	out := *in
	out.Items = make([]WebApp, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*WebApp)
	}
	return &out
}

// addToScheme registers the WebApp types with s.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion(), &WebApp{}, &WebAppList{})
	metav1.AddToGroupVersion(s, groupVersion())
	return nil
}
