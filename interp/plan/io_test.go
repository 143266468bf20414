package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sievetool/sieve/interp/planfile"
	"github.com/sievetool/sieve/interp/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestWriteReadDir writes a generated set to a directory and reads every
// plan back unchanged; the counts land in counts.json, the candidates in
// pruned.jsonl.
func TestWriteReadDir(t *testing.T) {
	tr, err := trace.Read("testdata/datastore.trace.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	test := &ir.Test{Name: "buggy", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune,
	}}}
	set, err := Generate(tr, test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := set.Write(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "counts.json")); err != nil {
		t.Errorf("counts.json: %v", err)
	}
	f, err := os.Open(filepath.Join(dir, PrunedFile))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := ReadCandidates(f)
	f.Close()
	if err != nil || !reflect.DeepEqual(cands, set.Candidates) {
		t.Errorf("pruned.jsonl does not read back the candidates: %v", err)
	}
	got, err := ReadDir(dir)
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

// TestGenerateStable checks that generation is deterministic: two runs
// give the same plans, in the same order, with the same names.
func TestGenerateStable(t *testing.T) {
	tr := synthTrace(1500)
	test := &ir.Test{Name: "bench", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune, MaxPlans: 7,
	}}}
	var first []byte
	for range 2 {
		set, err := Generate(tr, test, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, p := range set.Plans {
			m, _ := p.Marshal()
			b.Write(m)
		}
		if first == nil {
			first = b.Bytes()
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatal("two generations from the same trace differ")
		}
	}
}
