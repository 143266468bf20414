package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestWritePlanSet writes a generated set to a directory and reads every
// plan back unchanged; the counts land in counts.json, the candidates in
// pruned.jsonl.
func TestWritePlanSet(t *testing.T) {
	tr, err := trace.Read("../../analysis/plan/testdata/datastore.trace.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	test := &ir.Test{Name: "buggy", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune,
	}}}
	set, err := plan.Generate(tr, test, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WritePlanSet(Layout{Root: dir}, set); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "counts.json")); err != nil {
		t.Errorf("counts.json: %v", err)
	}
	f, err := os.Open(filepath.Join(dir, PrunedFile))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := plan.ReadCandidates(f)
	f.Close()
	if err != nil || !reflect.DeepEqual(cands, set.Candidates) {
		t.Errorf("pruned.jsonl does not read back the candidates: %v", err)
	}
	got, err := ReadPlanSet(Layout{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(set.Plans) {
		t.Fatalf("read %d plans, wrote %d", len(got), len(set.Plans))
	}
	byName := map[string]*planfile.Plan{}
	for _, p := range got {
		byName[p.Name] = p
	}
	for _, p := range set.Plans {
		q := byName[p.Name]
		if q == nil {
			t.Errorf("plan %s not read back", p.Name)
			continue
		}
		a, _ := p.Marshal()
		b, _ := q.Marshal()
		if !bytes.Equal(a, b) {
			t.Errorf("plan %s changed on the way:\n%s\n---\n%s", p.Name, a, b)
		}
	}
}
