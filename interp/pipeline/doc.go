// Package pipeline runs a test through record → generate/prune → inject →
// compare → report: fault-free reference runs, plan generation from the
// first reference trace, one run per plan on a reset backend (in parallel
// workers, each with its own backend), the oracle's verdict on each, and
// the results directory that reports are made from.
//
// It also keeps a run honest: the control plane and the proxy's upstream
// are watched during every run (health.go); a run whose infrastructure
// failed, reference or plan, is run again once on a new control plane;
// a full disk stops the whole run with one error (diskfull.go).
//
// It wires the stages together; it does not implement any of them.
package pipeline
