package results

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/lang/ir"
)

// fixtureDir is the results directory that interp/report's goldens
// render, here read back.
const fixtureDir = "../../report/testdata/results"

// TestLoadInterrupted loads a results directory without summary.json in
// which one plan has no result yet: the finished plan is there.
func TestLoadInterrupted(t *testing.T) {
	root := t.TempDir()
	l := Layout{Root: root}
	r := &Result{Test: "buggy", Plan: "intermediate-1", Status: Passed, Findings: []*oracle.Finding{}, Started: time.Unix(0, 0).UTC()}
	if err := WriteResult(l, r); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(l.PlanDir("intermediate-2"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 1 || s.Results[0].Plan != "intermediate-1" || s.Runs[0].Test != "buggy" {
		t.Errorf("got %+v", s.Results)
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("an empty directory loaded without error")
	}
}

// TestLoadSeveralTests loads a directory holding one results directory per
// test.
func TestLoadSeveralTests(t *testing.T) {
	root := t.TempDir()
	for _, test := range []string{"a", "b"} {
		l := Layout{Root: filepath.Join(root, test)}
		if err := WriteRun(l, &TestRun{Test: test, Planned: 1}); err != nil {
			t.Fatal(err)
		}
		if err := WriteResult(l, &Result{Test: test, Plan: "p", Status: NotInjected}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 2 || len(s.Results) != 2 || s.Results[1].Dir != "b/plans/p" || s.Totals.NotInjected != 2 {
		t.Errorf("got runs %d results %d totals %+v", len(s.Runs), len(s.Results), s.Totals)
	}
	if s.ExitCode() != 0 {
		t.Errorf("exit code %d for not-injected plans, want 0", s.ExitCode())
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{"stale-1": "stale-1", "a/b c": "a_b_c", ".hidden": "_hidden", "": "_", "x.y": "x.y"} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriteLearned(t *testing.T) {
	l := Layout{Root: t.TempDir()}
	rules := []*ir.MaskRule{{Target: ir.Ref{Kind: "pod", Namespace: "default", Name: "web-*"}, Whole: true}}
	if err := WriteLearned(l, rules, []string{"learned from 2 reference runs"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(l.Learned())
	if err != nil {
		t.Fatal(err)
	}
	want := "// learned from 2 reference runs\nmask learned {\n  pod/default/web-* whole\n}\n"
	if string(b) != want {
		t.Errorf("got %q", b)
	}
}

// TestConfirm settles a failed plan's findings against its reruns: only
// reruns that tested the plan count, findings found again stay, the others
// move to Unconfirmed, and a plan left with none is flaky.
func TestConfirm(t *testing.T) {
	missing := &oracle.Finding{Check: oracle.CheckMissing, Key: "pvc/default/a"}
	count := &oracle.Finding{Check: oracle.CheckCount, Key: "pvc/default/b"}
	run := func(st Status, fs ...*oracle.Finding) *Result { return &Result{Status: st, Findings: fs} }
	cases := []struct {
		name              string
		reruns            []*Result
		status            Status
		kept, unconfirmed int
	}{
		{"no rerun", nil, Failed, 2, 0},
		{"rerun errored", []*Result{run(Errored)}, Failed, 2, 0},
		{"rerun not injected", []*Result{run(NotInjected)}, Failed, 2, 0},
		{"rerun passed", []*Result{run(Passed)}, Flaky, 0, 2},
		{"one found again", []*Result{run(Failed, &oracle.Finding{Check: oracle.CheckMissing, Key: "pvc/default/a", Message: "other words"})}, Failed, 1, 1},
		{"found over two reruns", []*Result{run(Failed, count), run(Failed, missing)}, Failed, 2, 0},
		{"same object, other check", []*Result{run(Failed, &oracle.Finding{Check: oracle.CheckExtra, Key: "pvc/default/a"})}, Flaky, 0, 2},
	}
	for _, c := range cases {
		r := run(Failed, missing, count)
		r.Confirm(c.reruns)
		if r.Status != c.status || len(r.Findings) != c.kept || len(r.Unconfirmed) != c.unconfirmed || len(r.Reruns) != len(c.reruns) {
			t.Errorf("%s: status %s, %d kept, %d unconfirmed, %d reruns; want %s, %d, %d, %d", c.name,
				r.Status, len(r.Findings), len(r.Unconfirmed), len(r.Reruns), c.status, c.kept, c.unconfirmed, len(c.reruns))
		}
	}
	r := run(Failed, missing)
	if r.FoundAgain(nil) || !r.FoundAgain([]*Result{run(Failed, missing)}) {
		t.Error("FoundAgain: want false with no rerun, true once a rerun found the finding")
	}
}
