//go:build !linux

package embedded

// availableMemory is unknown outside Linux: only processors bound the
// number of control planes there.
func availableMemory() (int64, bool) { return 0, false }
