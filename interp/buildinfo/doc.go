// Package buildinfo says what a Go binary records of its own build: the
// running sieve binary (Read) or another one, such as the control plane
// (ReadFile). An Info holds the module version, the VCS revision and
// whether the tree was modified, the Go version, and the Kubernetes
// version linked in.
//
// It reads runtime/debug.ReadBuildInfo or debug/buildinfo and nothing
// else. It does not print; `sieve version` does.
package buildinfo
