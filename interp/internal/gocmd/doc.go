// Package gocmd starts the go command, or any program that cleans up on
// SIGINT, under a context. When the context is cancelled, the program is
// interrupted, not killed, so the go command removes its work directory in
// $TMPDIR. It is killed only if it has not ended Grace later.
//
// It does not decide what to build: packages controller, controlplane and
// dispatch do.
package gocmd
