package ir

import "fmt"

// Count names a count of a spec that sizes the work of a run: both front
// ends bound it (CountBound), so a typo such as runs 100000000 is an
// error at check, not a run that never ends.
type Count int

// The counts that size work.
const (
	// CountRuns is a test's reference runs: each replays the whole
	// workload on a fresh control plane.
	CountRuns Count = iota
	// CountMaxPlans is a policy's cap on its plans per pattern: each plan
	// is a run of its own.
	CountMaxPlans
	// CountReplicas is the replicas of a scale step, and the pods a wait
	// for readiness counts: each is a pod the control plane schedules.
	CountReplicas
	// CountOperations is the most operations an explore step generates:
	// each is a patch and a settle of every run of the test.
	CountOperations
)

// CountBound returns the largest value count c may take, and why.
func CountBound(c Count) (int64, string) {
	switch c {
	case CountRuns:
		return 50, "each reference run replays the whole workload"
	case CountMaxPlans:
		return 100_000, "each plan is a run of its own"
	case CountOperations:
		return 1_000, "each operation is a patch and a settle in every run"
	default:
		return 1_000, "each replica is a pod the control plane schedules"
	}
}

// CheckCount returns the problem with value n of count c, named what
// (how the spec spells it), or "" when n is within its bound.
func CheckCount(c Count, what string, n int64) string {
	limit, why := CountBound(c)
	if n <= limit {
		return ""
	}
	return fmt.Sprintf("%s: must be at most %d, got %d (%s)", what, limit, n, why)
}
