package specs

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// e2eSpec is the spec the end-to-end test runs: volresize narrowed to the
// one plan that shows its bug (a crash right after the StatefulSet delete),
// so that a buggy/fixed pair takes about a minute, not ten.
const e2eSpec = "specs/testdata/volresize_e2e.sieve"

// finding is the part of a plan's result.json finding these tests look at.
type finding struct {
	Check string `json:"check"`
	Key   string `json:"key"`
	Path  string `json:"path"`
}

// unexpanded reports whether f is the volresize bug: a member's PVC still
// asks for its old size where the reference's was expanded.
func unexpanded(f finding) bool {
	return f.Check == "field" && strings.HasPrefix(f.Key, "persistentvolumeclaim/default/data-bc-") &&
		f.Path == "spec.resources.requests.storage"
}

// TestE2E runs `sieve run` on the embedded backend on the buggy and fixed
// tests of a spec: the buggy one must exit 1 with the bug's finding, the
// fixed one must exit 0 with no finding at all.
func TestE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sieve end to end on an embedded control plane (about a minute per test); skipped in -short mode")
	}
	cases := []struct {
		test string
		exit int
		want func(finding) bool // a finding the run must report; nil: none may be reported
	}{
		{"buggy", 1, unexpanded},
		{"fixed", 0, nil},
	}
	sieve := buildSieve(t)
	for _, c := range cases {
		t.Run(c.test, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(sieve, "run", e2eSpec, "--test", c.test, "--parallel", "1", "--no-cache", "--no-color", "-o", out)
			cmd.Dir = ".."
			log, err := cmd.CombinedOutput()
			code := exitCode(err)
			if code == 3 && strings.Contains(string(log), "embedded cluster:") {
				t.Skipf("the embedded control plane cannot start here:\n%s", log)
			}
			if code != c.exit {
				t.Fatalf("sieve run exited %d, want %d (%v)\n%s", code, c.exit, err, log)
			}
			fs, reruns := findings(t, out)
			if c.want == nil && len(fs) > 0 {
				t.Errorf("fixed run reported %d findings, want none: %+v\n%s", len(fs), fs, log)
			}
			if c.want != nil && !anyOf(fs, c.want) {
				t.Errorf("no finding of the bug's shape among %+v\n%s", fs, log)
			}
			if c.want != nil && !strings.Contains(strings.Join(reruns, " "), "failed") {
				t.Errorf("reruns %v: want the failed plan run again and failing again (findings are confirmed)", reruns)
			}
		})
	}
}

// buildSieve builds the sieve binary for the end-to-end tests.
func buildSieve(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sieve")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/sieve")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build sieve: %v\n%s", err, out)
	}
	return bin
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// findings returns every finding of every plan's result in the results
// directory dir (laid out for one test, or for several), and the status of
// every rerun made to confirm them.
func findings(t *testing.T, dir string) ([]finding, []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "plans", "*", "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "plans", "*", "result.json"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatalf("no plan results in %s", dir)
	}
	var out []finding
	var reruns []string
	for _, f := range files {
		var r struct {
			Findings []finding `json:"findings"`
			Reruns   []struct {
				Status string `json:"status"`
			} `json:"reruns"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, r.Findings...)
		for _, rr := range r.Reruns {
			reruns = append(reruns, rr.Status)
		}
	}
	return out, reruns
}

func anyOf(fs []finding, ok func(finding) bool) bool {
	for _, f := range fs {
		if ok(f) {
			return true
		}
	}
	return false
}
