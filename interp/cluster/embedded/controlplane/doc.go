// Package controlplane finds the sieve-controlplane binary that runs the
// embedded backend's Kubernetes components, and builds it when it is
// missing. The binary comes from the nested module
// github.com/sievetool/sieve/controlplane (directory controlplane/ of the
// repository). That module alone links k8s.io/kubernetes and carries the
// replace directives its staging modules need; sieve itself does not.
//
// Find looks, in order, at Options.Path or $SIEVE_CONTROLPLANE, next to
// the running executable, on PATH, and in the user cache
// (os.UserCacheDir()/sieve/controlplane/KEY/sieve-controlplane). When Find
// finds nothing, Ensure builds the binary into the cache. It builds from
// the source tree sieve was built from, where KEY hashes its sources so
// that edits rebuild. An installed sieve builds from a generated module
// that requires the control plane module at sieve's own version, and KEY
// is that version. A lock file makes parallel sieve processes build once.
// After a build, the cache keeps the new binary and the ones used last,
// and removes older ones.
//
// Lines are older Kubernetes minor versions the backend can run instead of
// its own (LookupLine, EnsureLine), each built from a module of the
// repository.
//
// The package does not start the binary; the embedded package does.
package controlplane
