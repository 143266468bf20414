// Package specs holds sieve's example specs (see README.md). Each lives in
// its own directory with a .sieve spec, its manifests and a README. Most
// also hold their controller's source and CRDs; statefulset tests
// kube-controller-manager's built-in controller.
//
// The package has no code. Its tests check and format every spec, run
// README.md's quick start, and run some specs end to end.
package specs
