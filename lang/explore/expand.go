package explore

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// StepKind is the kind of the placeholder step a front end lowers an
// explore step to until its test's controller names the CRDs; Expand
// replaces it before the IR leaves the front end.
const StepKind ir.StepKind = "explore"

// Use is what a placeholder explore step stands for, as a front end
// (lang/check, lang/cuefront) lowered it.
type Use struct {
	// Src is the explore step's range, SeedSrc its seed file's.
	Src, SeedSrc diag.Range
	// Seed is the seed file as the IR names files: from the root spec's
	// directory.
	Seed string
	// Options are the generator's bounds of the step's clauses.
	Options Options
	// States is the step's states clause (ir.States, the seed's apply
	// step carries it).
	States ir.States
	// Bad says a clause or the seed file was refused (and reported): the
	// step expands to nothing.
	Bad bool
}

// AddPattern adds the pattern of an only or skip clause (word) to o, or
// returns why it is no field path.
func (o *Options) AddPattern(word, pattern string) error {
	p, err := ir.ParsePattern(pattern)
	if err != nil {
		return fmt.Errorf("%s: %w", word, err)
	}
	if word == "only" {
		o.Only = append(o.Only, p)
	} else {
		o.Skip = append(o.Skip, p)
	}
	return nil
}

// Expand replaces the placeholder explore steps (those uses holds) of t's
// workloads with the steps each stands for, generated from the CRDs of
// t's controller (files named from rootDir); without a controller (a base
// test) they are dropped. It returns the problems, at the explore step or
// its seed, with the same messages for both front ends.
func Expand(t *ir.Test, rootDir string, uses map[*ir.Step]*Use) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, w := range t.Workloads {
		steps := []*ir.Step{}
		for _, st := range w.Steps {
			use, ok := uses[st]
			if !ok {
				steps = append(steps, st)
				continue
			}
			if !use.Bad && t.Controller != nil {
				more, d := expandUse(use, t.Controller, rootDir)
				steps = append(steps, more...)
				if d != nil {
					ds = append(ds, d)
				}
			}
		}
		w.Steps = steps
	}
	return ds
}

// expandUse returns the steps of one explore step: the seed applied and a
// settle, then per operation a merge patch of the seed's object, marked
// with its operation, and a settle (as `sieve explore --print` writes
// them).
func expandUse(use *Use, ctrl *ir.Controller, rootDir string) ([]*ir.Step, *diag.Diagnostic) {
	if len(ctrl.CRDs) == 0 {
		return nil, diag.Errorf(use.Src, "explore", "explore: controller %s names no crds (the seed's kind needs its CRD: add crds [\"FILE\"] to the controller)", ctrl.Name)
	}
	var crds []string
	for _, f := range ctrl.CRDs {
		crds = append(crds, ir.OSPath(rootDir, f))
	}
	r, err := LoadFiles(ir.OSPath(rootDir, use.Seed), crds)
	if err != nil {
		return nil, diag.Errorf(use.SeedSrc, "explore", "explore: %v", err)
	}
	ops := Generate(r, use.Options)
	patches, err := Patches(r, ops)
	if err != nil {
		return nil, diag.Errorf(use.Src, "explore", "explore: %v", err)
	}
	settle := func() *ir.Step {
		return &ir.Step{Kind: ir.StepSettle, Src: use.Src, Timeout: ir.Duration(ir.DefaultStepSettle)}
	}
	seed := &ir.Step{Kind: ir.StepApply, Src: use.Src, File: use.Seed}
	if use.States != (ir.States{}) {
		states := use.States
		seed.States = &states
	}
	out := []*ir.Step{seed, settle()}
	target := r.Ref()
	target.Kind, _, _ = strings.Cut(target.Kind, ".")
	for i, p := range patches {
		b, err := json.Marshal(p)
		if err != nil {
			return nil, diag.Errorf(use.Src, "explore", "explore: operation %s: %v", ops[i], err)
		}
		out = append(out, &ir.Step{Kind: ir.StepPatch, Src: use.Src, Target: &target, PatchType: ir.PatchMerge,
			Patch: string(b), Explored: ops[i].IR(r)}, settle())
	}
	return out, nil
}
