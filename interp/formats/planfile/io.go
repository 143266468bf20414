package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sievetool/sieve/lang/input"
)

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
		return nil, fmt.Errorf("plan: %w", input.JSONError(b, err))
	}
	switch {
	case p.Format == 0:
		return nil, fmt.Errorf("plan: not a sieve plan (no \"sievePlan\" field)")
	case p.Format != Version:
		return nil, fmt.Errorf("plan: version %d, this sieve reads version %d", p.Format, Version)
	case p.Name == "":
		return nil, fmt.Errorf("plan: no name")
	case p.Checkpoint != nil && p.Checkpoint.After < 1:
		return nil, fmt.Errorf("plan: checkpoint: afterOperation %d (want the explored operation it is taken after, from 1)", p.Checkpoint.After)
	}
	return &p, nil
}
