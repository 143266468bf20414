package runlabel

// Key marks namespaces and cluster-scoped objects that sieve created on a
// cluster it does not own; its value is the run ID.
const Key = "sieve.dev/run"
