package ci

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rhysd/actionlint"

	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// workflowFile is the documented workflow, docs/ci.md's recipe.
const workflowFile = "sieve.yml"

// TestWorkflowRuns runs the workflow's jobs on this machine, one after the
// other, as GitHub would run them on its runners. Each run: step runs with
// bash in the job's own workspace, the matrix is cut to two shards, and
// copying directories emulates the artifact actions. It runs the fixed
// test of specs/datastore, one plan per shard, and checks that the
// shards split the plans of one recording and that `sieve report` in the
// last job reads both shards' results as one run.
//
// What it does not run:
//
//   - the steps named "Install sieve": the sieve built from this tree
//     stands in, first on PATH (installing sieve as a user would is
//     another test's);
//   - actions/checkout: the spec is read from this tree;
//   - actions/setup-go: the Go on PATH serves;
//   - actions/cache: every job shares this machine's cache directory,
//     which is what restoring a cache gives the next job.
func TestWorkflowRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("starts control planes and runs a controller four times (a minute or two); not in -short")
	}
	spec, err := filepath.Abs(filepath.Join("..", "..", "specs", "datastore", "datastore.sieve"))
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, map[string]string{
		"SIEVE_SPEC":      spec,
		"SIEVE_FLAGS":     "--test fixed",
		"SIEVE_RUN_FLAGS": "--max-plans 1",
	})
	start := time.Now()
	r.job("record", nil)
	r.job("shard", map[string]string{"shard": "1"})
	r.job("shard", map[string]string{"shard": "2"})
	r.job("report", nil)
	t.Logf("the workflow's jobs took %s", time.Since(start).Round(time.Second))

	for _, shard := range []string{"1", "2"} {
		out := r.output("shard-"+shard, "Run shard")
		if !strings.Contains(out, "reusing reference runs from") {
			t.Errorf("shard %s recorded its own reference runs instead of the record job's:\n%s", shard, out)
		}
		sum := filepath.Join(r.artifacts, "sieve-shard-"+shard, "summary.json")
		if b, err := os.ReadFile(sum); err != nil || !strings.Contains(string(b), `"shard": "`+shard+`/2"`) {
			t.Errorf("shard %s's uploaded results: %s: %v\n%s", shard, sum, err, b)
		}
	}
	out := r.output("report", "Merge the shards' results")
	if !strings.Contains(out, "test fixed (shards 1/2, 2/2): 2 plans: 0 failed, 2 passed") {
		t.Errorf("sieve report did not read the two shards as one run of two plans:\n%s", out)
	}
	junit, err := os.ReadFile(filepath.Join(r.artifacts, "sieve-report", "junit.xml"))
	if err != nil || !strings.Contains(string(junit), `name="fixed (shard 1/2)"`) || !strings.Contains(string(junit), `name="fixed (shard 2/2)"`) {
		t.Errorf("the report's JUnit file has no suite per shard: %v\n%s", err, junit)
	}
	if _, err := os.Stat(filepath.Join(r.artifacts, "sieve-report", "html", "index.html")); err != nil {
		t.Errorf("the report artefact has no HTML report: %v", err)
	}
}

// runner runs a workflow's jobs locally.
type runner struct {
	t         *testing.T
	wf        *actionlint.Workflow
	root      string            // the jobs' workspaces are below it
	artifacts string            // uploaded artifacts, one directory each
	path      string            // PATH, the sieve shim first
	env       map[string]string // the workflow's env, with the test's values
	outputs   map[string]string // each step's output, by "JOB/STEP NAME"
}

// newRunner parses the workflow and replaces the values of its env by
// set, each of which the workflow must declare.
func newRunner(t *testing.T, set map[string]string) *runner {
	src, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	wf, errs := actionlint.Parse(src)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", workflowFile, errs)
	}
	root := t.TempDir()
	r := &runner{t: t, wf: wf, root: root, artifacts: filepath.Join(root, "artifacts"),
		env: map[string]string{}, outputs: map[string]string{}}
	for _, v := range wf.Env.Vars {
		r.env[v.Name.Value] = v.Value.Value
	}
	for k, v := range set {
		if _, ok := r.env[k]; !ok {
			t.Fatalf("%s: no env %s", workflowFile, k)
		}
		r.env[k] = v
	}
	r.path = shim(t, root) + string(os.PathListSeparator) + os.Getenv("PATH")
	return r
}

// shim writes bin/sieve, which runs the sieve under test. A sieve from
// before the control plane became its own binary has no setup command:
// the shim turns `sieve setup` into a no-op for it, as its control plane
// is built in.
func shim(t *testing.T, root string) string {
	bin := filepath.Join(root, "bin")
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = setup ] && ! %[1]q setup --help >/dev/null 2>&1; then
	echo "sieve setup: this sieve has no setup command (its control plane is built in)" >&2
	exit 0
fi
exec %[1]q "$@"
`, embeddedtest.Binary(t))
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "sieve"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// jobRun is one run of a job: its matrix values and its steps' outputs.
type jobRun struct {
	name, ws string
	matrix   map[string]string
	env      map[string]string
	steps    map[string]map[string]string // outputs by step id
	failed   bool
}

// job runs the job id with the matrix values given (nil: no matrix);
// its strategy.job-total is the number of matrix values the test runs, 2.
func (r *runner) job(id string, matrix map[string]string) {
	r.t.Helper()
	j := r.wf.Jobs[id]
	if j == nil {
		r.t.Fatalf("%s: no job %s", workflowFile, id)
	}
	if j.If != nil && j.If.Value != "always()" {
		r.t.Fatalf("%s: job %s: if %q: the test knows only always()", workflowFile, id, j.If.Value)
	}
	jr := &jobRun{name: id, matrix: matrix, env: maps.Clone(r.env), steps: map[string]map[string]string{}}
	for _, k := range slices.Sorted(maps.Keys(matrix)) {
		if j.Strategy == nil || j.Strategy.Matrix == nil || j.Strategy.Matrix.Rows[k] == nil {
			r.t.Fatalf("%s: job %s has no matrix %s", workflowFile, id, k)
		}
		jr.name += "-" + matrix[k]
	}
	jr.ws = filepath.Join(r.root, jr.name)
	if err := os.MkdirAll(jr.ws, 0o755); err != nil {
		r.t.Fatal(err)
	}
	for _, s := range j.Steps {
		r.step(jr, s)
	}
	if jr.failed {
		r.t.Fatalf("job %s failed", jr.name)
	}
}

// step runs one step of a job.
func (r *runner) step(jr *jobRun, s *actionlint.Step) {
	r.t.Helper()
	switch {
	case s.If == nil && jr.failed:
		return
	case s.If != nil && s.If.Value != "always()":
		r.t.Fatalf("%s: step if %q: the test knows only always()", workflowFile, s.If.Value)
	}
	var err error
	switch e := s.Exec.(type) {
	case *actionlint.ExecRun:
		if s.Name != nil && s.Name.Value == "Install sieve" {
			return
		}
		err = r.run(jr, s, e)
	case *actionlint.ExecAction:
		err = r.action(jr, e)
	}
	if err != nil {
		r.t.Errorf("job %s, step %s: %v", jr.name, stepName(s), err)
		jr.failed = true
	}
}

func stepName(s *actionlint.Step) string {
	if s.Name != nil {
		return s.Name.Value
	}
	if e, ok := s.Exec.(*actionlint.ExecAction); ok {
		return e.Uses.Value
	}
	return "run"
}

// run runs a run: step with bash, as GitHub's runners do (bash -e -o
// pipefail), and keeps its output and its outputs.
func (r *runner) run(jr *jobRun, s *actionlint.Step, e *actionlint.ExecRun) error {
	if strings.Contains(e.Run.Value, "${{") {
		// Expressions in scripts are a script injection risk: scripts read env.
		return fmt.Errorf("the script has a ${{ }} expression: pass it through env")
	}
	env := maps.Clone(jr.env)
	if s.Env != nil {
		for _, v := range s.Env.Vars {
			val, err := r.expand(jr, v.Value.Value)
			if err != nil {
				return err
			}
			env[v.Name.Value] = val
		}
	}
	outFile := filepath.Join(jr.ws, ".github-output")
	os.Remove(outFile)
	cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", e.Run.Value)
	cmd.Dir = jr.ws
	cmd.Env = append(os.Environ(), "PATH="+r.path, "GITHUB_OUTPUT="+outFile, "GITHUB_WORKSPACE="+jr.ws, "CI=true", "NO_COLOR=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	r.outputs[jr.name+"/"+stepName(s)] = string(out)
	if s.ID != nil {
		jr.steps[s.ID.Value] = readOutputs(outFile)
	}
	if err != nil {
		if strings.Contains(string(out), "embedded cluster:") {
			r.t.Skipf("the embedded control plane cannot start here:\n%s", out)
		}
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}

// readOutputs reads the NAME=VALUE lines a step wrote to $GITHUB_OUTPUT.
func readOutputs(file string) map[string]string {
	out := map[string]string{}
	b, _ := os.ReadFile(file)
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	return out
}

// output is the output of a job's step, by their names.
func (r *runner) output(job, step string) string {
	out, ok := r.outputs[job+"/"+step]
	if !ok {
		r.t.Errorf("job %s ran no step %q", job, step)
	}
	return out
}

// action runs a uses: step: the artifact actions copy directories
// (os.CopyFS, which refuses to overwrite: an artifact name uploaded twice
// fails, as it does with upload-artifact@v4), the others have nothing to
// do here (see TestWorkflowRuns).
func (r *runner) action(jr *jobRun, e *actionlint.ExecAction) error {
	with := map[string]string{}
	for k, in := range e.Inputs {
		v, err := r.expand(jr, in.Value.Value)
		if err != nil {
			return err
		}
		with[k] = v
	}
	uses, _, _ := strings.Cut(e.Uses.Value, "@")
	switch uses {
	case "actions/upload-artifact":
		return os.CopyFS(filepath.Join(r.artifacts, with["name"]), os.DirFS(filepath.Join(jr.ws, with["path"])))
	case "actions/download-artifact":
		return r.download(jr, with["pattern"], with["path"])
	case "actions/checkout", "actions/setup-go", "actions/cache", "actions/cache/restore":
		return nil
	}
	return fmt.Errorf("the test does not know the action %s", uses)
}

// download copies the artifacts whose names match pattern into the
// workspace's dir, one directory each, as download-artifact does.
func (r *runner) download(jr *jobRun, pattern, dir string) error {
	names, err := filepath.Glob(filepath.Join(r.artifacts, pattern))
	if err != nil || len(names) == 0 {
		return fmt.Errorf("no artifact matches %q (%v)", pattern, err)
	}
	for _, n := range names {
		if err := os.CopyFS(filepath.Join(jr.ws, dir, filepath.Base(n)), os.DirFS(n)); err != nil {
			return err
		}
	}
	return nil
}

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand evaluates the ${{ }} expressions of s that the workflow uses in
// env and with: (see value).
func (r *runner) expand(jr *jobRun, s string) (string, error) {
	var err error
	out := expression.ReplaceAllStringFunc(s, func(m string) string {
		v, e := jr.value(expression.FindStringSubmatch(m)[1])
		if e != nil && err == nil {
			err = e
		}
		return v
	})
	return out, err
}

// value is the value of one expression: a context value the test knows,
// or hashFiles(...), whose value only keys caches, which the test does
// not emulate.
func (jr *jobRun) value(x string) (string, error) {
	ctx, name, _ := strings.Cut(x, ".")
	switch {
	case ctx == "matrix" && jr.matrix[name] != "":
		return jr.matrix[name], nil
	case x == "strategy.job-total":
		return "2", nil
	case ctx == "env" && jr.env[name] != "":
		return jr.env[name], nil
	case x == "runner.os":
		return "Linux", nil
	case ctx == "github":
		return "local-" + name, nil
	case ctx == "steps":
		id, out, _ := strings.Cut(name, ".outputs.")
		return jr.steps[id][out], nil
	case strings.HasPrefix(x, "hashFiles("):
		return "hash", nil
	}
	return "", fmt.Errorf("the test does not know the expression %q", x)
}
