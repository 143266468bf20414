package check

import (
	"encoding/json"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// stepExplore is the kind of the placeholder an explore step lowers to
// until its test's controller names the CRDs; expandExplores replaces it
// before the IR leaves the checker.
const stepExplore ir.StepKind = "explore"

// exploreUse is what a placeholder explore step stands for: its seed and
// the generator's bounds, or bad when a clause was refused.
type exploreUse struct {
	src      diag.Range
	seedRng  diag.Range
	seedFile string // as the IR names files: from the root spec's directory
	opts     explore.Options
	bad      bool
}

// exploreStep lowers an explore step to a placeholder and checks its seed
// file and clauses.
func (c *checker) exploreStep(st *ir.Step, s *syntax.Explore, sc *scope) {
	st.Kind = stepExplore
	use := &exploreUse{src: s.Range()}
	v := c.eval(s.Seed, sc)
	use.seedRng = v.rng
	var ok bool
	if use.seedFile, ok = c.filePath(v, "explore", false, false); !ok {
		use.bad = true
	}
	seen := map[string]*syntax.ExploreClause{}
	for _, cl := range s.Clauses {
		if prev := seen[cl.Word]; prev != nil && (cl.Word == "max" || cl.Word == "seed") {
			d := c.errorf(cl.Range(), "explore", "explore: %s given twice", cl.Word)
			related(d, "first given here", prev.Range())
			use.bad = true
			continue
		}
		seen[cl.Word] = cl
		if !c.exploreClause(&use.opts, cl, c.eval(cl.Value, sc)) {
			use.bad = true
		}
	}
	if c.explores == nil {
		c.explores = map[*ir.Step]*exploreUse{}
	}
	c.explores[st] = use
}

// exploreClause sets the bound of one clause in o, and reports whether
// its value was right.
func (c *checker) exploreClause(o *explore.Options, cl *syntax.ExploreClause, v *value) bool {
	what := "explore: " + cl.Word
	switch cl.Word {
	case "max":
		n, ok := c.count(v, what, 1, ir.CountOperations)
		o.Max = int(n)
		return ok
	case "seed":
		n, ok := c.integer(v, what, 0)
		o.Seed = uint64(n)
		return ok
	}
	s, ok := c.str(v, what)
	if !ok {
		return false
	}
	p, err := ir.ParsePattern(s)
	if err != nil {
		c.errorf(v.rng, "explore", "%s: %v", what, err)
		return false
	}
	if cl.Word == "only" {
		o.Only = append(o.Only, p)
	} else {
		o.Skip = append(o.Skip, p)
	}
	return true
}

// expandExplores replaces the placeholder explore steps of t's workloads
// with the steps they stand for, generated from the CRDs of t's
// controller; without a controller (a base test) they are dropped.
func (c *checker) expandExplores(t *ir.Test) {
	for _, w := range t.Workloads {
		var steps []*ir.Step
		for _, st := range w.Steps {
			use, ok := c.explores[st]
			if !ok {
				steps = append(steps, st)
				continue
			}
			if !use.bad && t.Controller != nil {
				steps = append(steps, c.expandExplore(use, t.Controller)...)
			}
		}
		if steps == nil {
			steps = []*ir.Step{}
		}
		w.Steps = steps
	}
}

// expandExplore returns the steps of one explore step: the seed applied
// and a settle, then per operation a merge patch of the seed's object,
// marked with its operation, and a settle (as `sieve explore --print`
// writes them).
func (c *checker) expandExplore(use *exploreUse, ctrl *ir.Controller) []*ir.Step {
	if len(ctrl.CRDs) == 0 {
		c.errorf(use.src, "explore", "explore: controller %s names no crds (the seed's kind needs its CRD: add crds [\"FILE\"] to the controller)", ctrl.Name)
		return nil
	}
	var crds []string
	for _, f := range ctrl.CRDs {
		crds = append(crds, ir.OSPath(c.rootDir, f))
	}
	r, err := explore.LoadFiles(ir.OSPath(c.rootDir, use.seedFile), crds)
	if err != nil {
		c.errorf(use.seedRng, "explore", "explore: %v", err)
		return nil
	}
	ops := explore.Generate(r, use.opts)
	patches, err := explore.Patches(r, ops)
	if err != nil {
		c.errorf(use.src, "explore", "explore: %v", err)
		return nil
	}
	settle := func() *ir.Step {
		return &ir.Step{Kind: ir.StepSettle, Src: use.src, Timeout: ir.Duration(ir.DefaultStepSettle)}
	}
	out := []*ir.Step{{Kind: ir.StepApply, Src: use.src, File: use.seedFile}, settle()}
	target := r.Ref()
	target.Kind, _, _ = strings.Cut(target.Kind, ".")
	for i, p := range patches {
		b, err := json.Marshal(p)
		if err != nil {
			c.errorf(use.src, "explore", "explore: operation %s: %v", ops[i], err)
			return nil
		}
		out = append(out, &ir.Step{Kind: ir.StepPatch, Src: use.src, Target: &target, PatchType: ir.PatchMerge,
			Patch: string(b), Explored: ops[i].IR(r)}, settle())
	}
	return out
}
