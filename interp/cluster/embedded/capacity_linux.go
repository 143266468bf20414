package embedded

// availableMemory is the kernel's estimate of the memory available for
// new work without swapping (MemAvailable).
func availableMemory() (int64, bool) {
	kb, err := procKB("/proc/meminfo", "MemAvailable:")
	if err != nil {
		return 0, false
	}
	return kb * 1024, true
}
