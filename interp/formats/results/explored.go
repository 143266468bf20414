package results

import (
	"path/filepath"

	"github.com/sievetool/sieve/interp/analysis/oracle"
)

// ExploredFile is plans/NAME/explored.json, what a result of an explored
// workload (ExplorePattern) ran, as plan.json says it for a plan.
const ExploredFile = "explored.json"

// Explored is plans/NAME/explored.json.
type Explored struct {
	Version int `json:"version"`
	// Operations are the explored operations the run judged made, in
	// order; for a differential run, those that reached the state it
	// applied (the run made none of them).
	Operations []Operation `json:"operations"`
	// After, for a differential run of an intermediate state, is the
	// operation (from 1) whose state it applied; 0 for the final state.
	After int `json:"after,omitempty"`
	// Applied, for a differential run, is each explored resource's state
	// applied at once: the top-level fields its seed was applied with.
	Applied []Applied `json:"applied,omitempty"`
	// Rerun is the command that runs the test's explore results again
	// (ExploreRerun).
	Rerun string `json:"rerun"`
}

// Operation is one explored operation of Explored.
type Operation struct {
	// Operation numbers it from 1, the test's operations resource by
	// resource.
	Operation int    `json:"operation"`
	Resource  string `json:"resource"`
	Path      string `json:"path"`
	Change    string `json:"change"`
	// Value is the new value; absent when the change removes one.
	Value any `json:"value,omitempty"`
	// Step is the patch step that made it, and Src its spec position.
	Step oracle.StepID `json:"step"`
	Src  string        `json:"src,omitempty"`
	// Refused is the API server's answer when it refused the operation
	// in the reference run (which then changed nothing).
	Refused string `json:"refused,omitempty"`
}

// Applied is an explored resource's state applied at once.
type Applied struct {
	Resource string         `json:"resource"`
	Fields   map[string]any `json:"fields"`
}

// ExploreRerun is the command that runs test's explore results again:
// the reference runs recorded (or reused from the cache) and the explore
// results made anew, with no fault plan.
func ExploreRerun(spec, test string) string {
	return "sieve run " + shellQuote(spec) + " --test " + shellQuote(test) + " --pattern " + ExplorePattern
}

// WriteExplored writes ROOT/plans/<plan>/explored.json, creating the
// directory.
func WriteExplored(l Layout, plan string, e *Explored) error {
	e.Version = Version
	return writeJSON(l, filepath.Join(l.PlanDir(plan), ExploredFile), e)
}

// ReadExplored reads ROOT/plans/<plan>/explored.json.
func ReadExplored(l Layout, plan string) (*Explored, error) {
	e := &Explored{}
	return e, readJSON(filepath.Join(l.PlanDir(plan), ExploredFile), e)
}
