package check

import (
	"github.com/sievetool/sieve/lang/explore"
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
		if prev := seen[cl.Word]; prev != nil && (cl.Word == "max" || cl.Word == "seed") {
			d := c.errorf(cl.Range(), "explore", "explore: %s given twice", cl.Word)
			related(d, "first given here", prev.Range())
			use.Bad = true
			continue
		}
		seen[cl.Word] = cl
		if !c.exploreClause(&use.Options, cl, c.eval(cl.Value, sc)) {
			use.Bad = true
		}
	}
	if c.explores == nil {
		c.explores = map[*ir.Step]*explore.Use{}
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
	if err := o.AddPattern(cl.Word, s); err != nil {
		c.errorf(v.rng, "explore", "explore: %v", err)
		return false
	}
	return true
}

// expandExplores replaces the placeholder explore steps of t's workloads
// with the steps they stand for (explore.Expand, which the CUE front end
// calls too).
func (c *checker) expandExplores(t *ir.Test) {
	c.diags = append(c.diags, explore.Expand(t, c.rootDir, c.explores)...)
}
