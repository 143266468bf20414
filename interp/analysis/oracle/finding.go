package oracle

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/sievetool/sieve/lang/diag"
)

// Check names the kind of check that produced a finding.
type Check string

// Checks, in the order a report lists them within one severity.
const (
	CheckInvariant  Check = "invariant"        // an invariant was false in some state
	CheckPanic      Check = "controller-panic" // the controller panicked
	CheckCrash      Check = "controller-crash" // the controller exited on its own
	CheckMissing    Check = "object-missing"   // in the reference end state only
	CheckExtra      Check = "object-extra"     // in the test end state only
	CheckCount      Check = "object-count"     // creations/deletions of one object differ
	CheckGenerated  Check = "generated-count"  // objects named prefix* differ in number
	CheckField      Check = "field"            // a field value differs at the end
	CheckTimeout    Check = "workload-timeout" // a workload step timed out
	CheckStep       Check = "workload-step"    // a workload step failed
	CheckIncomplete Check = "incomplete"       // the workload never finished
	// The oracles of an explored run (CheckExplored).
	CheckHealth      Check = "health"      // a crash, a request failing in a loop, no quiet after an operation
	CheckConsistency Check = "consistency" // an operation left no trace in the controller's objects or status
	CheckRollback    Check = "rollback"    // undoing an operation did not bring the objects back
	// The differential oracle of an explored run (CheckDifferential).
	CheckDifferential Check = "differential" // the final state applied at once ends otherwise than the sequence
)

// rank orders the checks for sorting: the order of the constants above.
func rank(c Check) int {
	for i, k := range [...]Check{CheckInvariant, CheckPanic, CheckCrash, CheckMissing,
		CheckExtra, CheckCount, CheckGenerated, CheckField, CheckTimeout, CheckStep,
		CheckIncomplete, CheckHealth, CheckConsistency, CheckRollback, CheckDifferential} {
		if k == c {
			return i
		}
	}
	return 99
}

// Severity ranks findings; higher is more severe.
type Severity int

// Severities.
const (
	Low    Severity = 1
	Medium Severity = 2
	High   Severity = 3
)

// String names the severity.
func (s Severity) String() string {
	switch s {
	case High:
		return "high"
	case Medium:
		return "medium"
	}
	return "low"
}

// MarshalJSON encodes the severity by name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON decodes a severity name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var n string
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("severity: want high, medium or low, got %s", diag.Quote(string(b)))
	}
	switch n {
	case "high":
		*s = High
	case "medium":
		*s = Medium
	default:
		*s = Low
	}
	return nil
}

// Counts is how often one object (or the objects of one generated-name
// prefix) was created and deleted over a run.
type Counts struct {
	Created int `json:"created"`
	Deleted int `json:"deleted"`
}

// Finding is one difference between a test run and the reference, or one
// failure of the test run on its own. Which fields are set depends on Check.
type Finding struct {
	Check    Check    `json:"check"`
	Severity Severity `json:"severity"`
	// The test, the plan and its fault pattern, from the test trace header.
	Test    string `json:"test"`
	Plan    string `json:"plan"`
	Pattern string `json:"pattern,omitempty"`
	// Key is the object (kind/namespace/name, or kind/namespace/prefix*
	// for generated names); Path is the field path (ir.Path's text form;
	// a keyed list's element is named by a selector, [type=Ready]).
	Key  string `json:"key,omitempty"`
	Path string `json:"path,omitempty"`
	// Reference and Value are the field's JSON values in the reference and
	// in the test run; absent means the field (or object) is missing there.
	Reference json.RawMessage `json:"reference,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	// RefCounts and TestCounts are set for count checks. For
	// generated-count, Created is the number of objects at the end.
	RefCounts  *Counts `json:"refCounts,omitempty"`
	TestCounts *Counts `json:"testCounts,omitempty"`
	// Property is the field path of the explored resource that the
	// operation behind an explored run's finding changed.
	Property string `json:"property,omitempty"`
	// Invariant names the broken invariant; Src is a spec position (of
	// the invariant or the workload step).
	Invariant string `json:"invariant,omitempty"`
	Src       string `json:"src,omitempty"`
	// Seq is the trace entry where it happened: the history entry after
	// which the state broke the invariant, the step or controller entry.
	Seq int64 `json:"seq,omitempty"`
	// RepairedAfter is set on a transient difference (Oracle.Transient):
	// the seconds from the moment the run settled to the object's last
	// change, the controller's repair.
	RepairedAfter float64 `json:"repairedAfter,omitempty"`
	// Message says what happened in one line.
	Message string `json:"message"`
	// Reproduce is the command that runs the plan again. The oracle leaves
	// it empty: the pipeline fills it in from the results directory
	// (results.Layout.Reproduce).
	Reproduce string `json:"reproduce,omitempty"`
}

// Identity is what makes two findings the same finding wherever they are
// found (another plan, a rerun of the plan): the check, the object, the
// field path and the invariant.
type Identity struct {
	Check                Check
	Key, Path, Invariant string
}

// Identity returns the finding's identity.
func (f *Finding) Identity() Identity {
	return Identity{Check: f.Check, Key: f.Key, Path: f.Path, Invariant: f.Invariant}
}

// Sort orders findings most severe first, then by check, object, path and
// trace position, so that output is deterministic.
func Sort(fs []*Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return less(fs[i], fs[j]) })
}

func less(a, b *Finding) bool {
	if a.Severity != b.Severity {
		return a.Severity > b.Severity
	}
	if a.Check != b.Check {
		return rank(a.Check) < rank(b.Check)
	}
	if a.Plan != b.Plan {
		return a.Plan < b.Plan
	}
	if a.Key != b.Key {
		return a.Key < b.Key
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Invariant != b.Invariant {
		return a.Invariant < b.Invariant
	}
	return a.Seq < b.Seq
}

// severityOf is the severity of each check.
func severityOf(c Check) Severity {
	switch c {
	case CheckInvariant, CheckPanic, CheckCrash, CheckMissing, CheckIncomplete:
		return High
	}
	return Medium
}
