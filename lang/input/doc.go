// Package input reads the files users give sieve — specs (.sieve and .cue),
// manifests and CRDs, traces, plans and the JSON files of a results
// directory — with a bound on their size that is checked while reading, not
// on the size that stat reports: /dev/zero, a FIFO or a file that grows
// stops at the bound with an error that says it.
//
// Each kind of file has its limit here, so the limits are documented in
// one place and every reader uses the same helper. The package does not
// parse anything; the readers of each format own that. It words, for
// them all, the errors of the JSON decoder they use (JSONError), so that
// a bad file is told in JSON's terms, not in Go's.
package input
