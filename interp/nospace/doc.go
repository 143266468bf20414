// Package nospace owns how sieve says that a disk is full: "no space left
// on device in DIR (hint)", plainly and first, whether sieve's own write
// failed with ENOSPC (or EDQUOT) or a component's log says so (etcd in a
// full TMPDIR), so that the cause is not buried under a stack trace.
//
// It does not decide what a full disk stops; the pipeline does.
package nospace
