// Package gocmd starts the go command (or any program that cleans up on
// SIGINT) under a context: cancelled, the program is interrupted, not
// killed, so that the go command removes its work directory in $TMPDIR;
// it is killed only if it has not ended Grace later.
//
// It does not decide what to build (packages controller, controlplane
// and dispatch do).
package gocmd
