// Package stdlib is sieve's standard library of .sieve files, embedded in
// the binary: masks, fault policies, workloads and invariants. A spec
// imports them as "std/NAME", the file std/NAME.sieve of FS.
//
// It holds data only. lang/load hands FS to the checker and serves its
// text for diagnostics. The CUE form of the library is lang/cuefront's.
package stdlib
