// Package nospace owns how sieve says that a disk is full: "no space left on
// device in DIR (hint)". It says so plainly and first, so that the cause is
// not buried under a stack trace. First rewords an error of sieve's own
// write that failed with ENOSPC or EDQUOT. InLog finds the same cause in a
// component's log, such as etcd's in a full TMPDIR.
//
// It does not decide what a full disk stops; the pipeline does.
package nospace
