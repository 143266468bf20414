// Package gocmd starts the go command, or any program that cleans up on
// SIGINT, under a context. When the context is cancelled, the program is
// interrupted, not killed; it is killed only if it has not ended Grace
// later. Run gives it a GOTMPDIR of its own, removed when it ends, since
// a go command stopped early can still leave its work directory there.
//
// It does not decide what to build: packages controller, controlplane and
// dispatch do.
package gocmd
