// Package pipeline runs a test through record → generate/prune → inject →
// compare → report, as stage functions with their own inputs and outputs
// (docs/architecture.md draws them):
//
//   - References records the fault-free reference runs (or reuses them
//     from the cache or another results directory), learns the masks that
//     make them agree and builds the oracle: Refs.
//   - Plans generates the plans from a reference trace and keeps those a
//     Selection chooses (--pattern, --shard, --max-plans): a plan.Set.
//   - RunPlans runs each plan on a reset backend (in parallel workers, each
//     with its own backend; RunPlan runs one) and Judge turns the oracle's
//     findings on its trace into a report.Result, written as it ends.
//
// Start and Finish keep the results directory's summary.json; Test
// composes every stage as sieve run does. Masks assembles a test's masks
// for each use. Options are data whose zero value is the default.
//
// Each run (Worker.Execute) gives its controller a private network where
// namespaces are available (network.go: the proxy and a DNS responder
// inside, the test's stand-ins started there), an emulated Pod in
// in-cluster mode, recreated at each start, and the host's network with
// Worker.HostNetwork.
//
// It also keeps a run honest: the control plane and the proxy's upstream
// are watched during every run (health.go); a run whose infrastructure
// failed, reference or plan, is run again once on a new control plane;
// a full disk stops the whole run with one error (diskfull.go).
//
// It wires the stages together; it does not implement them: generation is
// interp/plan's, comparing interp/oracle's, the results directory's layout
// and rendering interp/report's.
package pipeline
