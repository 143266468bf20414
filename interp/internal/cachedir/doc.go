// Package cachedir keeps sieve's caches outside the results directory from
// growing without end. A cache root holds one directory an entry, and an
// entry is marked when it is used (Use). Trim removes the entries not used
// for MaxAge, the way the go command trims its build cache.
//
// It does not decide what is cached: the controller binaries
// (interp/run/controller) and the reference runs (interp/pipeline) are
// their packages' own.
package cachedir
