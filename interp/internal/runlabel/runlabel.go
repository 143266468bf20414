package runlabel

// Key marks namespaces and cluster-scoped objects that sieve created on a
// cluster it does not own; its value is the run ID.
const Key = "sieve.dev/run"

// Users is the annotation on a CRD that a run of sieve created on a
// cluster it does not own that lists, comma-separated, the IDs of the runs
// that use it now (package crduse keeps it): the CRD goes when the last
// of them ends, not when its creator does.
const Users = "sieve.dev/users"
