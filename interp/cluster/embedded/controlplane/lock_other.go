//go:build !unix

package controlplane

// lockFile does not lock where flock is missing; parallel builds of the
// binary may then race (each writes its own temporary file and renames it).
func lockFile(string) (func(), error) { return func() {}, nil }
