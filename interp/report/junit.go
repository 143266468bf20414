package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/results"
)

// The JUnit XML elements sieve writes. They follow the schema that Jenkins
// (xunit junit-10.xsd), GitLab and GitHub test reporters read; see
// testdata/junit.xsd for the rules a test holds the output to.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name      string      `xml:"name,attr"`
		Tests     int         `xml:"tests,attr"`
		Failures  int         `xml:"failures,attr"`
		Errors    int         `xml:"errors,attr"`
		Skipped   int         `xml:"skipped,attr"`
		Time      string      `xml:"time,attr"`
		Timestamp string      `xml:"timestamp,attr,omitempty"`
		Cases     []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Skipped   *junitMessage `xml:"skipped,omitempty"`
		Error     *junitMessage `xml:"error,omitempty"`
		Failure   *junitMessage `xml:"failure,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitMessage struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr,omitempty"`
		Text    string `xml:",chardata"`
	}
)

// JUnit writes the summary as JUnit XML: one test suite per test, one test
// case per plan. A failed plan is a failure listing its findings; a plan
// whose fault never fired is a skipped test case, never a pass, whatever
// the oracle saw (in its output, not counted); an errored
// plan is an error; a flaky plan passes, its unconfirmed findings in its
// output.
func JUnit(w io.Writer, s *results.Summary) error {
	doc := junitSuites{Name: "sieve"}
	var total float64
	for _, run := range s.Runs {
		suite := junitSuite{Name: run.Test}
		if run.Shard != "" {
			suite.Name += " (shard " + run.Shard + ")"
		}
		if !run.Started.IsZero() {
			suite.Timestamp = run.Started.UTC().Format("2006-01-02T15:04:05")
		}
		var secs float64
		for _, r := range s.Results {
			if !run.Has(r) {
				continue
			}
			suite.Cases = append(suite.Cases, junitCaseOf(r))
			suite.Tests++
			secs += r.Seconds
			switch r.Status {
			case results.Failed:
				suite.Failures++
			case results.Errored:
				suite.Errors++
			case results.NotInjected:
				suite.Skipped++
			}
		}
		suite.Time = seconds(secs)
		total += secs
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Errors += suite.Errors
		doc.Suites = append(doc.Suites, suite)
	}
	doc.Time = seconds(total)
	return writeXML(w, doc)
}

func junitCaseOf(r *results.Result) junitCase {
	c := junitCase{Name: r.Plan, Classname: "sieve." + r.Test, Time: seconds(r.Seconds)}
	if r.Pattern != "" {
		c.Classname += "." + r.Pattern
	}
	switch r.Status {
	case results.Failed:
		c.Failure = &junitMessage{
			Message: fmt.Sprintf("%d %s: %s", len(r.Findings), plural(len(r.Findings), "finding", "findings"), firstMessage(r)),
			Type:    "sieve.finding",
			Text:    findingsText(r.Findings),
		}
	case results.Errored:
		c.Error = &junitMessage{Message: r.Error, Type: "sieve.infrastructure"}
	case results.NotInjected:
		c.Skipped = &junitMessage{Message: "not-injected, nothing was tested: an action of the plan never fired"}
		if r.NotFired != nil {
			c.Skipped.Message = "not-injected, nothing was tested: " + r.NotFired.String()
		}
	}
	if len(r.Untested) > 0 {
		c.SystemOut = "seen in a run that tested nothing, not counted:\n" + findingsText(r.Untested)
	}
	if len(r.Unconfirmed) > 0 {
		c.SystemOut = fmt.Sprintf("not found again by %d %s, not counted:\n", len(r.Reruns), plural(len(r.Reruns), "rerun", "reruns")) +
			findingsText(r.Unconfirmed)
	}
	if fs := slices.Concat(r.Findings, r.Unconfirmed, r.Untested); len(fs) > 0 && fs[0].Reproduce != "" {
		c.SystemOut += "reproduce: " + fs[0].Reproduce + "\n"
	}
	return c
}

func firstMessage(r *results.Result) string {
	if len(r.Findings) == 0 {
		return ""
	}
	return r.Findings[0].Message
}

// findingsText lists findings one per line for a failure body.
func findingsText(fs []*oracle.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "[%s] %s: %s\n", f.Severity, f.Check, f.Message)
		if f.Check == oracle.CheckField {
			fmt.Fprintf(&b, "    reference: %s\n    test run:  %s\n", ShowRaw(f.Reference), ShowRaw(f.Value))
		}
	}
	return b.String()
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

func writeXML(w io.Writer, v any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
