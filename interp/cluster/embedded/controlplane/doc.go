// Package controlplane finds the sieve-controlplane binary that runs the
// embedded backend's Kubernetes components, and builds it when it is
// missing. The binary comes from the nested module
// github.com/sievetool/sieve/controlplane (directory controlplane/ of the
// repository), which alone links k8s.io/kubernetes and carries the replace
// directives its staging modules need; sieve itself does not.
//
// Find looks, in order, at Options.Path or $SIEVE_CONTROLPLANE, next to the
// running executable, on PATH, and in the user cache
// (os.UserCacheDir()/sieve/controlplane/KEY/sieve-controlplane). Ensure
// builds it into the cache when Find finds nothing: from the source tree
// sieve was built from (KEY hashes its sources, so edits rebuild), or, for
// an installed sieve, from a generated module that requires the control
// plane module at sieve's own version (KEY is that version). A lock file
// makes parallel sieve processes build once. After a build, the cache
// keeps the new binary and the two used last, and removes older ones.
//
// The package does not start the binary; the embedded package does.
package controlplane
