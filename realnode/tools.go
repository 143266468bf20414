//go:build tools

// Package realnode pins the kubelet that the real-node end-to-end test
// joins to the embedded control plane: k8s.io/kubernetes/cmd/kubelet at
// the control plane's version, built with GOWORK=off from this directory.
package realnode

import _ "k8s.io/kubernetes/cmd/kubelet/app"
