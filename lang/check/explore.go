package check

import (
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// exploreStep lowers an explore step to a placeholder (explore.StepKind)
// and checks its seed file and clauses; expandExplores replaces it.
func (c *checker) exploreStep(st *ir.Step, s *syntax.Explore, sc *scope) {
	st.Kind = explore.StepKind
	use := &explore.Use{Src: s.Range()}
	v := c.eval(s.Seed, sc)
	use.SeedSrc = v.rng
	var ok bool
	if use.Seed, ok = c.filePath(v, "explore", false, false); !ok {
		use.Bad = true
	}
	seen := map[string]*syntax.ExploreClause{}
	for _, cl := range s.Clauses {
		if prev := seen[cl.Word]; prev != nil && cl.Word != "only" && cl.Word != "skip" {
			d := c.errorf(cl.Range(), "explore", "explore: %s given twice", cl.Word)
			related(d, "first given here", prev.Range())
			use.Bad = true
			continue
		}
		seen[cl.Word] = cl
		if !c.exploreClause(use, cl, c.eval(cl.Value, sc)) {
			use.Bad = true
		}
	}
	if c.explores == nil {
		c.explores = map[*ir.Step]*explore.Use{}
	}
	c.explores[st] = use
}

// exploreClause sets the bound of one clause in use, and reports whether
// its value was right.
func (c *checker) exploreClause(use *explore.Use, cl *syntax.ExploreClause, v *value) bool {
	what := "explore: " + cl.Word
	o := &use.Options
	switch cl.Word {
	case "states":
		var ok bool
		use.States, ok = c.exploreStates(v, what)
		return ok
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
	if err := o.AddPattern(cl.Word, s); err != nil {
		c.errorf(v.rng, "explore", "explore: %v", err)
		return false
	}
	return true
}

// exploreStates reads the value of a states clause: all, none, or a
// number of states (a parameter holding one).
func (c *checker) exploreStates(v *value, what string) (ir.States, bool) {
	if v.use(kInt) {
		return ir.States{}, false
	}
	if v.kind == kInt && v.i == 0 {
		d := c.errorf(v.rng, "range", "%s: must be at least 1, got 0", what)
		hint(d, "states none compares the final state alone")
		return ir.States{}, false
	}
	if v.kind == kInt {
		n, ok := c.count(v, what, 1, ir.CountOperations)
		return ir.States{Rule: ir.StatesEvery, Max: int(n)}, ok
	}
	word := (v.kind == kWord || v.kind == kRef || v.kind == kString) && !v.call // as c.word reads one
	if s, ok := ir.StatesWord(v.s); ok && word {
		return s, true
	}
	d := c.errorf(v.rng, "type", "%s: want %s, got %s", what, ir.StatesWant, v.describe())
	if word {
		hint(d, spell.Hint(v.s, ir.StatesWords()))
	}
	return ir.States{}, false
}

// expandExplores replaces the placeholder explore steps of t's workloads
// with the steps they stand for (explore.Expand, which the CUE front end
// calls too).
func (c *checker) expandExplores(t *ir.Test) {
	c.diags = append(c.diags, explore.Expand(t, c.rootDir, c.explores)...)
}
