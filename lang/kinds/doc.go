// Package kinds is the table of Kubernetes' built-in kinds that the spec
// language needs: which kinds an API server serves without a CRD, the
// short and plural names that resource keys may use, and the fields of
// each kind; and the kube-controller-manager controllers the embedded
// backend runs (BuiltinControllers) and its Kubernetes version
// (DefaultKubernetes), which the backend reads too. lang imports no k8s.io package, so the table is data,
// generated from the Kubernetes libraries by interp/cluster/kindschema (go
// generate ./lang/kinds); a test there keeps it fresh.
//
// It does not canonicalise resource keys (lang/ir), check manifests
// (lang/manifest) or lint field paths (lang/lint): those read the table.
package kinds
