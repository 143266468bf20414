package report

import (
	"time"

	"github.com/sievetool/sieve/interp/oracle"
	"github.com/sievetool/sieve/interp/trace"
)

// Version is the version of the JSON files in a results directory.
const Version = 1

// Status is the outcome of one plan.
type Status string

// Plan outcomes.
const (
	Passed      Status = "passed"       // the fault fired and the oracle found nothing
	Failed      Status = "failed"       // the oracle found something
	NotInjected Status = "not-injected" // the fault never fired: nothing was tested
	Errored     Status = "error"        // the run itself failed (infrastructure)
)

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
	Started  time.Time         `json:"started"`
	Seconds  float64           `json:"seconds"`
}

// Classify decides a plan's status: an infrastructure error first, then
// findings, then whether the fault fired at all.
func Classify(injected bool, findings []*oracle.Finding, runErr error) Status {
	switch {
	case runErr != nil:
		return Errored
	case len(findings) > 0:
		return Failed
	case !injected:
		return NotInjected
	}
	return Passed
}

// Judge checks a plan's trace with the oracle and returns its result; dir
// is the plan directory relative to the results root. The caller sets
// Started and Seconds.
func Judge(o *oracle.Oracle, t *trace.Trace, dir string) (*Result, error) {
	fs, err := o.Check(t)
	if err != nil {
		return nil, err
	}
	if fs == nil {
		fs = []*oracle.Finding{}
	}
	return &Result{
		Version: Version, Test: t.Header.Test, Plan: t.Header.Plan, Pattern: t.Header.Pattern,
		Dir: dir, Findings: fs, Status: Classify(oracle.Injected(t), fs, nil),
	}, nil
}

// TestRun describes one test's run: summary.json in its results
// directory. Finished is nil while the run goes on or when it was
// interrupted.
type TestRun struct {
	Version    int        `json:"version"`
	Test       string     `json:"test"`
	Spec       string     `json:"spec,omitempty"`
	Dir        string     `json:"dir"` // relative to the results root; "" for the root itself
	Started    time.Time  `json:"started"`
	Finished   *time.Time `json:"finished,omitempty"`
	References int        `json:"references"`
	Planned    int        `json:"planned"` // plans the run meant to execute
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
	NotInjected int `json:"notInjected"`
	Errors      int `json:"errors"`
	Findings    int `json:"findings"`
	High        int `json:"high"`
	Medium      int `json:"medium"`
	Low         int `json:"low"`
}

// count computes the totals of results.
func count(rs []*Result) Totals {
	var t Totals
	for _, r := range rs {
		t.Plans++
		switch r.Status {
		case Passed:
			t.Passed++
		case Failed:
			t.Failed++
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
