// Package pipeline runs a test through record → generate/prune → inject →
// compare → report: fault-free reference runs, plan generation from the
// first reference trace, one run per plan on a reset backend (in parallel
// workers, each with its own backend), the oracle's verdict on each, and
// the results directory that reports are made from.
//
// It wires the stages together; it does not implement any of them.
package pipeline
