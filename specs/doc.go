// Package specs holds sieve's example specs: real controllers, each in its
// own directory with its CRDs, manifests, a .sieve spec and a README (see
// README.md). The package itself has no code; its test checks every spec.
package specs
