// Package cputime measures the CPU time a benchmark spends, the figure to
// compare on a shared machine, where wall time overstates the cost.
package cputime

import (
	"syscall"
	"testing"
	"time"
)

// Used is the CPU time (user + system) this process has used.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Report reports the CPU time used since start (a Used value) per
// iteration of b, as cpu-ms/op.
func Report(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((Used()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}
