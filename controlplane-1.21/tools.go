//go:build tools

// The OpenAPI generator the build runs (interp/cluster/embedded/controlplane,
// buildLine), at the version this line of Kubernetes pins.
package main

import _ "k8s.io/kube-openapi/cmd/openapi-gen"
