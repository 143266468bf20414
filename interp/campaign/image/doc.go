// Package image builds, writes, pushes and pulls OCI images and artefacts
// with go-containerregistry, without a container daemon: the worker image
// that runs a campaign's shards on a Kubernetes cluster (the sieve and
// control-plane binaries, the controller under test and the spec bundle on
// a minimal base), and the artefacts that carry a directory (reference runs
// to the workers, a shard's results back).
//
// What it builds is reproducible: entries are sorted, owned by root, with
// fixed modes and a fixed time, and the image's creation time is fixed, so
// the same inputs give the same digest.
//
// It does not know what a campaign, a shard or a results directory is:
// interp/campaign/dispatch decides what goes where.
package image
