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
//     findings on its trace into a results.Result, written as it ends. A
//     plan run that settles with objects differing from the reference
//     makes the controller list again (a resync on demand) and rechecks
//     them for a bound learned from the reference runs, or, when it cannot,
//     waits up to the test's converge bound for the controller to repair
//     them before it ends (converge.go); the repaired ones are transient.
//
// Start and Finish keep the results directory's summary.json; Prepare
// composes the stages before the plans (Start, References, Plans) and Test
// every stage, as sieve run does. Masks assembles a test's masks for each
// use. Backend says where runs happen: StartWorkers starts a test's
// backends and WorkerCount says how many, for sieve's verbs and sievetest
// alike. Options are data whose zero value is the default.
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
// a full disk stops the whole run with one error (diskfull.go). Every run
// is timed as it goes (clock.go): its phases, from reset to judging, and
// the windows of its faults, kept in its results.Timing.
//
// Each run's proxy answers the controller's execs into pods with the
// controller's stand-ins (interp/run/podexec); on a backend whose pods are
// simulated, an exec none matches is refused, and the workers of a run
// warn about it once per command (podexec.go).
//
// It wires the stages together; it does not implement them: generation is
// interp/analysis/plan's, comparing interp/analysis/oracle's, the results directory's layout
// interp/formats/results', and rendering interp/report's.
package pipeline
