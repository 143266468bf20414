package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/sievetool/sieve/interp/formats/results"
)

// WriteTimeWent writes where the runs' time went, in three lines at most:
// each phase's share of the total, its median per run, and the fault
// windows inside them. what names the runs ("plan", "reference run").
// Nothing is written for runs without phases.
func WriteTimeWent(w io.Writer, what string, runs []results.Timing) {
	sums := results.SumPhases(runs)
	if len(sums) == 0 {
		return
	}
	total := 0.0
	for _, s := range sums {
		total += s
	}
	names := byShare(sums)
	var shares, medians []string
	for _, n := range names {
		if pct := 100 * sums[n] / total; pct >= 0.5 {
			shares = append(shares, fmt.Sprintf("%s %.0f%%", n, pct))
			medians = append(medians, fmt.Sprintf("%s %.2fs", n, medianOf(runs, n)))
		}
	}
	fmt.Fprintf(w, "time went to (%d %ss, %.1fs in all): %s\n", len(runs), what, total, strings.Join(shares, ", "))
	fmt.Fprintf(w, "  median per %s: %s\n", what, strings.Join(medians, ", "))
	if ws := results.SumWindows(runs); len(ws) > 0 {
		var parts []string
		for _, n := range byShare(ws) {
			parts = append(parts, fmt.Sprintf("%s %.1fs", windowNames[n], ws[n]))
		}
		fmt.Fprintf(w, "  fault windows, during those: %s\n", strings.Join(parts, ", "))
	}
}

// windowNames are the fault windows' names in the terminal summary.
var windowNames = map[string]string{results.WindowStale: "stale view held", results.WindowHold: "events held", results.WindowRestart: "controller restarts", results.WindowPause: "controller paused"}

// byShare orders names by their seconds, most first.
func byShare(sums map[string]float64) []string {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if sums[names[i]] != sums[names[j]] {
			return sums[names[i]] > sums[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}

// medianOf is the median over runs of the seconds each spent in phase
// name (0 for a run without it).
func medianOf(runs []results.Timing, name string) float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		for _, p := range r.Phases {
			if p.Phase == name {
				xs[i] += p.Seconds
			}
		}
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}
