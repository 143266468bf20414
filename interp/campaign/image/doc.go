// Package image builds, writes, pushes and pulls OCI images and artefacts
// with go-containerregistry, without a container daemon. It makes the
// worker image that runs a campaign's shards on a Kubernetes cluster: the
// sieve and control-plane binaries, the controller under test and the
// spec bundle on a minimal base. It also moves directories as artefacts
// (PushDir, PullDir): reference runs out to the workers, and a shard's
// results back.
//
// What it builds is reproducible. Entries are sorted, owned by root, with
// fixed modes and a fixed time (Epoch), and so is the image's creation
// time. The same inputs give the same digest.
//
// It does not know what a campaign, a shard or a results directory is:
// interp/campaign/dispatch decides what goes where.
package image
