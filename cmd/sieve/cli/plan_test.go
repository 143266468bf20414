package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/load"
	"github.com/sievetool/sieve/lang/syntax"
)

const (
	planSpec  = "testdata/plan/ds.sieve"
	planTrace = "../../../interp/analysis/plan/testdata/datastore.trace.jsonl"
)

// TestPlanCmd runs `sieve plan` on the plan package's fixture trace: the
// counts table per policy and pattern, the names, the files with --out,
// JSON output, and --pattern.
func TestPlanCmd(t *testing.T) {
	var out, errb bytes.Buffer
	dir := filepath.Join(t.TempDir(), "plans")
	if code := run([]string{"plan", planSpec, "--trace", planTrace, "--out", dir}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	text := out.String()
	i := strings.LastIndex(text, "\n\n") // the table, a blank line, the names
	if i < 0 {
		t.Fatalf("no blank line between the table and the names:\n%s", text)
	}
	table, names := text[:i], strings.Fields(text[i:])
	for _, want := range []string{"\nbaseline ", "capped", "intermediate", "unobserved", "stale", "crash_on_pvc_delete", "\nfinal "} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	for _, line := range strings.Split(table, "\n") {
		if len(line) > plan.CountsWidth {
			t.Errorf("table line wider than %d columns: %q", plan.CountsWidth, line)
		}
	}
	if len(names) == 0 || !strings.HasPrefix(names[len(names)-1], "user-crash-on-pvc-delete-") {
		t.Errorf("names: %v, want the user plan last", names)
	}
	checkPruned(t, filepath.Join(dir, "pruned.jsonl"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != len(names)+1 { // + counts.json
		t.Errorf("%d files in --out for %d names:\n%s", len(files), len(names), text)
	}
	out.Reset()
	if code := run([]string{"plan", planSpec, "--trace", planTrace, "--output", "json", "--pattern", "stale"}, &out, &errb); code != exitOK {
		t.Fatalf("json: exit %d; stderr:\n%s", code, errb.String())
	}
	var set struct {
		Plans  []struct{ Pattern string }
		Counts []struct{ Pattern string }
	}
	if err := json.Unmarshal(out.Bytes(), &set); err != nil || len(set.Plans) == 0 || len(set.Counts) != 1 {
		t.Fatalf("json output: %v, %d plans, %d count rows", err, len(set.Plans), len(set.Counts))
	}
	for _, p := range set.Plans {
		if p.Pattern != "stale" {
			t.Errorf("--pattern stale gave a %s plan", p.Pattern)
		}
	}
}

// checkPruned reads the candidates `sieve plan --out` kept: every one
// either made a plan or names the pass that dropped it, with evidence.
func checkPruned(t *testing.T, file string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cands, err := plan.ReadCandidates(f)
	if err != nil || len(cands) == 0 {
		t.Fatalf("%s: %v, %d candidates", file, err, len(cands))
	}
	for _, c := range cands {
		if (c.Plan == "") == (c.Pass == "") || c.Pass != "" && c.Evidence == "" {
			t.Errorf("candidate %+v: want a plan, or a pass and its evidence", c)
		}
	}
}

// TestPlanExplain checks that --explain lists every candidate with its
// fate, the dropped ones naming trace entries.
func TestPlanExplain(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"plan", planSpec, "--trace", planTrace, "--explain", "--pattern", "stale"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"dropped by causality: #17 create datastorecluster.example.com/default/ds came before the window of #74", "kept as stale-datastorecluster.example.com-default-ds-update-"} {
		if !strings.Contains(text, want) {
			t.Errorf("--explain output lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "faults.stale stale: "); n != 30 {
		t.Errorf("--explain listed %d candidates, want the 30 of the baseline:\n%s", n, text)
	}
}

// TestPlanOtherRuns: more --trace files are the test's other reference
// runs, the evidence that drops the statefulset fixture's false alarm.
func TestPlanOtherRuns(t *testing.T) {
	spec := "../../../specs/statefulset/statefulset.sieve"
	first := "../../../interp/analysis/plan/testdata/statefulset-2.trace.jsonl"
	other := "../../../interp/analysis/plan/testdata/statefulset-3.trace.jsonl"
	pair := "stale view at #345 update statefulset/default/web, paired with #358 delete pod/default/web-4: "
	for _, tc := range []struct {
		traces []string
		want   string
	}{
		{[]string{first}, pair + "kept as "},
		{[]string{first, other}, pair + "dropped by causality: reference run 3 made the same delete (#355)"},
	} {
		args := []string{"plan", spec, "--explain", "--pattern", "stale"}
		for _, tr := range tc.traces {
			args = append(args, "--trace", tr)
		}
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitOK {
			t.Fatalf("%v: exit %d; stderr:\n%s", tc.traces, code, errb.String())
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%d trace(s): --explain lacks %q:\n%s", len(tc.traces), tc.want, out.String())
		}
	}
}

// TestPlanSiblingTrace: a reference trace of test buggy serves its sibling
// other, which runs the same controller and workload (the header's
// workload hash says so), and is refused, saying why, once the workload it
// names is another.
func TestPlanSiblingTrace(t *testing.T) {
	spec, ds := load.Load(planSpec, load.Options{})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	buggy, d := load.SelectTest(spec, "buggy")
	if d != nil {
		t.Fatal(d)
	}
	hash, err := pipeline.WorkloadHash(buggy, filepath.Dir(planSpec))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		workload string
		code     int
		want     string
	}{
		{hash, exitOK, "\nfinal"},
		{"0123456789abcdef0123456789abcdef", exitUsage, "a reference run of test buggy, whose controller or workloads differ from those of other (record other's reference runs, or pass --test buggy)"},
	} {
		file := withWorkload(t, planTrace, tc.workload)
		var out, errb bytes.Buffer
		code := run([]string{"plan", planSpec, "--trace", file, "--test", "other"}, &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
			t.Errorf("workload %s: exit %d (want %d), output lacks %q:\n%s%s", tc.workload, code, tc.code, tc.want, out.String(), errb.String())
		}
	}
}

// withWorkload copies a trace file into a temporary directory, its header
// naming workload.
func withWorkload(t *testing.T, file, workload string) string {
	tr, err := trace.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	tr.Header.Workload = workload
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	h, err := json.Marshal(tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := bytes.Cut(b, []byte("\n"))
	out := filepath.Join(t.TempDir(), filepath.Base(file))
	if err := os.WriteFile(out, append(append(h, '\n'), rest...), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPlanSieve prints the stale plans as .sieve declarations: each one
// freezes its view at the event it was made from and lifts it on quiet,
// and the output parses as .sieve.
func TestPlanSieve(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"plan", planSpec, "--trace", planTrace, "--sieve", "-q", "--pattern", "stale"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"\nplan stale_datastorecluster_example_com_default_ds_update_", " at on update datastorecluster.example.com/default/ds changing ", "quiet for 1s after reading datastorecluster.example.com/default/ds | after 5s: stale off "} {
		if !strings.Contains(text, want) {
			t.Errorf("--sieve output lacks %q:\n%s", want, text)
		}
	}
	if _, ds := syntax.Parse("plans.sieve", out.Bytes()); len(ds) > 0 {
		t.Errorf("--sieve output does not parse: %v\n%s", ds, text)
	}
}

// TestPlanSieveAPIError prints apierror plans as .sieve plans whose error
// action answers a write as it is sent: the command succeeds and the
// output parses.
func TestPlanSieveAPIError(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"plan", planSpec, "--trace", planTrace, "--pattern", "apierror", "--sieve", "-q"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"\nplan apierror_conflict_datastorecluster_example_com_default_ds_update_0ba7e8b2 {\n",
		"  after sending write create configmap/default/ds-config: error internal_error\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("--sieve output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "no .sieve form") {
		t.Errorf("--sieve output has a plan it cannot say:\n%s", text)
	}
	if _, ds := syntax.Parse("plans.sieve", out.Bytes()); len(ds) > 0 {
		t.Errorf("--sieve output does not parse: %v\n%s", ds, text)
	}
}

// TestPlanCmdErrors checks the usage errors.
func TestPlanCmdErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"plan", planSpec, "--backend", "nope"}, "unknown backend"},
		{[]string{"plan", planSpec, "--trace", planTrace, "--pattern", "sideways"}, "unknown pattern"},
		{[]string{"plan", planSpec, "--trace", "nope.jsonl"}, "nope.jsonl"},
		{[]string{"plan", planSpec, "--trace", planTrace, "--test", "buggyy"}, "no test named"},
		{[]string{"plan", planSpec, "--trace", planTrace, "--trace", "../../../interp/analysis/plan/testdata/statefulset.trace.jsonl"}, "a reference run of test scale, not of buggy"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", c.args, code, exitUsage)
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: stderr lacks %q:\n%s", c.args, c.want, errb.String())
		}
	}
	if _, err := os.Stat(planTrace); err != nil {
		t.Fatalf("fixture trace: %v", err)
	}
}
