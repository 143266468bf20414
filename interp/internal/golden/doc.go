// Package golden compares the out/ sections of a txtar archive with what a
// test produced, or rewrites them when SIEVE_UPDATE is set: the golden
// files of the interpreter's tests. It holds no test data of its own.
package golden
