package plan

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/sievetool/sieve/interp/planfile"
)

// Set is the outcome of generation: the plans, in a deterministic order,
// and the counts per policy and pattern.
type Set struct {
	Plans  []*planfile.Plan `json:"plans"`
	Counts []Count          `json:"counts"`
	// Candidates lists every candidate of every pattern, in generation
	// order, with the plan it made or the pass that dropped it.
	Candidates []Candidate `json:"candidates,omitempty"`
}

// Files a plans directory holds besides the plans.
const (
	// CountsFile holds the counts per policy and pattern (JSON).
	CountsFile = "counts.json"
	// PrunedFile holds every candidate and what became of it (JSON Lines,
	// WriteCandidates).
	PrunedFile = "pruned.jsonl"
)

// Write writes each plan of the set to dir as NAME.json, the counts to
// dir/counts.json and the candidates to dir/pruned.jsonl. It creates dir
// if needed.
func (s *Set) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	for _, p := range s.Plans {
		b, err := p.Marshal()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, p.Name+".json"), b, 0o644); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
	}
	b, err := json.MarshalIndent(s.Counts, "", "  ")
	if err != nil {
		return fmt.Errorf("plan: counts: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, CountsFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	return WriteCandidatesFile(filepath.Join(dir, PrunedFile), s.Candidates)
}

// WriteCandidatesFile writes the candidates to file as JSON Lines.
func WriteCandidatesFile(file string, cands []Candidate) error {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	err = WriteCandidates(f, cands)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("plan: %w", cerr)
	}
	return err
}

// ReadDir reads every plan file (*.json except counts.json) in dir, sorted
// by name.
func ReadDir(dir string) ([]*planfile.Plan, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
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
