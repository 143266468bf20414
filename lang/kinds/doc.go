// Package kinds holds what the spec language knows of Kubernetes' built-in
// kinds. Its table says which kinds an API server serves without a CRD,
// the short and plural names that resource keys may use, and each kind's
// fields; FieldDocs (docs.json) describes the fields, for editors. Both are
// data because lang imports no k8s.io package.
// interp/cluster/kindschema generates it (go generate ./lang/kinds), and a
// test there keeps it fresh.
//
// It also owns the kube-controller-manager controllers that the embedded
// backend runs (BuiltinControllers, CheckBuiltinController) and that
// backend's Kubernetes version (DefaultKubernetes). The backend reads them
// here too.
//
// It does not canonicalise resource keys (lang/ir), check manifests
// (lang/manifest) or lint field paths (lang/lint): those read the table.
package kinds
