package plan

import (
	"fmt"

	"github.com/sievetool/sieve/lang/ir"
)

// passWhat says what each pruning pass drops, for the reason a pattern
// yields no plans.
func passWhat(pass string) string {
	switch pass {
	case PassFailed:
		return "it drops writes that failed"
	case PassNoOp:
		return "it drops changes that are empty after masking"
	case PassNondeterministic:
		return "it drops objects with generated names and objects masked whole"
	case PassCausality:
		return "it keeps what the controller plausibly acted on"
	case PassDuplicates:
		return "it drops signatures seen more than a few times"
	case PassMerged:
		return "it drops what an explored operation merged into another holds"
	case PassMax:
		return "the policy's max_plans"
	}
	return ""
}

// noPlans says why pattern pat of a policy yielded no plans, from what
// generation found in the reference trace (count.Baseline is 0) or from
// the pass that dropped the last candidates.
func (g *generator) noPlans(pat ir.Pattern, count Count) string {
	if count.Baseline == 0 {
		return g.noCandidates(pat)
	}
	left := count.Baseline
	for _, p := range count.Passes {
		if p.On && p.Left == 0 {
			return droppedAll(p.Pass, count.Baseline, left)
		}
		left = p.Left // an off pass leaves them all
	}
	return fmt.Sprintf("the %d candidates made no distinct plan", count.Baseline)
}

// noCandidates says why the reference trace gives pattern pat no
// candidate at all: what each pattern starts from.
func (g *generator) noCandidates(pat ir.Pattern) string {
	switch pat {
	case ir.Intermediate:
		return "the controller made no write in the reference run (intermediate crashes it right after each of its writes)"
	case ir.APIError:
		return "the controller made no write in the reference run (apierror answers each of its writes with an API error; with gone among api_errors, it ends a watch after each event the controller received; with api_reads, it answers the reads of its own code too)"
	case ir.AppFault:
		return "the controller made no call to its application in the reference run (appfault answers each exec into a pod, and each HTTP request to a stand-in, wrongly once)"
	case ir.Unobserved:
		return "the controller received no event in the reference run (unobserved hides one of its events)"
	}
	for _, w := range g.ix.writes {
		if isDelete(w) {
			return "no event reached the controller before it deleted something (stale freezes its view of an object it saw before a delete)"
		}
	}
	return "the controller deleted nothing in the reference run (stale starts at an object the controller deletes: " +
		"have the workload delete, patch or scale an object it watches, or apply one again)"
}

// droppedAll says that pass dropped the last left of baseline candidates.
func droppedAll(pass string, baseline, left int) string {
	switch pass {
	case PassCancelled:
		return fmt.Sprintf("no event the controller received was undone or replaced by a later event on the same object "+
			"(unobserved hides an event that a later one cancels; %d events, none cancelled)", baseline)
	case PassEffect:
		return fmt.Sprintf("after none of the %d deletes did the deleted object come back, nor newer state of the object "+
			"the controller had seen that it acted on (a stale view fires then)", left)
	case PassFilter:
		return fmt.Sprintf("the policy's include/exclude filters kept none of the %d candidates", left)
	}
	return fmt.Sprintf("pruning dropped all %d candidates: the %s pass dropped the last %d (%s; sieve plan --explain says why each was dropped)",
		baseline, pass, left, passWhat(pass))
}

// NoPlans returns one line per policy and pattern that yielded no plans,
// with the reason: "stale: no plans: the controller deleted nothing ...
// (policy all)".
func NoPlans(counts []Count) []string {
	var out []string
	for _, c := range counts {
		if c.Final == 0 && c.NoPlans != "" {
			out = append(out, fmt.Sprintf("%s: no plans: %s (policy %s)", c.Pattern, c.NoPlans, c.Policy))
		}
	}
	return out
}
