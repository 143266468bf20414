// Package plan owns sieve's test plans: the versioned JSON format (one file
// per plan, documented in docs/plan.md), their generation from a reference
// trace for the fault patterns a test's policies ask for (intermediate,
// stale and unobserved state, plus the spec's own plans), the pruning passes
// with their per-pattern counts, and the slim masked diffs and signatures
// that both generation and the trigger engine (interp/trigger) compute.
//
// It does not record traces (interp/trace is the format it reads), does not
// run plans (interp/inject does, using interp/trigger to decide when each
// action fires) and does not judge results (interp/oracle).
package plan
