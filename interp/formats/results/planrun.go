package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/input"
)

// PlanRun is what a results directory says about one of its plans: what
// sieve reproduce needs to run it again.
type PlanRun struct {
	// Layout is the test's results directory, ROOT of ROOT/plans/NAME.
	Layout Layout
	Run    *TestRun
	Plan   *planfile.Plan
	// Result is nil when the plan did not finish.
	Result *Result
}

// ReadPlanRun reads the plan directory ROOT/plans/NAME: the plan, its
// result and the run's summary, which must name the test and the spec;
// the directory must hold reference runs. Errors name the file at fault.
func ReadPlanRun(planDir string) (*PlanRun, error) {
	planDir = filepath.Clean(planDir)
	if filepath.Base(filepath.Dir(planDir)) != plansDir {
		return nil, fmt.Errorf("%s: not a plan directory (want RESULTS/%s/PLAN)", planDir, plansDir)
	}
	l := Layout{Root: filepath.Dir(filepath.Dir(planDir))}
	o := &PlanRun{Layout: l, Run: &TestRun{}}
	if err := readFile(l.Summary(), o.Run); err != nil {
		return nil, err
	}
	if o.Run.Test == "" || o.Run.Spec == "" {
		return nil, fmt.Errorf("%s: names no test or spec", l.Summary())
	}
	p, err := planfile.Read(filepath.Join(planDir, PlanFile))
	if err != nil {
		return nil, explored(planDir, err)
	}
	o.Plan = p
	if l.References() == 0 {
		return nil, fmt.Errorf("%s: no reference runs (%s/run-1/%s)", l.Root, referenceDir, TraceFile)
	}
	r := &Result{}
	err = readFile(filepath.Join(planDir, ResultFile), r)
	switch {
	case err == nil:
		o.Result = r
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	return o, nil
}

// explored is the error of reading the plan of planDir, err, unless the
// directory is an explore result's (explored.json, no plan.json): then it
// says so and what runs it again.
func explored(planDir string, err error) error {
	e := &Explored{}
	if !errors.Is(err, fs.ErrNotExist) || readFile(filepath.Join(planDir, ExploredFile), e) != nil || e.Rerun == "" {
		return err
	}
	return fmt.Errorf("%s: the result of an explored workload, which is no plan (%s runs it again)", planDir, e.Rerun)
}

// readFile reads a JSON file of the results directory; its errors name
// the file and carry no package prefix (readJSON's do), for messages
// about a directory the user named.
func readFile(path string, v any) error {
	b, err := input.ReadFile(path, input.ResultLimit)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, input.JSONError(b, err))
	}
	return nil
}
