package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/ir"
)

// File names inside a results directory (see docs/results.md).
const (
	SummaryFile   = "summary.json"
	LearnedFile   = "learned.sieve"
	TraceFile     = "trace.jsonl"
	ControllerLog = "controller.log"
	PlanFile      = "plan.json"
	ResultFile    = "result.json"
	PrunedFile    = "pruned.jsonl"
	ClientLog     = "client.log"

	referenceDir  = "reference"
	plansDir      = "plans"
	reproduceDir  = "reproduce"
	referencesDir = "references"
	shardPrefix   = "shard-"
	suffixDir     = "suffix"
)

// Layout names the files of one test's results directory.
type Layout struct {
	Root string
}

// Summary is ROOT/summary.json.
func (l Layout) Summary() string { return filepath.Join(l.Root, SummaryFile) }

// Client is ROOT/client.log, the log lines of the Kubernetes client
// libraries in sieve's own process (client-go's watches of the cluster).
func (l Layout) Client() string { return filepath.Join(l.Root, ClientLog) }

// OpenClient opens ROOT/client.log for appending, creating it, and
// refuses a link there.
func (l Layout) OpenClient() (*os.File, error) {
	f, err := nofollow.Append(l.Client())
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return f, nil
}

// CampaignRefs is ROOT/references, where sieve run --on kubernetes keeps
// the campaign's reference runs (a results directory of their own) and
// sieve collect pulls them.
func (l Layout) CampaignRefs() string { return filepath.Join(l.Root, referencesDir) }

// ShardDir is ROOT/shard-I, where a campaign's shard I's results
// directory is collected (I from 1).
func (l Layout) ShardDir(shard int) string {
	return filepath.Join(l.Root, shardPrefix+strconv.Itoa(shard))
}

// Learned is ROOT/learned.sieve, the masks learned from the reference runs.
func (l Layout) Learned() string { return filepath.Join(l.Root, LearnedFile) }

// Pruned is ROOT/pruned.jsonl: every candidate plan of the run and what
// became of it (plan.WriteCandidates).
func (l Layout) Pruned() string { return filepath.Join(l.Root, PrunedFile) }

// ReferenceDir is ROOT/reference/run-N (N from 1).
func (l Layout) ReferenceDir(run int) string {
	return filepath.Join(l.Root, referenceDir, "run-"+strconv.Itoa(run))
}

// ReferenceTrace is ROOT/reference/run-N/trace.jsonl.
func (l Layout) ReferenceTrace(run int) string {
	return filepath.Join(l.ReferenceDir(run), TraceFile)
}

// ReferenceTraces are the trace files of reference runs 1 to n.
func (l Layout) ReferenceTraces(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = l.ReferenceTrace(i + 1)
	}
	return out
}

// References is how many reference runs (reference/run-1, run-2, ...,
// each with its trace) the directory holds.
func (l Layout) References() int {
	n := 0
	for {
		if _, err := os.Stat(l.ReferenceTrace(n + 1)); err != nil {
			return n
		}
		n++
	}
}

// Suffix is ROOT/suffix/after-K, a layout of its own for the runs that
// start from the checkpoint after explored operation K (sieve run
// --reuse-prefix): its suffix references (ReferenceDir), learned masks
// (Learned), candidates (Pruned) and the replays of the prefix that took
// the checkpoint (PrefixDir).
func (l Layout) Suffix(k int) Layout {
	return Layout{Root: filepath.Join(l.Root, suffixDir, "after-"+strconv.Itoa(k))}
}

// PrefixDir is ROOT/prefix-N (N from 1), the Nth replay of the prefix in a
// Suffix layout.
func (l Layout) PrefixDir(n int) string {
	return filepath.Join(l.Root, "prefix-"+strconv.Itoa(n))
}

// PlanDir is ROOT/plans/NAME, with NAME the plan name made safe for a file
// name.
func (l Layout) PlanDir(plan string) string {
	return filepath.Join(l.Root, plansDir, SafeName(plan))
}

// Rerun is ROOT/plans/NAME/rerun-N (N from 1), where a failed plan runs
// again to confirm its findings, and the same relative to the root
// (Result.Dir).
func (l Layout) Rerun(plan string, n int) (dir, rel string) {
	name := "rerun-" + strconv.Itoa(n)
	return filepath.Join(l.PlanDir(plan), name), PlanRel(plan) + "/" + name
}

// WritePlan writes ROOT/plans/NAME/plan.json, creating the directory,
// and returns the directory.
func (l Layout) WritePlan(p *planfile.Plan) (string, error) {
	dir := l.PlanDir(p.Name)
	if err := nofollow.MkdirAll(l.Root, dir); err != nil {
		return "", err
	}
	b, err := p.Marshal()
	if err != nil {
		return "", err
	}
	return dir, nofollow.WriteFile(filepath.Join(dir, PlanFile), b)
}

// Reproduce is the command that reruns plan from this results directory.
func (l Layout) Reproduce(plan string) string {
	return reproduceCommand(filepath.ToSlash(l.PlanDir(plan)))
}

// reproduceCommand is the command that reruns the plan whose results are
// in planDir.
func reproduceCommand(planDir string) string {
	return "sieve reproduce " + shellQuote(planDir)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// NewReproduceDir creates ROOT/reproduce/NAME-N, for a rerun of plan by
// sieve reproduce, with the first N not taken, and marks it as sieve's
// (Take).
func (l Layout) NewReproduceDir(plan string) (string, error) {
	base := filepath.Join(l.Root, reproduceDir, SafeName(plan))
	if err := nofollow.MkdirAll(l.Root, filepath.Dir(base)); err != nil {
		return "", err
	}
	for n := 1; ; n++ {
		dir := base + "-" + strconv.Itoa(n)
		err := os.Mkdir(dir, nofollow.DirMode)
		if err == nil {
			return dir, Layout{Root: dir}.Take(false)
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
}

// PlanRel is the plan directory relative to the root (Result.Dir).
func PlanRel(plan string) string { return "plans/" + SafeName(plan) }

// SafeName replaces every character outside [A-Za-z0-9._-] with "_" (and
// a leading "." too), so a plan name is one path element.
func SafeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c == '-' || c == '_' || (c == '.' && i > 0) || (c >= '0' && c <= '9') ||
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// WriteResult writes r to ROOT/plans/<plan>/result.json atomically (a
// temporary file renamed into place), creating the directory.
func WriteResult(l Layout, r *Result) error {
	r.Version = Version
	if r.Dir == "" {
		r.Dir = PlanRel(r.Plan)
	}
	return writeJSON(l, filepath.Join(l.Root, filepath.FromSlash(r.Dir), ResultFile), r)
}

// WriteRun writes ROOT/summary.json atomically.
func WriteRun(l Layout, run *TestRun) error {
	run.Version = Version
	return writeJSON(l, l.Summary(), run)
}

// writeJSON writes v as indented JSON through a temporary file (mode
// 0600, renamed onto path: a link there is replaced, not followed), at
// path under l's root.
func writeJSON(l Layout, path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := nofollow.MkdirAll(l.Root, filepath.Dir(path)); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// Load reads a results directory: either one test's directory (it holds
// summary.json or plans/) or a directory of such directories, one per
// test. Results come from the result.json files, so a run that was
// interrupted still shows every plan that finished.
func Load(root string) (*Summary, error) {
	dirs, err := testDirs(root)
	if err != nil {
		return nil, err
	}
	s := &Summary{Version: Version}
	for _, d := range dirs {
		if err := loadTest(root, d, s); err != nil {
			return nil, err
		}
	}
	s.Totals = Count(s.Results)
	return s, nil
}

// LoadAll reads several results directories as one run: those of the jobs
// of a run split with --shard, say. With one directory it is Load. With
// more, each run's and result's Dir starts with its directory as given
// (they are no longer relative to one root), so that the files they name
// are found from the working directory: pass "" as HTML's root.
func LoadAll(roots []string) (*Summary, error) {
	if len(roots) == 1 {
		return Load(roots[0])
	}
	all := &Summary{Version: Version}
	for _, root := range roots {
		s, err := Load(root)
		if err != nil {
			return nil, err
		}
		under := func(dir string) string { return path.Join(filepath.ToSlash(root), dir) }
		for _, run := range s.Runs {
			run.Dir = under(run.Dir)
		}
		for _, r := range s.Results {
			r.Dir = under(r.Dir)
			for _, rr := range r.Reruns {
				rr.Dir = under(rr.Dir)
			}
		}
		all.Runs = append(all.Runs, s.Runs...)
		all.Results = append(all.Results, s.Results...)
	}
	all.Totals = Count(all.Results)
	return all, nil
}

// testDirs finds the test results directories under root (relative).
func testDirs(root string) ([]string, error) {
	if isTestDir(root) {
		return []string{""}, nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && isTestDir(filepath.Join(root, e.Name())) {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("report: %s: not a results directory (no %s and no plans/)", root, SummaryFile)
	}
	return out, nil
}

func isTestDir(dir string) bool {
	for _, n := range []string{SummaryFile, plansDir} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}

// loadTest adds one test directory's run and results to s.
func loadTest(root, rel string, s *Summary) error {
	dir := filepath.Join(root, rel)
	run := &TestRun{}
	if err := readJSON(filepath.Join(dir, SummaryFile), run); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	run.Dir = filepath.ToSlash(rel)
	rs, err := loadResults(dir, rel)
	if err != nil {
		return err
	}
	if run.Test == "" && len(rs) > 0 {
		run.Test = rs[0].Test
	}
	s.Runs = append(s.Runs, run)
	s.Results = append(s.Results, rs...)
	return nil
}

// loadResults reads plans/*/result.json, sorted by plan name.
func loadResults(dir, rel string) ([]*Result, error) {
	files, err := filepath.Glob(filepath.Join(dir, plansDir, "*", ResultFile))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	sort.Strings(files)
	var out []*Result
	for _, f := range files {
		r := &Result{}
		if err := readJSON(f, r); err != nil {
			return nil, err
		}
		r.Dir = filepath.ToSlash(filepath.Join(rel, plansDir, filepath.Base(filepath.Dir(f))))
		reproduceFrom(filepath.Join(dir, plansDir, filepath.Base(filepath.Dir(f))), r)
		out = append(out, r)
	}
	return out, nil
}

// reproduceFrom points the reproduce commands of r's findings at the plan
// directory where it was found, which may differ from where the run wrote
// it (a results directory copied out of CI).
func reproduceFrom(planDir string, r *Result) {
	for _, f := range slices.Concat(r.Findings, r.Unconfirmed, r.Untested) {
		if f.Plan != "" {
			f.Reproduce = reproduceCommand(filepath.ToSlash(planDir))
		}
	}
}

func readJSON(path string, v any) error {
	b, err := input.ReadFile(path, input.ResultLimit)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("report: %s: %w", path, input.JSONError(b, err))
	}
	return nil
}

// WriteLearned writes ROOT/learned.sieve: the learned masks as a .sieve
// mask declaration named "learned", with comment lines on top.
func WriteLearned(l Layout, rules []*ir.MaskRule, comment []string) error {
	b, err := oracle.FormatMask("learned", comment, rules)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.MkdirAll(l.Root, nofollow.DirMode); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	tmp := l.Learned() + ".tmp"
	if err := nofollow.WriteFile(tmp, b); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.Rename(tmp, l.Learned()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
