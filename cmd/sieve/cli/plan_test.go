package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	planSpec  = "testdata/plan/ds.sieve"
	planTrace = "../../../interp/plan/testdata/datastore.trace.jsonl"
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
	for _, want := range []string{"baseline", "capped  intermediate", "capped    unobserved", "stale", "crash_on_pvc_delete", "user-crash-on-pvc-delete-"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	names := strings.Count(text, "\n") - strings.Count(text, "baseline") - 5 // table: header + 4 rows, blank line
	if len(files) != names+1 {                                               // + counts.json
		t.Errorf("%d files in --out for %d names:\n%s", len(files), names, text)
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
