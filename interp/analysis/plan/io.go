package plan

import (
	"fmt"
	"slices"

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

	// stretches are the operations' stretches of the reference trace, in
	// order (OperationOf); none in a set read back from a file.
	stretches []opStretch
}

// opStretch is the part of a reference trace an explored operation owns:
// sequence numbers from first to end, end exclusive (0: the trace's end).
type opStretch struct {
	number     int
	first, end int64
}

// OperationOf returns the number of the explored operation whose stretch
// of the reference trace holds every trace entry plan p was made from
// (p.Why): where its fault fires. It returns 0 when none does: the seed's
// stretch before the first operation, entries across operations, a plan
// made from none (the test's own plans), or a set read from a file.
func (s *Set) OperationOf(p *planfile.Plan) int {
	if len(p.Why) == 0 {
		return 0
	}
	for _, st := range s.stretches {
		if !slices.ContainsFunc(p.Why, func(w planfile.Why) bool { return !st.holds(w.Seq) }) {
			return st.number
		}
	}
	return 0
}

func (st opStretch) holds(seq int64) bool {
	return seq >= st.first && (st.end == 0 || seq < st.end)
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
