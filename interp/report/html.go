package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// htmlRun is one plan that did not pass as the HTML page shows it.
type htmlRun struct {
	Result    *results.Result
	Name      string
	Timeline  template.HTML
	Reference template.HTML
	Note      string
}

// htmlPage is the data of the HTML template.
type htmlPage struct {
	Summary *results.Summary
	Title   string // the tests and shards, as the text headline names them
	Groups  []*Group
	Runs    []*htmlRun
}

// HTML writes DIR/index.html: the summary, every finding group, and for
// each plan that did not pass (failed, flaky, errored, not injected) a
// timeline of its run (with the reference run's
// beside it) and the table of differences against the reference. root is
// the results directory the traces are read from. The page is
// self-contained: no script, no remote asset.
func HTML(dir, root string, s *results.Summary) error {
	page := &htmlPage{Summary: s, Title: testNames(s), Groups: Groups(s)}
	for _, r := range s.Results {
		if r.Status != results.Passed {
			page.Runs = append(page.Runs, htmlRunOf(root, s, r))
		}
	}
	tmpl, err := template.New("report").Funcs(template.FuncMap{
		"raw":    func(b json.RawMessage) string { return showRawFull(b) },
		"sev":    func(s oracle.Severity) string { return s.String() },
		"anchor": func(r *results.Result) string { return "plan-" + results.SafeName(relName(s, r)) },
	}).Parse(htmlTemplate)
	if err != nil {
		return fmt.Errorf("report: html template: %w", err)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, page); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// htmlRunOf loads a plan's trace and its reference trace and draws them.
func htmlRunOf(root string, s *results.Summary, r *results.Result) *htmlRun {
	hr := &htmlRun{Result: r, Name: relName(s, r)}
	t, err := trace.Read(filepath.Join(root, filepath.FromSlash(r.Dir), results.TraceFile))
	if err != nil {
		hr.Note = fmt.Sprintf("no timeline: %v", err)
		return hr
	}
	var marks []int64
	for _, f := range slices.Concat(r.Findings, r.Unconfirmed, r.Untested) {
		if f.Seq > 0 {
			marks = append(marks, f.Seq)
		}
	}
	hr.Timeline = template.HTML(TimelineSVG(t, "timeline of plan "+hr.Name, marks, r.Timing))
	test := results.Layout{Root: filepath.Join(root, filepath.FromSlash(path.Dir(path.Dir(r.Dir))))}
	if ref, err := trace.Read(test.ReferenceTrace(1)); err == nil {
		hr.Reference = template.HTML(TimelineSVG(ref, "timeline of reference run 1", nil, referenceTiming(s, r)))
	}
	return hr
}

// showRawFull renders a JSON value for the diff table; "absent" for nil.
func showRawFull(b json.RawMessage) string {
	if b == nil {
		return "absent"
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(b)
	}
	return string(out)
}

const htmlTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sieve report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1200px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
.sev-high { color: #b71c1c; font-weight: bold; } .sev-medium { color: #e65100; } .sev-low { color: #00838f; }
.status-failed { color: #b71c1c; font-weight: bold; } .status-passed { color: #2e7d32; }
.status-not-injected, .status-flaky { color: #e65100; } .status-error { color: #6a1b9a; font-weight: bold; }
pre { margin: 0; white-space: pre-wrap; font-size: 0.85em; }
code { background: #f5f5f5; padding: 1px 4px; }
.totals span { margin-right: 1.5em; }
details { margin: 0.5em 0; }
</style>
</head>
<body>
<h1>sieve report{{if .Summary.Runs}} — {{.Title}}{{end}}</h1>
<p class="totals">
<span>{{.Summary.Totals.Plans}} plans</span>
<span class="status-failed">{{.Summary.Totals.Failed}} failed</span>
<span class="status-passed">{{.Summary.Totals.Passed}} passed</span>
{{if .Summary.Totals.Flaky}}<span class="status-flaky">{{.Summary.Totals.Flaky}} flaky</span>
{{end}}<span class="status-not-injected">{{.Summary.Totals.NotInjected}} not injected</span>
<span class="status-error">{{.Summary.Totals.Errors}} {{if eq .Summary.Totals.Errors 1}}error{{else}}errors{{end}}</span>
<span>{{len .Groups}} distinct findings</span>
</p>

<h2>Findings</h2>
{{if .Groups}}<table id="findings">
<tr><th>severity</th><th>check</th><th>object / invariant</th><th>what</th><th>plans</th></tr>
{{range .Groups}}<tr class="finding">
<td class="sev-{{sev .First.Severity}}">{{sev .First.Severity}}</td>
<td>{{.First.Check}}</td>
<td>{{if .First.Key}}<code>{{.First.Key}}</code>{{else}}{{.First.Invariant}}{{end}}{{if .First.Path}}<br><code>{{.First.Path}}</code>{{end}}</td>
<td>{{.First.Message}}</td>
<td>{{range .Plans}}<a href="#{{anchor .}}">{{.Plan}}</a> {{end}}</td>
</tr>
{{end}}</table>{{else}}<p id="findings">No findings.</p>{{end}}

<h2>Plans</h2>
<table id="plans">
<tr><th>plan</th><th>pattern</th><th>status</th><th>findings</th><th>seconds</th></tr>
{{range .Summary.Results}}<tr><td>{{.Plan}}</td><td>{{.Pattern}}</td><td class="status-{{.Status}}">{{.Status}}</td><td>{{len .Findings}}</td><td>{{printf "%.1f" .Seconds}}</td></tr>
{{end}}</table>

{{range .Runs}}<section class="run" id="{{anchor .Result}}">
<h2>Plan {{.Name}} <span class="status-{{.Result.Status}}">{{.Result.Status}}</span></h2>
{{if .Result.Pattern}}<p>Pattern: {{.Result.Pattern}}</p>{{end}}
{{if .Result.Error}}<p class="status-error">Error: {{.Result.Error}}</p>{{end}}
{{with .Result.Unreleased}}<p class="unreleased">The release never came: {{.}}; the hold was lifted when the workload was over.</p>{{end}}
{{if eq .Result.Status "not-injected"}}<p class="not-fired status-not-injected">Not injected, nothing was tested: {{with .Result.NotFired}}{{.}}{{else}}an action of the plan never fired{{end}}.</p>{{end}}
{{with .Result.Findings}}{{with index . 0}}{{if .Reproduce}}<p>Reproduce: <code>{{.Reproduce}}</code></p>{{end}}{{end}}{{end}}
{{if .Timeline}}<h3>Timeline of the test run</h3>
<p>Grey bars: workload steps (red: failed; indigo: an explored operation, purple: one the API server refused). Ticks: controller writes (green create, blue update/patch, red delete), cluster events and deliveries. Dots: controller start, kill, crash. Red dashed line: the fault. Orange lines: where a finding happened.</p>
{{.Timeline}}
{{if .Reference}}<details><summary>Timeline of the reference run</summary>{{.Reference}}</details>{{end}}
{{else}}<p>{{.Note}}</p>{{end}}
{{if ne .Result.Status "not-injected"}}<h3>Differences against the reference</h3>
{{template "diffs" .Result.Findings}}{{end}}
{{with .Result.Unconfirmed}}<h3>Not found again by the reruns (not counted)</h3>
{{template "diffs" .}}{{end}}
{{with .Result.Untested}}<h3>Seen in a run that tested nothing (not counted)</h3>
{{template "diffs" .}}{{end}}
{{with .Result.Reruns}}<p>Reruns: {{range .}}<code>{{.Dir}}</code> {{.Status}} ({{printf "%.1f" .Seconds}}s) {{end}}</p>{{end}}
</section>
{{end}}
</body>
</html>
{{define "diffs"}}<table class="diff">
<tr><th>severity</th><th>check</th><th>object</th><th>path</th><th>reference</th><th>test run</th><th>message</th></tr>
{{range .}}<tr class="finding">
<td class="sev-{{sev .Severity}}">{{sev .Severity}}</td><td>{{.Check}}</td>
<td>{{if .Key}}<code>{{.Key}}</code>{{else}}{{.Invariant}}{{end}}</td><td>{{if .Path}}<code>{{.Path}}</code>{{end}}</td>
<td>{{if .RefCounts}}created {{.RefCounts.Created}}, deleted {{.RefCounts.Deleted}}{{else if or .Reference .Value}}<pre>{{raw .Reference}}</pre>{{end}}</td>
<td>{{if .TestCounts}}created {{.TestCounts.Created}}, deleted {{.TestCounts.Deleted}}{{else if or .Reference .Value}}<pre>{{raw .Value}}</pre>{{end}}</td>
<td>{{.Message}}</td>
</tr>
{{end}}</table>{{end}}
`

// referenceTiming is the timing of reference run 1 of r's test, if its
// summary.json has it.
func referenceTiming(s *results.Summary, r *results.Result) results.Timing {
	for _, run := range s.Runs {
		if run.Has(r) && len(run.ReferenceRuns) > 0 {
			return run.ReferenceRuns[0]
		}
	}
	return results.Timing{}
}
