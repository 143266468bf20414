// Package filelock takes an exclusive advisory lock on a file and waits
// for it. Processes that build the same binary into a shared cache (the
// control plane, the tests' sieve) use it to build once.
//
// It does not lock results directories. interp/formats/results' lock refuses a
// second owner at once and names it, rather than wait.
package filelock
