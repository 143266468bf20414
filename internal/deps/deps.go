//go:build tools

// Package deps pins the project's dependencies while the packages that use
// them are being written. It is never built.
package deps

import (
	_ "cuelang.org/go/cue"
	_ "github.com/alecthomas/participle/v2"
	_ "github.com/google/cel-go/cel"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "go.etcd.io/etcd/server/v3/embed"
	_ "k8s.io/client-go/kubernetes"
	_ "k8s.io/kubernetes/cmd/kube-apiserver/app"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	_ "k8s.io/kubernetes/cmd/kube-scheduler/app"
	_ "sigs.k8s.io/controller-runtime"
	_ "sigs.k8s.io/kind/pkg/cluster"
	_ "sigs.k8s.io/yaml"
)
