// Package dispatch runs a campaign on a Kubernetes cluster and brings its
// results back. A campaign is one test's plans, split in shards, run as
// one Indexed Job.
//
// It owns the worker image's layout: where the binaries, the spec bundle
// and its manifest go (Bundle, Manifest). It owns the Job (Campaign.Job):
// completions = shards, parallelism = workers, a retry per index,
// resources, a deadline and labels that name the campaign. Follow creates
// the Job and reports progress from its status. When the context is
// cancelled, it deletes the Job with foreground propagation, even one
// whose create was cut short. Logs gets the pod logs of failed indexes.
// It also owns the artefacts that a campaign leaves in a registry: the
// reference runs that every shard starts from (PushRefs, PullRefs), and
// each shard's results directory (PushShard, Collect). RefsTag and
// ShardTag name them.
//
// It does not run plans: interp/pipeline does, in each pod, through
// sieve's internal worker command. It does not build images
// (interp/campaign/image) or merge results (interp/formats/results reads
// the shards' directories as one run).
package dispatch
