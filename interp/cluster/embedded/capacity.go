package embedded

import (
	"fmt"
	"runtime"
	"time"
)

// What one control plane costs, measured with all five components running
// (bench_test.go): its proportional set size once started, and the
// processor time its start takes.
const (
	PlaneMemory   = 350 << 20
	PlaneStartCPU = 3100 * time.Millisecond
)

// planesPerCPU is how many control planes one processor holds: once
// started, a plane mostly waits for its controller and workload, so two
// share a processor well; more and starts and plans slow each other down.
const planesPerCPU = 2

// Capacity is how many control planes the machine holds at once, and what
// bounds it ("2 processors, 2 planes each").
func Capacity() (planes int, bound string) {
	cpus := runtime.NumCPU()
	planes, bound = cpus*planesPerCPU, fmt.Sprintf("%d processors, %d planes each", cpus, planesPerCPU)
	if avail, ok := availableMemory(); ok {
		if byMem := int(avail / PlaneMemory); byMem < planes {
			planes, bound = byMem, fmt.Sprintf("%.1f GB of memory available, %d MB a plane", float64(avail)/1e9, PlaneMemory>>20)
		}
	}
	return max(planes, 1), bound
}
