package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/internal/nofollow"
)

// CountsFile is ROOT/counts.json in the directory sieve plan --out writes:
// the counts per policy and pattern.
const CountsFile = "counts.json"

// WritePlanSet writes what sieve plan --out writes to the root: each plan
// of the set as NAME.json, the counts to counts.json and the candidates
// to pruned.jsonl. It creates the root if needed.
func WritePlanSet(l Layout, s *plan.Set) error {
	if err := os.MkdirAll(l.Root, nofollow.DirMode); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	for _, p := range s.Plans {
		b, err := p.Marshal()
		if err != nil {
			return err
		}
		if err := nofollow.WriteFile(filepath.Join(l.Root, p.Name+".json"), b); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	b, err := json.MarshalIndent(s.Counts, "", "  ")
	if err != nil {
		return fmt.Errorf("report: counts: %w", err)
	}
	if err := nofollow.WriteFile(filepath.Join(l.Root, CountsFile), append(b, '\n')); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return WritePruned(l, s.Candidates)
}

// ReadPlanSet reads every plan file that WritePlanSet wrote (*.json but
// counts.json) at the root, sorted by name.
func ReadPlanSet(l Layout) ([]*planfile.Plan, error) {
	files, err := filepath.Glob(filepath.Join(l.Root, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	sort.Strings(files)
	var out []*planfile.Plan
	for _, f := range files {
		if filepath.Base(f) == CountsFile {
			continue
		}
		p, err := planfile.Read(f)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// WritePruned writes ROOT/pruned.jsonl: every candidate plan of the run
// and what became of it.
func WritePruned(l Layout, cands []plan.Candidate) error {
	return plan.WriteCandidatesFile(l.Pruned(), cands)
}
