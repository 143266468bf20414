// Package crduse records which runs of sieve use a CRD that one of them
// created on a cluster sieve does not own (the kubeconfig backend), in
// the CRD's runlabel.Users annotation. Two runs of one spec on one
// cluster share its CRDs: a run Joins a CRD as it installs it, and
// Releases its CRDs as it resets and ends; the CRD is deleted by the run
// that releases it last, whichever created it. Every change is
// conditional on the resourceVersion read, so runs that join and release
// at once never lose each other's use.
//
// It does not install CRDs (package workload does, and decides whether a
// CRD found on the cluster may be used) and it leaves alone the CRDs no
// run of sieve created.
package crduse
