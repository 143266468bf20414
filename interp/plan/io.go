package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/sievetool/sieve/lang/input"
)

// Set is the outcome of generation: the plans, in a deterministic order,
// and the counts per policy and pattern.
type Set struct {
	Plans  []*Plan `json:"plans"`
	Counts []Count `json:"counts"`
	// Candidates lists every candidate of every pattern, in generation
	// order, with the plan it made or the pass that dropped it.
	Candidates []Candidate `json:"candidates,omitempty"`
}

// Marshal returns the indented JSON of the plan, ending in a newline.
func (p *Plan) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("plan %s: %w", p.Name, err)
	}
	return buf.Bytes(), nil
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

// Read reads one plan file.
func Read(file string) (*Plan, error) {
	b, err := input.ReadFile(file, input.PlanLimit)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	p, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return p, nil
}

// Decode decodes a plan and checks its format version. Unknown fields are
// an error, so a misspelt field in a hand-edited plan is not ignored.
func Decode(b []byte) (*Plan, error) {
	var p Plan
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	switch {
	case p.Format == 0:
		return nil, fmt.Errorf("plan: not a sieve plan (no \"sievePlan\" field)")
	case p.Format != Version:
		return nil, fmt.Errorf("plan: version %d, this sieve reads version %d", p.Format, Version)
	case p.Name == "":
		return nil, fmt.Errorf("plan: no name")
	}
	return &p, nil
}
