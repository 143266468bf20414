package ir

import "strings"

// alias maps kubectl's short names and plural resource names of built-in
// kinds to the lowercase singular kind that resource keys use.
func alias(k string) string {
	switch k {
	case "po", "pods":
		return "pod"
	case "svc", "services":
		return "service"
	case "cm", "configmaps":
		return "configmap"
	case "secrets":
		return "secret"
	case "ns", "namespaces":
		return "namespace"
	case "sa", "serviceaccounts":
		return "serviceaccount"
	case "ep":
		return "endpoints"
	case "endpointslices":
		return "endpointslice"
	case "pvc", "persistentvolumeclaims":
		return "persistentvolumeclaim"
	case "pv", "persistentvolumes":
		return "persistentvolume"
	case "deploy", "deployments":
		return "deployment"
	case "rs", "replicasets":
		return "replicaset"
	case "sts", "statefulsets":
		return "statefulset"
	case "ds", "daemonsets":
		return "daemonset"
	case "jobs":
		return "job"
	case "cj", "cronjobs":
		return "cronjob"
	case "leases":
		return "lease"
	case "ev", "events":
		return "event"
	case "crd", "crds", "customresourcedefinitions":
		return "customresourcedefinition"
	case "controllerrevisions":
		return "controllerrevision"
	case "pdb", "poddisruptionbudgets":
		return "poddisruptionbudget"
	case "roles":
		return "role"
	case "rolebindings":
		return "rolebinding"
	case "clusterroles":
		return "clusterrole"
	case "clusterrolebindings":
		return "clusterrolebinding"
	}
	return k
}

// CanonicalKind returns the kind as resource keys spell it: lowercase, and
// a built-in kind's short name or plural ("sts", "pods") replaced by its
// singular ("statefulset", "pod"). Other kinds are only lowercased. Both
// front ends apply it to every resource key.
func CanonicalKind(kind string) string {
	return alias(strings.ToLower(kind))
}

// Unrecorded reports whether objects of kind (as resource keys and
// objects() name it: "event", "event.events.k8s.io") are left out of a
// run's recorded history, as events are: they are not cluster state worth
// comparing, so an invariant sees none of them.
func Unrecorded(kind string) bool {
	k := CanonicalKind(kind)
	return k == "event" || k == "event.events.k8s.io"
}
