package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/interp/formats/results"
)

// FuzzLoad writes arbitrary bytes as a results directory's summary.json,
// a plan's result.json and its trace (the reference's too), seeded with
// those of testdata/results, and
// loads the directory as sieve report does (and its plan, as sieve
// reproduce does): loading must never panic and fail with a clear error
// that names the file, and what loads renders as text, JSON, JUnit and
// HTML (with the traces' timelines) without a panic.
func FuzzLoad(f *testing.F) {
	summary, err := os.ReadFile("testdata/results/summary.json")
	if err != nil {
		f.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/results/plans/*/result.json")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		tr, _ := os.ReadFile(filepath.Join(filepath.Dir(file), results.TraceFile))
		f.Add(summary, b, tr[:min(len(tr), 6<<10)])
	}
	f.Add(summary, []byte(`{"plan": 1}`), []byte{}) // an error in Go's words, once
	f.Add([]byte(`{"runs": 2}`), []byte(`{}`), []byte{})
	f.Fuzz(func(t *testing.T, summary, result, tr []byte) {
		l := results.Layout{Root: t.TempDir()}
		plan := filepath.Join(l.Root, results.PlanRel("p"))
		inputs := map[string][]byte{l.Summary(): summary, filepath.Join(plan, results.ResultFile): result, filepath.Join(plan, results.TraceFile): tr, l.ReferenceTrace(1): tr}
		for file, b := range inputs {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := results.ReadPlanRun(plan); err != nil {
			hostile.CheckError(t, err, append(summary, result...))
		}
		s, err := results.Load(l.Root)
		if err != nil {
			hostile.CheckError(t, err, append(summary, result...))
			if !bytes.Contains([]byte(err.Error()), []byte(".json")) {
				t.Fatalf("error names no file: %v", err)
			}
			return
		}
		var out bytes.Buffer
		for _, render := range []func() error{
			func() error { return Text(&out, s, TextOptions{Verbose: true}) },
			func() error { return JSON(&out, s) },
			func() error { return JUnit(&out, s) },
			func() error { return HTML(filepath.Join(l.Root, "html"), l.Root, s) },
		} {
			if err := render(); err != nil {
				hostile.CheckError(t, err, append(summary, result...))
			}
		}
	})
}
