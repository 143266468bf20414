// Package logcap bounds the logs of the programs a run starts (the
// controller's controller.log, a stand-in's standin-SERVICE.log), which a
// program that writes without pause would otherwise grow until the disk
// is full. A capped log keeps its first part and its last part, with a
// line between them that says how much was dropped and how to raise the
// limit.
//
// It does not know where logs live (interp/formats/results' layout does) nor
// what is in them (interp/run/controller watches the controller's lines).
package logcap
