module github.com/sievetool/sieve/controlplane-1.21

go 1.16

require (
	// Kubernetes 1.21 pins reflect2 v1.0.1, whose map iteration breaks on
	// Go 1.18 and later: the API server panicked on the first custom
	// resource (objectmeta.GetObjectMeta through json-iterator). v1.0.2
	// is the fix, and json-iterator v1.1.12 the release that takes it.
	github.com/json-iterator/go v1.1.12
	github.com/modern-go/reflect2 v1.0.2
	github.com/spf13/cobra v1.1.1
	k8s.io/client-go v0.21.14
	k8s.io/kube-openapi v0.0.0-20211110012726-3cc51fd1e909
	k8s.io/kubernetes v1.21.14
)

replace (
	k8s.io/api => k8s.io/api v0.21.14
	k8s.io/apiextensions-apiserver => k8s.io/apiextensions-apiserver v0.21.14
	k8s.io/apimachinery => k8s.io/apimachinery v0.21.14
	k8s.io/apiserver => k8s.io/apiserver v0.21.14
	k8s.io/cli-runtime => k8s.io/cli-runtime v0.21.14
	k8s.io/client-go => k8s.io/client-go v0.21.14
	k8s.io/cloud-provider => k8s.io/cloud-provider v0.21.14
	k8s.io/cluster-bootstrap => k8s.io/cluster-bootstrap v0.21.14
	k8s.io/code-generator => k8s.io/code-generator v0.21.14
	k8s.io/component-base => k8s.io/component-base v0.21.14
	k8s.io/component-helpers => k8s.io/component-helpers v0.21.14
	k8s.io/controller-manager => k8s.io/controller-manager v0.21.14
	k8s.io/cri-api => k8s.io/cri-api v0.21.14
	k8s.io/csi-translation-lib => k8s.io/csi-translation-lib v0.21.14
	k8s.io/kube-aggregator => k8s.io/kube-aggregator v0.21.14
	k8s.io/kube-controller-manager => k8s.io/kube-controller-manager v0.21.14
	k8s.io/kube-proxy => k8s.io/kube-proxy v0.21.14
	k8s.io/kube-scheduler => k8s.io/kube-scheduler v0.21.14
	k8s.io/kubectl => k8s.io/kubectl v0.21.14
	k8s.io/kubelet => k8s.io/kubelet v0.21.14
	k8s.io/legacy-cloud-providers => k8s.io/legacy-cloud-providers v0.21.14
	k8s.io/metrics => k8s.io/metrics v0.21.14
	k8s.io/mount-utils => k8s.io/mount-utils v0.21.14
	k8s.io/sample-apiserver => k8s.io/sample-apiserver v0.21.14
)
