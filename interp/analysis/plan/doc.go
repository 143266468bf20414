// Package plan generates sieve's test plans from a reference trace. It
// serves the fault patterns that a test's policies ask for: intermediate,
// stale and unobserved state, API errors (a write answered with an error,
// a watch ended with 410 after an event: gone.go, a read of the
// controller's own answered with an error: reads.go), plus the spec's own
// plans (FromIR), whose stale app-fault actions take their answer from
// the reference trace, at the call where the trigger engine
// (interp/analysis/trigger's Replay) completes their trigger. For each
// it finds the candidates and prunes them pass by pass. It counts each
// pattern, explains what became of each candidate, and samples down to a
// policy's maximum (Generate, Sample).
//
// For a test whose workloads explore (lang/explore's operations), it
// merges the operations whose controller reaction in the reference trace
// has the same shape (Set.Operations) and drops the candidates made in the
// merged ones (the merged pass): the first of each group stands for the
// others.
//
// Reading a reference trace into reconciles also gives bounds learned from
// it: how long a hold lasts, and the controller's own timers (OwnTimer).
// interp/run/session rechecks a difference for such a timer.
//
// It writes counts and candidates to a writer or a file that it is given.
// It does not know the plans directory: interp/formats/results owns that
// (Layout, WritePlanSet). The plan file format is interp/formats/planfile's.
// The tracker, slim diffs and masks it shares with the trigger engine are
// interp/analysis/observe's. It reads traces (interp/formats/trace) but
// does not record them, run plans (interp/run/inject) or judge results
// (interp/analysis/oracle).
package plan
