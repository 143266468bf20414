// Package plan generates sieve's test plans: from a reference trace, for
// the fault patterns a test's policies ask for (intermediate, stale and
// unobserved state, plus the spec's own plans), the candidates, the pruning
// passes with their per-pattern counts and explanations (what became of
// each candidate), sampling down to a policy's maximum, and the plans
// directory that generation writes (plans, counts.json, pruned.jsonl).
// Its reading of a reference trace into reconciles also gives the bounds
// learned from it: how long a hold lasts, and the controller's own timers
// (OwnTimer), which interp/pipeline rechecks a difference for.
//
// It does not define the plan file format (interp/planfile), nor the
// observation library it shares with the trigger engine — tracker, slim
// diffs, masks, owner references (interp/observe). It does not record
// traces (interp/trace is the format it reads), does not run plans
// (interp/inject does, using interp/trigger to decide when each action
// fires) and does not judge results (interp/oracle).
package plan
