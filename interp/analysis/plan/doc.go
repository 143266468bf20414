// Package plan generates sieve's test plans from a reference trace. For
// the fault patterns a test's policies ask for (intermediate, stale and
// unobserved state, plus the spec's own plans) it finds the candidates,
// prunes them pass by pass, counts each pattern, explains what became of
// each candidate, and samples down to a policy's maximum.
//
// Its reading of a reference trace into reconciles also gives the bounds
// learned from it: how long a hold lasts, and the controller's own timers
// (OwnTimer), which interp/run/session rechecks a difference for.
//
// It writes counts and candidates to any writer, but not the plans
// directory: interp/report (Layout, WritePlanSet) owns that. The plan file
// format is interp/formats/planfile's; the tracker, slim diffs and masks it shares
// with the trigger engine are interp/analysis/observe's. It reads traces
// (interp/formats/trace) but does not record them, run plans (interp/run/inject) or
// judge results (interp/analysis/oracle).
package plan
