// Package dispatch runs a campaign — one test's plans, split in shards — on
// a Kubernetes cluster as one Indexed Job, and brings its results back.
//
// It owns the worker image's layout (Bundle: where the binaries, the spec
// bundle and bundle.json go), the Job (Job: completions = shards,
// parallelism = workers, a retry per index, resources, a deadline, labels
// naming the campaign), following it (Follow: progress from the Job's
// status, the Job deleted with foreground propagation when the context is
// cancelled), the failed indexes' pod logs (Logs), and the artefacts a
// campaign leaves in a registry (the reference runs every shard starts
// from, each shard's results directory: Tags, Collect).
//
// It does not run plans (interp/pipeline does, in each pod, through
// sieve's internal worker command), build images (interp/campaign/image) or merge
// results (interp/formats/results reads the shards' directories as one run).
package dispatch
