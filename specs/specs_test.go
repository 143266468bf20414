package specs

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sievetool/sieve/lang/format"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/load"
)

// TestSpecsCheck loads every spec under specs/ with the checker and holds
// each to the tests it must define: buggy and fixed (the fixed one passing
// --fixed to the controller), or one per workload for the built-in
// controller. testdata/measure holds the examples' tests narrowed to the
// apierror and appfault patterns, which the examples' READMEs measure.
func TestSpecsCheck(t *testing.T) {
	want := map[string][]string{
		"datastore/datastore.sieve":             {"buggy", "fixed"},
		"datastore/datastore.cue":               {"buggy", "fixed"},
		"ensemble/ensemble.sieve":               {"buggy", "fixed"},
		"members/members.sieve":                 {"buggy", "fixed"},
		"podreaper/podreaper.sieve":             {"buggy", "fixed"},
		"ring/ring.sieve":                       {"buggy", "fixed"},
		"routetable/routetable.sieve":           {"buggy", "fixed"},
		"settings/settings.sieve":               {"buggy", "fixed", "scale"},
		"statefulset/statefulset.sieve":         {"recreate", "scale"},
		"testdata/datastore_apierror_e2e.sieve": {"fixed"},
		"testdata/datastore_explore_e2e.sieve":  {"explored", "final", "faults"},
		"testdata/datastore_explore_e2e.cue":    {"explored", "final", "faults"},
		"testdata/ensemble_appfault_e2e.sieve":  {"fixed"},
		"testdata/ensemble_e2e.sieve":           {"buggy", "fixed"},
		"testdata/ensemble_stale_e2e.sieve":     {"buggy", "fixed"},
		"testdata/members_e2e.sieve":            {"buggy", "fixed"},
		"testdata/ring_e2e.sieve":               {"buggy", "fixed"},
		"testdata/routetable_e2e.sieve":         {"buggy", "fixed"},
		"testdata/routetable_reads_e2e.sieve":   {"fixed", "buggy"},
		"testdata/settings_suffix_e2e.sieve":    {"fixed"},
		"testdata/volresize_e2e.sieve":          {"buggy", "fixed"},
		"volresize/volresize.sieve":             {"buggy", "fixed"},
		"testdata/measure/datastore.sieve":      {"buggy", "fixed"},
		"testdata/measure/ensemble.sieve":       {"buggy", "fixed"},
		"testdata/measure/members.sieve":        {"buggy", "fixed"},
		"testdata/measure/podreaper.sieve":      {"buggy", "fixed"},
		"testdata/measure/ring.sieve":           {"buggy", "fixed"},
		"testdata/measure/routetable.sieve":     {"buggy", "fixed"},
		"testdata/measure/settings.sieve":       {"scale"},
		"testdata/measure/statefulset.sieve":    {"recreate", "scale"},
		"testdata/measure/volresize.sieve":      {"buggy", "fixed"},
	}
	files, err := filepath.Glob("*/*.*")
	if err != nil {
		t.Fatal(err)
	}
	measure, err := filepath.Glob("testdata/measure/*.*")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, measure...)
	seen := 0
	for _, f := range files {
		if !load.IsSpecFile(f) {
			continue
		}
		seen++
		tests, ok := want[filepath.ToSlash(f)]
		if !ok {
			t.Errorf("%s: spec not listed in this test", f)
			continue
		}
		spec, ds := load.Load(f, load.Options{})
		if ds.HasErrors() || spec == nil {
			t.Errorf("%s: %v", f, ds)
			continue
		}
		checkTests(t, f, spec, tests)
	}
	if seen != len(want) {
		t.Errorf("found %d specs, want %d", seen, len(want))
	}
}

func checkTests(t *testing.T, file string, spec *ir.Spec, want []string) {
	t.Helper()
	var got []string
	for _, test := range spec.Tests {
		got = append(got, test.Name)
		fixed := slices.Contains(test.Controller.Args, "--fixed")
		if fixed != (test.Name == "fixed") {
			t.Errorf("%s: test %s: controller args %q", file, test.Name, test.Controller.Args)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: tests %v, want %v", file, got, want)
	}
}

// TestSpecsFormatted holds every .sieve spec to `sieve fmt`'s layout.
func TestSpecsFormatted(t *testing.T) {
	files, err := filepath.Glob("*/*.sieve")
	if err != nil || len(files) == 0 {
		t.Fatalf("no specs found: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out, ds := format.Source(f, src)
		if ds.HasErrors() {
			t.Errorf("%s: %v", f, ds)
			continue
		}
		if !bytes.Equal(out, src) {
			t.Errorf("%s: not formatted (run: sieve fmt -w %s)", f, f)
		}
	}
}
