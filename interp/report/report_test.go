package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/results"
)

const fixture = "testdata/results"

// TestRender holds the text (plain and coloured), JSON and JUnit renderings
// of the fixture to goldens in testdata/out.
func TestRender(t *testing.T) {
	s, err := results.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Totals; got.Plans != 8 || got.Failed != 3 || got.Flaky != 1 || got.Passed != 2 || got.NotInjected != 1 || got.Errors != 1 {
		t.Errorf("totals: %+v", got)
	}
	if s.ExitCode() != 1 {
		t.Errorf("exit code %d, want 1", s.ExitCode())
	}
	renders := map[string]func(*bytes.Buffer) error{
		"summary.txt":       func(b *bytes.Buffer) error { return Text(b, s, TextOptions{Verbose: true}) },
		"summary-color.txt": func(b *bytes.Buffer) error { return Text(b, s, TextOptions{Color: true}) },
		"summary.json":      func(b *bytes.Buffer) error { return JSON(b, s) },
		"junit.xml":         func(b *bytes.Buffer) error { return JUnit(b, s) },
	}
	for name, render := range renders {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden.File(t, filepath.Join("testdata", "out", name), b.Bytes())
	}
	plain, _ := os.ReadFile("testdata/out/summary.txt")
	if bytes.Contains(plain, []byte("\x1b[")) {
		t.Error("plain summary has colour codes")
	}
	colored, _ := os.ReadFile("testdata/out/summary-color.txt")
	if !bytes.Contains(colored, []byte("\x1b[31m")) {
		t.Error("coloured summary has no red")
	}
}

// TestTextOrder checks that the most severe group comes first, and among
// groups of one severity, the checks in their order (a crash loop first).
func TestTextOrder(t *testing.T) {
	s, err := results.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	gs := Groups(s)
	for i := 1; i < len(gs); i++ {
		if gs[i].First.Severity > gs[i-1].First.Severity {
			t.Errorf("group %d (%s) is more severe than group %d", i, gs[i].First.Severity, i-1)
		}
	}
	if len(gs) < 2 || gs[0].First.Check != oracle.CheckCrashLoop || gs[1].First.Check != oracle.CheckMissing || len(gs[1].Plans) != 2 {
		t.Errorf("want the crash loop first, then the missing PVC, seen in two plans; got %+v", gs)
	}
}

// TestJUnitSchema validates the JUnit output against testdata/junit.xsd
// with xmllint (Debian: libxml2-utils), and checks that xmllint rejects a
// broken document, so the check can fail.
func TestJUnitSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install -y libxml2-utils): cannot validate against the XSD")
	}
	s, err := results.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := JUnit(&b, s); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit.xsd", out).CombinedOutput(); err != nil {
		t.Errorf("JUnit output does not validate: %v\n%s", err, msg)
	}
	if err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit.xsd", "testdata/junit-invalid.xml").Run(); err == nil {
		t.Error("xmllint accepted testdata/junit-invalid.xml: the schema check cannot fail")
	}
	for _, want := range []string{`<skipped message="not-injected, nothing was tested`, `<failure message="2 findings`, `<error message="start controller`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JUnit output lacks %s", want)
		}
	}
}

// TestShardHeadline names the shard a run kept, from summary.json, and
// the shards of several jobs' results read together, each test once; in
// JUnit each job's run is a suite of its own plans.
func TestShardHeadline(t *testing.T) {
	root := t.TempDir()
	for i, part := range []string{"1/2", "2/2"} {
		l := results.Layout{Root: filepath.Join(root, fmt.Sprintf("job-%d", i+1))}
		if err := results.WriteRun(l, &results.TestRun{Test: "buggy", Shard: part, Planned: 1}); err != nil {
			t.Fatal(err)
		}
		if err := results.WriteResult(l, &results.Result{Test: "buggy", Plan: fmt.Sprintf("p%d", i), Status: results.Passed}); err != nil {
			t.Fatal(err)
		}
	}
	// render loads a results directory and renders it with write.
	render := func(dir string, write func(io.Writer, *results.Summary) error) string {
		t.Helper()
		s, err := results.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := write(&b, s); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	text := func(w io.Writer, s *results.Summary) error { return Text(w, s, TextOptions{}) }
	for dir, want := range map[string]string{
		filepath.Join(root, "job-1"): "test buggy (shard 1/2): 1 plan:",
		root:                         "test buggy (shards 1/2, 2/2): 2 plans:",
	} {
		if got := render(dir, text); !strings.HasPrefix(got, want) {
			t.Errorf("headline of %s: %s, want %s...", dir, got, want)
		}
	}
	// In JUnit, each job's run is a suite with its own plan.
	x := render(root, JUnit)
	for _, want := range []string{`<testsuite name="buggy (shard 1/2)" tests="1"`, `<testsuite name="buggy (shard 2/2)" tests="1"`} {
		if !strings.Contains(x, want) {
			t.Errorf("JUnit lacks %s:\n%s", want, x)
		}
	}
}

// TestNotInjected: the fixture's plan unobserved-2 never fired its first
// action (the hold), and the oracle found a difference in its run all
// the same. It is not-injected in result.json, the terminal summary, the
// JSON summary and JUnit (skipped), never failed; its finding is shown,
// not counted. (TestHTMLStructure checks the HTML page.)
func TestNotInjected(t *testing.T) {
	s, err := results.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var r *results.Result
	for _, x := range s.Results {
		if x.Plan == "unobserved-2" {
			r = x
		}
	}
	if r == nil {
		t.Fatal("no result for unobserved-2 in the fixture")
	}
	if r.Status != results.NotInjected || len(r.Findings) != 0 || len(r.Untested) != 1 || r.NotFired == nil || r.NotFired.Action != 1 {
		t.Fatalf("result: status %s, %d findings, %d untested, not fired %+v; want not-injected, 0, 1, action 1",
			r.Status, len(r.Findings), len(r.Untested), r.NotFired)
	}
	for _, g := range Groups(s) {
		for _, p := range g.Plans {
			if p == r {
				t.Errorf("finding group %s names the not-injected plan", g.First.Message)
			}
		}
	}
	why := "action 1 of 2 (hold pod/default/web-x7k2p) never fired: the test run never met its trigger: on update pod/default/web-x7k2p"
	var text, js, junit bytes.Buffer
	if err := Text(&text, s, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, s); err != nil {
		t.Fatal(err)
	}
	if err := JUnit(&junit, s); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{
		text.String():  {"1 not injected", "SKIP   unobserved-2: not-injected, nothing was tested\n       " + why + "\n", "1 finding seen all the same, not counted"},
		js.String():    {`"plan": "unobserved-2",` + "\n" + `      "pattern": "unobserved",` + "\n" + `      "dir": "plans/unobserved-2",` + "\n" + `      "status": "not-injected",`, `"notInjected": 1`},
		junit.String(): {`<testcase name="unobserved-2" classname="sieve.buggy.unobserved" time="13.000">` + "\n" + `      <skipped message="not-injected, nothing was tested: ` + why + `">`},
	} {
		for _, w := range want {
			if !strings.Contains(name, w) {
				t.Errorf("output lacks %q:\n%s", w, name)
			}
		}
	}
	// Its finding alone does not make findings: exit 0 without the others.
	only := &results.Summary{Results: []*results.Result{r}}
	only.Totals = results.Count(only.Results)
	if only.Totals.Findings != 0 || only.ExitCode() != 0 {
		t.Errorf("a not-injected plan alone: %d findings, exit %d; want 0, 0", only.Totals.Findings, only.ExitCode())
	}
}

// TestTextEscapes: a finding's message and values (from the cluster) and
// a plan's error (the end of a controller's log) print their control
// characters escaped, on a terminal as elsewhere; sieve's colours stay.
func TestTextEscapes(t *testing.T) {
	s, err := results.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	const title, erase = "\x1b]0;owned\x07", "\x1b[2K\r"
	for _, r := range s.Results {
		for _, f := range r.Findings {
			f.Message += " " + title
			f.Value = []byte(`"\u009b2J` + "\u009b" + `"`)
		}
		if r.Status == results.Errored {
			r.Error += "\nend of its log:\n  " + erase + "panic: boom"
		}
	}
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := Text(&b, s, TextOptions{Color: color}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, raw := range []string{"\x1b]", "\x1b[2K", "\r", "\u009b", "\x07"} {
			if strings.Contains(out, raw) {
				t.Errorf("color %v: the summary prints %q raw", color, raw)
			}
		}
		for _, want := range []string{`\x1b]0;owned\x07`, `\x1b[2K\x0dpanic: boom`, `\u009b`} {
			if !strings.Contains(out, want) {
				t.Errorf("color %v: the summary lacks %s:\n%s", color, want, out)
			}
		}
		if color != strings.Contains(out, "\x1b[31m") {
			t.Errorf("color %v: red %v", color, !color)
		}
	}
}

// TestUnreleasedNote: a plan whose hold fired and whose release never
// came keeps its verdict, and the summary says which release never came.
func TestUnreleasedNote(t *testing.T) {
	r := &results.Result{Test: "buggy", Plan: "unobserved-1", Status: results.Failed, Findings: []*oracle.Finding{{Check: oracle.CheckMissing, Key: "pod/default/a", Message: "pod/default/a is missing"}},
		Unreleased: &results.NotFired{Action: 2, Of: 2, What: "release pod/default/a", Trigger: "on delete pod/default/a", After: 7}}
	s := &results.Summary{Results: []*results.Result{r}}
	s.Totals = results.Count(s.Results)
	var text bytes.Buffer
	if err := Text(&text, s, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "NOTE   unobserved-1: failed, the release never came: action 2 of 2 (release pod/default/a) never fired: after action 1 fired (trace entry 7), " +
		"the test run never met its trigger: on delete pod/default/a (the hold was lifted when the workload was over)\n"
	if !strings.Contains(text.String(), want) || s.Totals.Failed != 1 || s.Totals.NotInjected != 0 {
		t.Errorf("failed %d, not injected %d; summary lacks %q:\n%s", s.Totals.Failed, s.Totals.NotInjected, want, text.String())
	}
	dir := t.TempDir()
	if err := HTML(dir, dir, s); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `<p class="unreleased">The release never came: action 2 of 2`; !strings.Contains(string(page), want) {
		t.Errorf("index.html lacks %s", want)
	}
}

// TestExploreChecksCounted: the two results of an explored workload are
// counted among the plans, and the headline says how many of them are
// its checks rather than fault plans, and what became of the operations
// (summary.json's explored counts).
func TestExploreChecksCounted(t *testing.T) {
	s := &results.Summary{Runs: []*results.TestRun{{Test: "buggy", Explored: &results.ExploredCounts{Generated: 5, Refused: 1, Run: 4, Merged: 2}}}, Results: []*results.Result{
		{Test: "buggy", Plan: "explored", Pattern: results.ExplorePattern, Status: results.Passed},
		{Test: "buggy", Plan: "explored-direct", Pattern: results.ExplorePattern, Status: results.Passed},
		{Test: "buggy", Plan: "intermediate-1", Pattern: "intermediate", Status: results.Passed},
	}}
	s.Totals = results.Count(s.Results)
	var text bytes.Buffer
	if err := Text(&text, s, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 plans (2 of them the explored workload's checks): 0 failed, 3 passed",
		"test buggy: explored: 5 operations generated, 1 refused, 4 run, 2 merged\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, text.String())
		}
	}
}
