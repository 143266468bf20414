package plan

import (
	"fmt"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/internal/nofollow"
)

// Set is the outcome of generation: the plans, in a deterministic order,
// and the counts per policy and pattern.
type Set struct {
	Plans  []*planfile.Plan `json:"plans"`
	Counts []Count          `json:"counts"`
	// Candidates lists every candidate of every pattern, in generation
	// order, with the plan it made or the pass that dropped it.
	Candidates []Candidate `json:"candidates,omitempty"`
	// Operations are the explored operations of the reference run and
	// which were merged into which, none for a test that explores
	// nothing.
	Operations []Operation `json:"operations,omitempty"`
}

// WriteCandidatesFile writes the candidates to file as JSON Lines.
func WriteCandidatesFile(file string, cands []Candidate) error {
	f, err := nofollow.Create(file)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	err = WriteCandidates(f, cands)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("plan: %w", cerr)
	}
	return err
}
