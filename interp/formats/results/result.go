package results

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
)

// Version is the version of the JSON files in a results directory.
const Version = 1

// Status is the outcome of one plan.
type Status string

// Plan outcomes.
const (
	Passed      Status = "passed"       // the fault fired and the oracle found nothing
	Failed      Status = "failed"       // the oracle found something
	Flaky       Status = "flaky"        // the oracle found something that no rerun found again
	NotInjected Status = "not-injected" // an action never fired: nothing was tested, whatever the oracle saw
	Errored     Status = "error"        // the run itself failed (infrastructure)
)

// ExplorePattern is the pattern of the two results of an explored
// workload that are no fault plan: its reference run judged by the
// explored-run oracles, and the run of its final state at once.
const ExplorePattern = "explore"

// Result is the outcome of one plan: plans/<plan>/result.json.
type Result struct {
	Version int    `json:"version"`
	Test    string `json:"test"`
	Plan    string `json:"plan"`
	Pattern string `json:"pattern,omitempty"`
	// Dir is the plan's directory, relative to the results root.
	Dir    string `json:"dir"`
	Status Status `json:"status"`
	// Error says why the run failed (Status error).
	Error    string            `json:"error,omitempty"`
	Findings []*oracle.Finding `json:"findings"`
	// Unconfirmed are findings of the first run that no rerun of the plan
	// found again: reported, not counted (a flaky plan has only these).
	Unconfirmed []*oracle.Finding `json:"unconfirmed,omitempty"`
	// Reruns are the runs of a failed plan made to confirm its findings.
	Reruns []*Rerun `json:"reruns,omitempty"`
	// NotFired says, for a not-injected plan, which action never fired
	// and why.
	NotFired *NotFired `json:"notFired,omitempty"`
	// Unreleased says, for a plan that was injected all the same, which
	// release action never fired: the hold before it was lifted when the
	// workload was over, or at its bound, and the run was judged as usual.
	Unreleased *NotFired `json:"unreleased,omitempty"`
	// Untested are the oracle's findings on a not-injected run: shown as
	// context, not counted (the plan's fault did not cause them).
	Untested []*oracle.Finding `json:"untested,omitempty"`
	// Transient are the differences from the reference's end state that
	// the run had when it settled and that the controller repaired while
	// the run waited for convergence (the test's converge bound): shown,
	// not counted. Converge says how that wait ended.
	Transient []*oracle.Finding `json:"transient,omitempty"`
	Converge  string            `json:"converge,omitempty"`
	// Retried says why the plan's first attempt proves nothing (its
	// control plane or the proxy's upstream failed during it); the plan
	// then ran once more on a new control plane, and this is that run's
	// verdict. The first attempt is in the plan's unhealthy-N directory.
	Retried string    `json:"retried,omitempty"`
	Started time.Time `json:"started"`
	Seconds float64   `json:"seconds"`
	// Timing says where the run's time went: its phases, which add up to
	// about Seconds, and the fault windows during them (docs/results.md).
	Timing
}

// Rerun is one more run of a failed plan, made to confirm its findings.
type Rerun struct {
	// Dir is the rerun's directory, relative to the results root.
	Dir     string  `json:"dir"`
	Status  Status  `json:"status"`
	Seconds float64 `json:"seconds"`
	// Timing says where the rerun's time went, as Result.Timing.
	Timing
}

// NotFired is the first action of a plan that never fired; the actions
// after it were never armed. For a release (Result.Unreleased), the plan
// was injected all the same.
type NotFired struct {
	Action int `json:"action"` // 1-based
	Of     int `json:"of"`     // the plan's actions
	// What is the action (.sieve plan syntax); empty when the plan was
	// not known to the judge.
	What string `json:"what,omitempty"`
	// Trigger is what the action waited for (.sieve plan syntax).
	Trigger string `json:"trigger,omitempty"`
	// After is the trace entry where the previous action fired, which
	// armed this one; 0 for the first action.
	After int64 `json:"after,omitempty"`
	// Missed says why the action, whose trigger was met, did not take
	// effect (a stale view whose freeze point never came).
	Missed string `json:"missed,omitempty"`
}

// String says which action did not fire and why, in one line.
func (n *NotFired) String() string {
	s := fmt.Sprintf("action %d of %d", n.Action, n.Of)
	if n.What != "" {
		s += " (" + n.What + ")"
	}
	switch {
	case n.Missed != "":
		return s + " never took effect: " + n.Missed
	case n.What == "": // the plan is not known
		return s + " never fired"
	case n.Trigger == "":
		return s + " never fired: the run ended before it"
	}
	s += " never fired: "
	if n.After > 0 {
		s += fmt.Sprintf("after action %d fired (trace entry %d), ", n.Action-1, n.After)
	}
	return s + "the test run never met its trigger: " + n.Trigger
}

// tested reports whether a run tested its plan (every action fired and
// the oracle judged it), so that not finding a finding in it means
// something.
func tested(s Status) bool { return s == Passed || s == Failed }

// FoundAgain reports whether the reruns found every finding of r again.
func (r *Result) FoundAgain(reruns []*Result) bool {
	again := identities(reruns)
	for _, f := range r.Findings {
		if !again[f.Identity()] {
			return false
		}
	}
	return true
}

func identities(rs []*Result) map[oracle.Identity]bool {
	out := map[oracle.Identity]bool{}
	for _, r := range rs {
		for _, f := range r.Findings {
			out[f.Identity()] = true
		}
	}
	return out
}

// Confirm records the reruns of a failed plan and settles its findings:
// those no rerun found again move to Unconfirmed, and a plan left with
// none is flaky. A rerun that tested nothing (an error, an action that
// did not fire) is no evidence either way: without a rerun that tested
// the plan, the findings stand.
func (r *Result) Confirm(reruns []*Result) {
	evidence := false
	for _, rr := range reruns {
		r.Reruns = append(r.Reruns, &Rerun{Dir: rr.Dir, Status: rr.Status, Seconds: rr.Seconds, Timing: rr.Timing})
		evidence = evidence || tested(rr.Status)
	}
	if !evidence {
		return
	}
	again := identities(reruns)
	kept := []*oracle.Finding{}
	for _, f := range r.Findings {
		if again[f.Identity()] {
			kept = append(kept, f)
		} else {
			r.Unconfirmed = append(r.Unconfirmed, f)
		}
	}
	r.Findings = kept
	if len(kept) == 0 {
		r.Status = Flaky
	}
}

// TestRun describes one test's run: summary.json in its results
// directory. Finished is nil while the run goes on or when it was
// interrupted.
type TestRun struct {
	Version    int        `json:"version"`
	Test       string     `json:"test"`
	Spec       string     `json:"spec,omitempty"`
	Shard      string     `json:"shard,omitempty"` // "I/N" when the run kept part I of N of the plans (--shard)
	Dir        string     `json:"dir"`             // relative to the results root; "" for the root itself
	Started    time.Time  `json:"started"`
	Finished   *time.Time `json:"finished,omitempty"`
	References int        `json:"references"`
	Planned    int        `json:"planned"` // plans the run meant to execute
	// ReferenceRuns says where the time of each reference run recorded
	// went (none when they were reused), in run order.
	ReferenceRuns []Timing `json:"referenceRuns,omitempty"`
	// Phases and Windows add up the phases and fault windows of the
	// plans' runs (result.json, reruns left out) by name, in seconds.
	Phases  map[string]float64 `json:"phases,omitempty"`
	Windows map[string]float64 `json:"windows,omitempty"`
	// Explored counts the operations of the test's explore steps, none
	// for a test that explores nothing.
	Explored *ExploredCounts `json:"explored,omitempty"`
}

// ExploredCounts say how many operations a test's explore steps
// generated and what became of them in its first reference run.
type ExploredCounts struct {
	Generated int `json:"generated"`
	// Refused are those the API server refused; Run the others.
	Refused int `json:"refused"`
	Run     int `json:"run"`
	// Merged are operations run whose controller reaction had the shape
	// of an earlier one's: the fault patterns' plans of that one stand
	// for theirs.
	Merged int `json:"merged"`
}

// String is the counts as sieve run prints them.
func (c *ExploredCounts) String() string {
	return fmt.Sprintf("%d operations generated, %d refused, %d run, %d merged", c.Generated, c.Refused, c.Run, c.Merged)
}

// Has reports whether r is one of the run's results: in the run's plans
// directory once loaded (so that several jobs' runs of one test can be
// read together), of the run's test otherwise.
func (t *TestRun) Has(r *Result) bool {
	if r.Dir == "" {
		return r.Test == t.Test
	}
	return strings.HasPrefix(r.Dir, path.Join(t.Dir, plansDir)+"/")
}

// Summary is everything a results directory holds, as the report
// renderers see it.
type Summary struct {
	Version int        `json:"version"`
	Runs    []*TestRun `json:"runs"`
	Results []*Result  `json:"results"`
	Totals  Totals     `json:"totals"`
}

// Totals counts plans by status and findings by severity.
type Totals struct {
	Plans       int `json:"plans"`
	Passed      int `json:"passed"`
	Failed      int `json:"failed"`
	Flaky       int `json:"flaky"`
	NotInjected int `json:"notInjected"`
	Errors      int `json:"errors"`
	Findings    int `json:"findings"`
	High        int `json:"high"`
	Medium      int `json:"medium"`
	Low         int `json:"low"`
}

// Count computes the totals of results.
func Count(rs []*Result) Totals {
	var t Totals
	for _, r := range rs {
		t.Plans++
		switch r.Status {
		case Passed:
			t.Passed++
		case Failed:
			t.Failed++
		case Flaky:
			t.Flaky++
		case NotInjected:
			t.NotInjected++
		case Errored:
			t.Errors++
		}
		for _, f := range r.Findings {
			t.Findings++
			switch f.Severity {
			case oracle.High:
				t.High++
			case oracle.Medium:
				t.Medium++
			default:
				t.Low++
			}
		}
	}
	return t
}

// Unfinished reports whether a run of the summary did not finish (it was
// interrupted, or is still running): its summary.json says when it
// started and not when it finished. Its plans without results are neither
// passed nor failed.
func (s *Summary) Unfinished() bool {
	for _, r := range s.Runs {
		if r.Finished == nil && r.Started.Unix() > 0 {
			return true
		}
	}
	return false
}

// ExitCode is the exit code for a summary: 1 with findings, else 3 with
// infrastructure errors, else 0.
func (s *Summary) ExitCode() int {
	switch {
	case s.Totals.Findings > 0 || s.Totals.Failed > 0:
		return 1
	case s.Totals.Errors > 0:
		return 3
	}
	return 0
}
