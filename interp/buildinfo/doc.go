// Package buildinfo says what the running sieve binary knows about its own
// build, or what another Go binary (the control plane) records of its
// build: the module version, the VCS revision and whether the tree was
// modified, the Go version, and the Kubernetes version linked in. It reads
// runtime/debug.ReadBuildInfo or debug/buildinfo and nothing else; it does
// not print.
package buildinfo
