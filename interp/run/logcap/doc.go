// Package logcap bounds the logs of the programs a run starts: the
// controller's controller.log and a stand-in's standin-SERVICE.log. A
// program that writes without pause would otherwise grow them until the
// disk is full. A capped log (Writer) keeps its first part and its last
// part, with a line between them that says how much was dropped and how
// to raise the limit ($SIEVE_LOG_LIMIT, Env).
//
// It does not know where logs live (the programs' runners name them) nor
// what is in them (interp/run/controller watches the controller's lines).
package logcap
