package sievetest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sievetool/sieve/sievetest"
)

func TestMain(m *testing.M) { sievetest.Main(m) }

// spec is the smallest example that shows a bug: volresize narrowed to the
// one plan that finds it (a crash right after the StatefulSet delete).
const spec = "../specs/testdata/volresize_e2e.sieve"

// exploreSpec is the datastore controller under an explored workload,
// whose explored-run oracles and differential run find what it ignores.
const exploreSpec = "../specs/testdata/datastore_explore_e2e.sieve"

// childEnv names the environment variable that makes TestChild run: the
// tests whose failure is the point run in a child test process, so that
// their failing subtests do not fail this one.
const childEnv = "SIEVETEST_CHILD"

// TestChild is the test the child processes run; by itself it skips.
func TestChild(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "":
		t.Skip("run in a child process by TestBuggy, TestShort, TestExplored and TestUsageErrors")
	case "buggy":
		sievetest.Run(t, spec, sievetest.Test("buggy"), sievetest.Parallel(1))
	case "fixed":
		sievetest.Run(t, spec, sievetest.Test("fixed"), sievetest.Parallel(1))
	case "explored":
		sievetest.Run(t, exploreSpec, sievetest.Test("final"))
	case "badspec":
		sievetest.Run(t, "testdata/bad.sieve")
	case "badtest":
		sievetest.Run(t, spec, sievetest.Test("fixd"))
	case "badoption":
		sievetest.Run(t, spec, sievetest.Pattern("stael"))
	}
}

// child runs TestChild in a child process with what=which and the test
// flags args, and returns its exit code and output.
func child(t *testing.T, which string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run", "^TestChild$", "-test.v"}, args...)...)
	// A TMPDIR of its own: a child that fails keeps its results there.
	cmd.Env = append(os.Environ(), childEnv+"="+which, "TMPDIR="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("running the child test: %v", err)
	}
	return cmd.ProcessState.ExitCode(), out.String()
}

// childFails runs TestChild as child does and fails t unless it exits 1
// (a failed test) with each of want in its output, which it returns.
func childFails(t *testing.T, want []string, which string, args ...string) string {
	t.Helper()
	code, log := child(t, which, args...)
	if code != 1 {
		t.Fatalf("child exited %d, want 1 (a failed test):\n%s", code, log)
	}
	for _, w := range want {
		if !strings.Contains(log, w) {
			t.Errorf("child output lacks %q:\n%s", w, log)
		}
	}
	return log
}

// skipWithoutCluster skips in -short mode: the test runs plans on an
// embedded control plane.
func skipWithoutCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a spec on an embedded control plane; skipped in -short mode")
	}
}

// TestFixed runs the fixed controller: its plans pass (or are flaky or
// not injected, which do not fail a test), no result has a finding, and
// the results directory Out names holds their results.
func TestFixed(t *testing.T) {
	skipWithoutCluster(t)
	t.Parallel() // beside TestBuggy, after TestShort recorded the references
	out := t.TempDir()
	root := sievetest.Run(t, spec, sievetest.Test("fixed"), sievetest.Out(out), sievetest.Parallel(1))
	if want := filepath.Join(out, "TestFixed"); root != want {
		t.Errorf("results in %s, want %s", root, want)
	}
	results, _ := filepath.Glob(filepath.Join(root, "plans", "*", "result.json"))
	passed := 0
	for _, file := range results {
		var r struct {
			Status   string
			Findings []json.RawMessage
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(r.Findings) > 0 {
			t.Errorf("%s: %d findings, want none:\n%s", file, len(r.Findings), b)
		}
		switch r.Status {
		case "passed", "flaky": // flaky: no rerun found its findings again
			passed++
		case "failed", "error":
			t.Errorf("%s: status %s, want passed, flaky or not-injected", file, r.Status)
		}
	}
	if passed == 0 {
		t.Errorf("no plan ran with its fault injected among the %d results in %s", len(results), root)
	}
}

// TestBuggy runs the buggy controller in a child test process, selecting
// its plan by pattern as a user would (-run 'TestX/intermediate-.*'). The
// plan's subtest fails with the finding (object, field, values, the
// reproduce and rerun commands), confirmed by a rerun that failed too,
// and -sieve.out keeps the results.
func TestBuggy(t *testing.T) {
	skipWithoutCluster(t)
	t.Parallel() // beside TestFixed, each on control planes of its own
	out := t.TempDir()
	childFails(t, []string{
		"--- FAIL: TestChild/intermediate-",
		"finding (",
		"field persistentvolumeclaim/default/data-bc-",
		"spec.resources.requests.storage",
		`reference: "2Gi"`,
		`test run:  "1Gi"`,
		"reproduce: sieve reproduce " + filepath.Join(out, "TestChild", "plans", "intermediate-"),
		"run this plan alone: go test -run '^TestChild$/^intermediate-",
		"sievetest: the results are in ",
	}, "buggy", "-test.run", "^TestChild$/^intermediate-.*", "-sieve.out", out)
	if _, err := os.Stat(filepath.Join(out, "TestChild", "summary.json")); err != nil {
		t.Errorf("-sieve.out: %v", err)
	}
	if reruns := rerunStatuses(t, filepath.Join(out, "TestChild")); !slices.Contains(reruns, "failed") {
		t.Errorf("reruns %v: want the failed plan run again and failing again (findings are confirmed)", reruns)
	}
}

// rerunStatuses returns the status of every rerun that the plans of the
// results directory dir made to confirm their findings.
func rerunStatuses(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "plans", "*", "result.json"))
	var statuses []string
	for _, file := range files {
		var r struct{ Reruns []struct{ Status string } }
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, rr := range r.Reruns {
			statuses = append(statuses, rr.Status)
		}
	}
	return statuses
}

// TestExplored runs, in a child test process, a test whose workload
// explores: the Explore stage runs as in sieve run, its results
// subtests that fail with the explored-run oracles' findings (a change
// of spec.replicas that leaves no trace) and the differential run's (the
// final state applied at once gives another StatefulSet). The spec's
// final test runs no state on the way (states none, a run less; the
// specs package's TestE2EExplore runs one). With -short the two are
// skipped.
func TestExplored(t *testing.T) {
	skipWithoutCluster(t)
	t.Parallel()
	log := childFails(t, []string{
		"explored: 3 operations generated, 1 refused, 2 run, 0 merged",
		"--- FAIL: TestChild/explored ",
		"finding (medium): consistency datastore.datastore.sieve.dev/default/ds spec.replicas",
		"--- FAIL: TestChild/explored-direct ",
		"differential statefulset/default/ds",
	}, "explored")
	if strings.Contains(log, "TestChild/explored-direct-1") {
		t.Errorf("states none ran the state after operation 1 (explored-direct-1):\n%s", log)
	}
	code, log := child(t, "explored", "-test.short")
	if code != 0 || !strings.Contains(log, "--- SKIP: TestChild/explored ") || !strings.Contains(log, "--- SKIP: TestChild/explored-direct ") {
		t.Errorf("-short: child exited %d, want 0 with explored and explored-direct skipped:\n%s", code, log)
	}
}

// TestShort runs the fixed test in -short mode in a child process: the
// reference runs only, every plan skipped. It runs before the parallel
// tests, and TestFixed, the same test binary, takes its references from
// the reference cache rather than recording them again.
func TestShort(t *testing.T) {
	skipWithoutCluster(t)
	code, log := child(t, "fixed", "-test.short")
	if code != 0 {
		t.Fatalf("child exited %d, want 0:\n%s", code, log)
	}
	for _, want := range []string{"--- SKIP: TestChild/intermediate-", "-short: the reference runs only"} {
		if !strings.Contains(log, want) {
			t.Errorf("child output lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "plans to run on") {
		t.Errorf("-short ran plans:\n%s", log)
	}
}

// TestUsageErrors runs, in child processes, a spec that does not check, a
// test the spec lacks and an option sieve run would refuse. Each fails
// the test with what sieve says of it (file:line:col diagnostics for the
// spec), before any control plane starts.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		child string
		want  []string
	}{
		{"badspec", []string{
			"testdata/bad.sieve does not check",
			"testdata/bad.sieve:9:14: error: undefined controller \"brokn\"",
			"did you mean \"broken\"?",
			"testdata/bad.sieve:10:15: error: undefined workload \"nothing\"",
		}},
		{"badtest", []string{`volresize_e2e.sieve: error: no test named "fixd"`, `did you mean "fixed"?`}},
		{"badoption", []string{`sievetest: Pattern: unknown pattern "stael" (want intermediate, stale, unobserved, apierror, appfault, user or explore)`}},
	} {
		t.Run(c.child, func(t *testing.T) {
			log := childFails(t, c.want, c.child)
			if strings.Contains(log, "control plane(s)") {
				t.Errorf("a usage error started control planes:\n%s", log)
			}
		})
	}
}
