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

// e2eEnv names the environment variable that turns on the end-to-end runs:
// each runs `sieve run` on the embedded backend for several minutes.
const e2eEnv = "SIEVE_E2E"

// finding is the part of a plan's result.json finding these tests look at.
type finding struct {
	Check string `json:"check"`
	Key   string `json:"key"`
	Path  string `json:"path"`
}

// TestE2E runs `sieve run` on the buggy and fixed tests of a spec and holds
// the buggy one to exit 1 with the bug's finding, the fixed one to exit 0.
func TestE2E(t *testing.T) {
	cases := []struct {
		spec, test string
		exit       int
		want       func(finding) bool // a finding the run must report; nil: none
	}{
		{"volresize/volresize.sieve", "buggy", 1, func(f finding) bool {
			return f.Check == "field" && strings.HasPrefix(f.Key, "persistentvolumeclaim/default/data-bc-") &&
				f.Path == "spec.resources.requests.storage"
		}},
		{"volresize/volresize.sieve", "fixed", 0, nil},
	}
	sieve := buildSieve(t)
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c.spec), ".sieve")+"/"+c.test, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(sieve, "run", "specs/"+c.spec, "--test", c.test, "-q", "-o", out)
			cmd.Dir = ".."
			log, err := cmd.CombinedOutput()
			if code := exitCode(err); code != c.exit {
				t.Fatalf("sieve run exited %d, want %d (%v)\n%s", code, c.exit, err, log)
			}
			if c.want != nil && !anyFinding(t, out, c.want) {
				t.Errorf("no finding of the bug's shape in %s\n%s", out, log)
			}
		})
	}
}

// buildSieve builds the sieve binary once for the end-to-end tests, or
// skips them when they are not asked for.
func buildSieve(t *testing.T) string {
	t.Helper()
	if os.Getenv(e2eEnv) == "" {
		t.Skipf("end-to-end runs take minutes on the embedded backend; set %s=1 to run them", e2eEnv)
	}
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

// anyFinding reports whether some plan's result in the results directory
// dir has a finding that ok accepts.
func anyFinding(t *testing.T, dir string, ok func(finding) bool) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "plans", "*", "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "plans", "*", "result.json"))
	for _, f := range append(files, more...) {
		var r struct {
			Findings []finding `json:"findings"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, fd := range r.Findings {
			if ok(fd) {
				return true
			}
		}
	}
	return false
}
