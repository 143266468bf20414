// Package pipeline runs a test through record → generate/prune → inject →
// compare → report, as stage functions with their own inputs and outputs
// (docs/architecture.md draws them):
//
//   - References records the fault-free reference runs (or reuses them
//     from the cache or another results directory), learns the masks that
//     make them agree and builds the oracle: Refs.
//   - Plans generates the plans from a reference trace and keeps those a
//     Selection chooses (--pattern, --shard, --max-plans): a plan.Set.
//   - Explore, for a test whose workloads explore (explore steps), judges
//     the first reference run with the explored-run oracles and runs the
//     differential oracle's runs (the final state, and a few intermediate
//     ones, applied at once), each result a unit of the --shard split.
//   - Suffixes (Options.ReusePrefix, sieve run --reuse-prefix), for an
//     explored test, replaces the plans of each explored operation after
//     the first that has enough with plans that run from a checkpoint
//     after the operation before it (each worker replays that prefix once
//     and takes its own), generated from suffix references recorded from
//     there and judged against them (suffix.go).
//   - RunPlans runs each plan on a reset backend (in parallel workers, each
//     with its own backend; RunPlan runs one) and Judge turns the oracle's
//     findings on its trace into a results.Result, written as it ends.
//
// Start and Finish keep the results directory's summary.json; Prepare
// composes the stages before the plans (Start, References, Plans) and Test
// every stage, as sieve run does. Masks assembles a test's masks for each
// use. Backend says where runs happen: StartWorkers starts a test's
// backends and WorkerCount says how many, for sieve's verbs and sievetest
// alike. Options are data whose zero value is the default.
//
// A run whose infrastructure failed, reference or plan, is run again once
// on a new control plane, its first attempt set aside (retry.go); a full
// disk stops the whole run with one error (diskfull.go).
//
// It wires the stages together; it does not implement them. One run on
// one worker (its proxy, controller, stand-ins, health, settling,
// convergence and timing) is interp/run/session's; generation is
// interp/analysis/plan's, comparing interp/analysis/oracle's, the results
// directory's layout interp/formats/results', and rendering
// interp/report's.
package pipeline
