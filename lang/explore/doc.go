// Package explore generates the operations of an explored workload: given
// a seed custom resource and the openAPIV3Schema of its CRD, it changes
// one property per operation to another value the schema allows (enum
// members, values at and beside bounds, flipped booleans, changed strings
// and quantities, list items added and removed, optional fields set and
// unset), deterministically for a seed number and within bounds (a
// maximum number of operations, properties in or out by path pattern).
// Workload prints a sequence of operations as a .sieve workload (an
// apply of the seed, then one merge patch and a settle per operation),
// built with lang/syntax's builders for lang/format to print.
//
// Expand expands a workload's explore step, for both front ends (the
// .sieve checker and the CUE front end lower it to a placeholder step and
// a Use): the seed applied, then a merge patch of Patches and a settle per
// operation Generate makes, each patch marked with its operation
// (Operation.IR).
//
// It reads only the files it is given and runs nothing: running explored
// workloads and judging them belong to the interpreter (the consistency,
// rollback and health checks are interp/analysis/oracle's CheckExplored).
package explore
