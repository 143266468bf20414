package report

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/lang/diag"
)

// TextOptions configure the terminal summary. The zero value prints
// without colour and lists findings only.
type TextOptions struct {
	// Color uses ANSI colours (on a terminal, unless --no-color).
	Color bool
	// Verbose also lists every plan with its status.
	Verbose bool
}

// Group is one finding seen in one or more plans: same check, object, path
// and invariant.
type Group struct {
	First *oracle.Finding
	Plans []*results.Result
}

// groupID identifies a group: one finding of one test.
type groupID struct {
	test string
	oracle.Identity
}

// Groups gathers the findings of s into groups, most severe first, in a
// deterministic order.
func Groups(s *results.Summary) []*Group {
	var out []*Group
	index := map[groupID]*Group{}
	var all []*oracle.Finding
	owner := map[*oracle.Finding]*results.Result{}
	for _, r := range s.Results {
		for _, f := range r.Findings {
			all = append(all, f)
			owner[f] = r
		}
	}
	oracle.Sort(all)
	for _, f := range all {
		id := groupID{f.Test, f.Identity()}
		g := index[id]
		if g == nil {
			g = &Group{First: f}
			index[id] = g
			out = append(out, g)
		}
		if r := owner[f]; len(g.Plans) == 0 || g.Plans[len(g.Plans)-1] != r {
			g.Plans = append(g.Plans, r)
		}
	}
	return out
}

// Text writes the terminal summary: a headline with the counts, the
// finding groups most severe first (each with its plans and a reproduce
// command), then errors and plans where the fault never fired (with the
// action that did not fire).
func Text(w io.Writer, s *results.Summary, opt TextOptions) error {
	p := &printer{w: w, color: opt.Color}
	p.headline(s)
	for _, g := range Groups(s) {
		p.group(s, g)
	}
	p.problems(s)
	p.transient(s)
	if opt.Verbose {
		p.plans(s)
	}
	return p.err
}

// printer writes text, remembering the first error.
type printer struct {
	w     io.Writer
	color bool
	err   error
}

// ANSI colour codes.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

// printf prints, with control characters in args escaped: values come
// from the cluster, the controller's log and results files.
func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		for i, a := range args {
			args[i] = printable(a)
		}
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// painted is text whose control characters are sieve's own colours.
type painted string

// printable is printf argument a with control characters escaped
// (diag.Printable), but for sieve's own colours (painted).
func printable(a any) any {
	switch a := a.(type) {
	case painted:
		return string(a)
	case error:
		return diag.Printable(a.Error())
	case fmt.Stringer:
		return diag.Printable(a.String())
	}
	if v := reflect.ValueOf(a); v.Kind() == reflect.String {
		return diag.Printable(v.String())
	}
	return a
}

// paint wraps s, escaped, in a colour when colour is on.
func (p *printer) paint(code, s string) painted {
	if !p.color {
		return painted(diag.Printable(s))
	}
	return painted(code + diag.Printable(s) + ansiReset)
}

func severityColor(s oracle.Severity) string {
	switch s {
	case oracle.High:
		return ansiRed + ansiBold
	case oracle.Medium:
		return ansiYellow
	}
	return ansiCyan
}

func (p *printer) headline(s *results.Summary) {
	t := s.Totals
	verdict := p.paint(ansiGreen+ansiBold, "no findings")
	if t.Findings > 0 {
		verdict = p.paint(ansiRed+ansiBold, fmt.Sprintf("%d %s", len(Groups(s)), plural(len(Groups(s)), "finding", "findings")))
		verdict += painted(fmt.Sprintf(" (%d across all plans)", t.Findings))
	}
	flaky := ""
	if t.Flaky > 0 {
		flaky = fmt.Sprintf(", %d flaky", t.Flaky)
	}
	explored := ""
	if n := explorePlans(s); n > 0 {
		explored = fmt.Sprintf(" (%d of them the explored workload's checks)", n)
	}
	p.printf("%s: %d %s%s: %d failed%s, %d passed, %d not injected, %d %s; %s\n",
		testNames(s), t.Plans, plural(t.Plans, "plan", "plans"), explored, t.Failed, flaky, t.Passed, t.NotInjected,
		t.Errors, plural(t.Errors, "error", "errors"), verdict)
	for _, r := range s.Runs {
		if r.Explored != nil {
			p.printf("test %s: explored: %s\n", r.Test, r.Explored.String())
		}
		if r.Finished == nil && r.Started.Unix() > 0 {
			p.printf("%s\n", p.paint(ansiYellow, fmt.Sprintf("test %s: the run did not finish (%d of %d plans have results)", r.Test, countRun(s, r), r.Planned)))
		}
	}
}

// explorePlans counts the results of explored workloads that are no fault
// plan (results.ExplorePattern).
func explorePlans(s *results.Summary) int {
	n := 0
	for _, r := range s.Results {
		if r.Pattern == results.ExplorePattern {
			n++
		}
	}
	return n
}

// testNames names the tests of the summary, once each, and the shards
// (--shard) their runs kept: results of several jobs can be read together.
func testNames(s *results.Summary) string {
	var names, shards []string
	for _, r := range s.Runs {
		if !slices.Contains(names, r.Test) {
			names = append(names, r.Test)
		}
		if r.Shard != "" && !slices.Contains(shards, r.Shard) {
			shards = append(shards, r.Shard)
		}
	}
	if len(names) == 0 {
		return "sieve"
	}
	out := "test " + strings.Join(names, ", ")
	switch len(shards) {
	case 0:
	case 1:
		out += " (shard " + shards[0] + ")"
	default:
		out += " (shards " + strings.Join(shards, ", ") + ")"
	}
	return out
}

// relName is a plan's display name: test/plan when the summary covers
// several tests (not several shards of one).
func relName(s *results.Summary, r *results.Result) string {
	if severalTests(s) && !strings.HasPrefix(r.Plan, r.Test+"/") {
		return r.Test + "/" + r.Plan
	}
	return r.Plan
}

func severalTests(s *results.Summary) bool {
	for _, run := range s.Runs {
		if run.Test != s.Runs[0].Test {
			return true
		}
	}
	return false
}

func countRun(s *results.Summary, run *results.TestRun) int {
	n := 0
	for _, r := range s.Results {
		if run.Has(r) {
			n++
		}
	}
	return n
}

// group prints one finding group.
func (p *printer) group(s *results.Summary, g *Group) {
	f := g.First
	sev := p.paint(severityColor(f.Severity), fmt.Sprintf("%-6s", strings.ToUpper(f.Severity.String())))
	subject := f.Key
	if subject == "" {
		subject = f.Invariant
	}
	if f.Path != "" {
		subject += " " + f.Path
	}
	head := string(sev) + " " + string(p.paint(ansiBold, string(f.Check)))
	if subject != "" {
		head += "  " + subject
	}
	p.printf("\n%s\n", head)
	p.printf("       %s\n", f.Message)
	if f.Check == oracle.CheckField {
		p.printf("       reference: %s\n       test run:  %s\n", ShowRaw(f.Reference), ShowRaw(f.Value))
	}
	if f.Src != "" {
		p.printf("       at %s\n", f.Src)
	}
	var names []string
	for _, r := range g.Plans {
		n := relName(s, r)
		if r.Pattern != "" {
			n += " (" + r.Pattern + ")"
		}
		names = append(names, n)
	}
	p.printf("       in %d %s: %s\n", len(g.Plans), plural(len(g.Plans), "plan", "plans"), strings.Join(names, ", "))
	if f.Reproduce != "" {
		p.printf("       %s\n", p.paint(ansiDim, "reproduce: "+f.Reproduce))
	}
}

// transient says how many plans had differences from the reference that
// the controller repaired while they waited for convergence (not
// counted; their result.json lists them).
func (p *printer) transient(s *results.Summary) {
	plans, diffs := 0, 0
	for _, r := range s.Results {
		if len(r.Transient) > 0 {
			plans, diffs = plans+1, diffs+len(r.Transient)
		}
	}
	if plans > 0 {
		p.printf("\n%s %d %s repaired by the controller after the run settled, in %d %s (transient, not counted; see \"transient\" in result.json)\n",
			p.paint(ansiDim, "NOTE  "), diffs, plural(diffs, "difference", "differences"), plans, plural(plans, "plan", "plans"))
	}
}

// problems lists unconfirmed findings, errored plans, plans whose fault
// did not fire and plans whose release never came.
func (p *printer) problems(s *results.Summary) {
	for _, r := range s.Results {
		if len(r.Unconfirmed) > 0 {
			p.unconfirmed(s, r)
		}
		if r.Unreleased != nil {
			p.printf("\n%s %s: %s, the release never came: %s (the hold was lifted when the workload was over)\n",
				p.paint(ansiDim, "NOTE  "), relName(s, r), r.Status, r.Unreleased)
		}
		switch r.Status {
		case results.Errored:
			p.printf("\n%s %s: %s\n", p.paint(ansiRed, "ERROR "), relName(s, r), r.Error)
		case results.NotInjected:
			p.notInjected(s, r)
		}
	}
}

// notInjected prints a plan whose fault did not fire: which action and
// why, and what the oracle saw anyway.
func (p *printer) notInjected(s *results.Summary, r *results.Result) {
	p.printf("\n%s %s: not-injected, nothing was tested\n", p.paint(ansiYellow, "SKIP  "), relName(s, r))
	if r.NotFired != nil {
		p.printf("       %s\n", r.NotFired)
	}
	if len(r.Untested) > 0 {
		p.printf("       %d %s seen all the same, not counted:\n", len(r.Untested), plural(len(r.Untested), "finding", "findings"))
	}
	for _, f := range r.Untested {
		p.printf("       %s\n", f.Message)
	}
}

// unconfirmed prints the findings of a plan that its reruns did not find
// again.
func (p *printer) unconfirmed(s *results.Summary, r *results.Result) {
	var reruns []string
	for _, rr := range r.Reruns {
		reruns = append(reruns, string(rr.Status))
	}
	p.printf("\n%s %s: %d %s not found again by %d %s (%s); not counted\n", p.paint(ansiYellow, "FLAKY "), relName(s, r),
		len(r.Unconfirmed), plural(len(r.Unconfirmed), "finding", "findings"),
		len(r.Reruns), plural(len(r.Reruns), "rerun", "reruns"), strings.Join(reruns, ", "))
	for _, f := range r.Unconfirmed {
		p.printf("       %s\n", f.Message)
	}
	if f := r.Unconfirmed[0]; f.Reproduce != "" {
		p.printf("       %s\n", p.paint(ansiDim, "reproduce: "+f.Reproduce))
	}
}

// plans lists every plan with its status.
func (p *printer) plans(s *results.Summary) {
	p.printf("\n")
	for _, r := range s.Results {
		p.printf("  %-12s %s (%d findings, %.1fs)\n", r.Status, relName(s, r), len(r.Findings), r.Seconds)
	}
}

// ShowRaw renders a JSON value for a terminal: on one line, cut at 200
// bytes; absent for nil.
func ShowRaw(b json.RawMessage) string {
	if b == nil {
		return "absent"
	}
	s := string(b)
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// JSON writes the summary as indented JSON.
func JSON(w io.Writer, s *results.Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
