//go:build !unix

package filelock

import "context"

// Lock does not lock where flock is missing: callers must stay correct
// without it (each build writes its own temporary file and renames it).
func Lock(context.Context, string, func(int)) (func(), error) { return func() {}, nil }
