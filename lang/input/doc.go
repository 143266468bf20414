// Package input reads the files users give sieve with a bound on their size.
// They are specs (.sieve and .cue), manifests and CRDs, kubeconfigs, traces,
// plans, the JSON files of a results directory and collected artefacts. The
// bound is checked while reading, not against the size that stat reports. So
// /dev/zero, a FIFO or a growing file stops at the bound with an error that
// says so.
//
// Each kind of file has its limit here (SpecLimit, TraceLimit, ...), so the
// limits are documented in one place and every reader uses the same
// helper. It also words the errors of the JSON decoder for every reader
// (JSONError), so a bad file is told in JSON's terms, not in Go's.
//
// It does not parse anything: the reader of each format does.
package input
